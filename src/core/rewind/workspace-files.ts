// The only way a restore touches the workspace: every path is checked (no escape, no symlink on
// it, never .git) right before the write, and content lands
// through a temp file in the same folder plus rename, so a crash leaves the old file or the new
// one, never half of one.
//
// Synchronous on purpose, like the blob store: a restore of a thousand small files spent most
// of its time hopping through libuv's thread pool. The engine yields between small batches.
import {
  type Stats,
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { BlobStore } from '../files/blob-store'
import type { HistoryPaths } from '../files/history-paths'
import { historyPathsAt } from '../files/history-paths'
import { PathOutsideWorkspaceError, resolveInWorkspace } from '../files/workspace-paths'

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
 *
 * Besides resolveInWorkspace's rules, no part of the path may be a symlink, even one leading to
 * another place inside the workspace. Recorded paths never run through one (Write and Edit file a
 * change under the link's target, Bash detection does not follow links), so a link on the path
 * now was put there after the session changed the file, and following it would write or delete
 * a file the session never touched.
 */
export function checkedPath(root: string, rel: string): string {
  const checked = resolveInWorkspace(root, rel)
  let at = root
  for (const part of checked.rel.split('/')) {
    at = join(at, part)
    let stats: Stats
    try {
      stats = lstatSync(at)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') break
      throw error
    }
    if (stats.isSymbolicLink()) {
      throw new PathOutsideWorkspaceError(
        rel,
        `${relative(root, at)} is now a symlink (made after the session changed the file); a restore does not follow it`
      )
    }
    if (!stats.isDirectory()) break
  }
  return checked.abs
}

export interface FileOnDisk {
  content: Buffer
  /** Permission bits (mode & 0o7777). */
  mode: number
}

/**
 * The file's content and mode, or null when no regular file is there (nothing, or a folder: a
 * restore never keeps or deletes a folder as if it were a file).
 */
export function readFileAt(abs: string): FileOnDisk | null {
  let fd: number
  try {
    // O_NONBLOCK: a FIFO put on the path must not hang the restore (it is no file: null below).
    // O_NOFOLLOW: checkedPath refused a link here; one swapped in since is not read through.
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) return null
    return { content: readFileSync(fd), mode: stats.mode & 0o7777 }
  } finally {
    closeSync(fd)
  }
}

let tempCount = 0
const TEMP_SUFFIX = '.rs-tmp'

/**
 * Removes the temp files writeFileAt may have left beside `abs` when a crash came between
 * writing one and renaming it (`.<name>.<pid>-<n>.rs-tmp`): they are no file of the user's.
 */
export function removeLeftoverTemps(abs: string): void {
  const prefix = `.${basename(abs)}.`
  let names: string[]
  try {
    names = readdirSync(dirname(abs))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return
    throw error
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue
    if (!/^\d+-\d+$/.test(name.slice(prefix.length, -TEMP_SUFFIX.length))) continue
    rmSync(join(dirname(abs), name), { force: true })
  }
}

export class FolderInTheWayError extends Error {
  override name = 'FolderInTheWayError'
}

/**
 * Replaces (or creates) the file atomically. `mode` gives it those permission bits exactly (set
 * after writing, so the umask cannot strip any); without it an existing file keeps its own.
 * An empty folder standing where the file goes is removed (a command turned the file into a
 * folder and the restore emptied it); one that still holds anything is left alone.
 */
export function writeFileAt(abs: string, content: Buffer, mode?: number): void {
  mkdirSync(dirname(abs), { recursive: true })
  let keep: number | undefined
  try {
    const stats = lstatSync(abs)
    if (stats.isDirectory()) removeEmptyFolder(abs)
    else keep = stats.mode & 0o7777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const temp = join(dirname(abs), `.${basename(abs)}.${process.pid}-${++tempCount}${TEMP_SUFFIX}`)
  try {
    writeFileSync(temp, content)
    const bits = mode ?? keep
    if (bits !== undefined) chmodSync(temp, bits)
    renameSync(temp, abs)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

function removeEmptyFolder(abs: string): void {
  try {
    rmdirSync(abs)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
    throw new FolderInTheWayError(
      'a folder stands where the file goes and it holds files the session did not put there'
    )
  }
}

export function deleteFileAt(abs: string): void {
  rmSync(abs, { force: true })
}
