// The only way a restore touches the workspace: every path is checked by resolveInWorkspace
// (no escape, no symlink leading out, never .git) right before the write, and content lands
// through a temp file in the same folder plus rename, so a crash leaves the old file or the new
// one, never half of one.
//
// Synchronous on purpose, like the blob store: a restore of a thousand small files spent most
// of its time hopping through libuv's thread pool. The engine yields between small batches.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { BlobStore } from '../files/blob-store'
import type { HistoryPaths } from '../files/history-paths'
import { historyPathsAt } from '../files/history-paths'
import { resolveInWorkspace } from '../files/workspace-paths'

/** Where restores read backups from and write files to (a FileHistory is one). */
export interface RestoreSpace {
  /** The workspace root, resolved through symlinks. */
  root: string
  paths: HistoryPaths
  blobs: BlobStore
}

export function restoreSpaceAt(root: string, historyRoot: string): RestoreSpace {
  const paths = historyPathsAt(historyRoot)
  return { root, paths, blobs: new BlobStore(paths.blobs) }
}

/**
 * The absolute path a restore may touch for `rel`, or PathOutsideWorkspaceError naming it. Called
 * once per file per phase, right before that phase touches it.
 */
export function checkedPath(root: string, rel: string): string {
  return resolveInWorkspace(root, rel).abs
}

/** The file's content, or null when it does not exist. */
export function readFileAt(abs: string): Buffer | null {
  try {
    return readFileSync(abs)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

let tempCount = 0

/** Replaces (or creates) the file atomically, keeping its permission bits. */
export function writeFileAt(abs: string, content: Buffer): void {
  mkdirSync(dirname(abs), { recursive: true })
  const temp = join(dirname(abs), `.${basename(abs)}.${process.pid}-${++tempCount}.rs-tmp`)
  let mode: number | undefined
  try {
    mode = statSync(abs).mode & 0o7777
  } catch {
    mode = undefined
  }
  try {
    writeFileSync(temp, content, mode === undefined ? {} : { mode })
    renameSync(temp, abs)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

export function deleteFileAt(abs: string): void {
  rmSync(abs, { force: true })
}
