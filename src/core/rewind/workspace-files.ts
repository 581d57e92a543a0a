// The only way a restore touches the workspace: every path is checked by resolveInWorkspace
// (no escape, no symlink leading out, never .git) right before the write, and content lands
// through a temp file in the same folder plus rename, so a crash leaves the old file or the new
// one, never half of one.
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { BlobStore, sha256 } from '../files/blob-store'
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

export async function readWorkspaceFile(root: string, rel: string): Promise<Buffer | null> {
  const { abs } = resolveInWorkspace(root, rel)
  try {
    return await fs.readFile(abs)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

export async function hashWorkspaceFile(root: string, rel: string): Promise<string | null> {
  const content = await readWorkspaceFile(root, rel)
  return content === null ? null : sha256(content)
}

export async function writeWorkspaceFile(
  root: string,
  rel: string,
  content: Buffer
): Promise<void> {
  const { abs } = resolveInWorkspace(root, rel)
  await fs.mkdir(dirname(abs), { recursive: true })
  // A name git and editors ignore would be nicer, but any name works: it lives for one rename.
  const temp = join(dirname(abs), `.${basename(abs)}.${randomBytes(4).toString('hex')}.rs-tmp`)
  const mode = await fs
    .stat(abs)
    .then((s) => s.mode & 0o7777)
    .catch(() => null)
  try {
    await fs.writeFile(temp, content, mode === null ? {} : { mode })
    await fs.rename(temp, abs)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
}

export async function deleteWorkspaceFile(root: string, rel: string): Promise<void> {
  const { abs } = resolveInWorkspace(root, rel)
  await fs.rm(abs, { force: true })
}
