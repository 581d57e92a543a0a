// The folders a session made (its file_change records' createdFolders): a restore that takes
// their changes back removes those it leaves empty, once its files are done, and its undo or
// rollback makes them again before its files. Only ever rmdir (a folder holding anything, a
// user's file put there since, stays) and mkdir, each on a path checked as a file's is (inside
// the workspace, never the root, in no .git folder, no symlink on the way); a folder that cannot
// be checked is left as it is, never a reason to refuse the restore.
import { mkdirSync, rmdirSync } from 'node:fs'
import { PathOutsideWorkspaceError } from '../files/workspace-paths'
import { checkedPath, isFolderAt } from './workspace-files'

/** The absolute path of folder `rel` when a restore may touch it; null when it may not. */
function folderPath(root: string, rel: string): string | null {
  try {
    return checkedPath(root, rel)
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) return null
    throw error
  }
}

/** Deepest first, so a folder's own new folders go before it. */
function deepestFirst(folders: readonly string[]): string[] {
  return [...new Set(folders)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
}

/** Of `folders`, those standing now (a restore's to remove), or those missing (to make). */
export function foldersThat(
  state: 'stand' | 'are missing',
  root: string,
  folders: readonly string[]
): string[] {
  return [...new Set(folders)].filter((rel) => {
    const abs = folderPath(root, rel)
    return abs !== null && isFolderAt(abs) === (state === 'stand')
  })
}

/** Removes each of `folders` that is empty, deepest first; returns those it removed. */
export function removeEmptyFolders(root: string, folders: readonly string[]): string[] {
  const removed: string[] = []
  for (const rel of deepestFirst(folders)) {
    const abs = folderPath(root, rel)
    if (abs === null || !isFolderAt(abs)) continue
    try {
      rmdirSync(abs)
      removed.push(rel)
    } catch {
      // Not empty (ENOTEMPTY, EEXIST), or not ours to remove (EACCES, EBUSY): it stays.
    }
  }
  return removed.reverse()
}

/** Makes each of `folders` that is missing, outermost first; returns those it made. */
export function makeFolders(root: string, folders: readonly string[]): string[] {
  const made: string[] = []
  for (const rel of deepestFirst(folders).reverse()) {
    const abs = folderPath(root, rel)
    if (abs === null || isFolderAt(abs)) continue
    try {
      mkdirSync(abs, { recursive: true })
      made.push(rel)
    } catch {
      // A file stands where it goes (or on its way): the files' own writes say what is wrong.
    }
  }
  return made
}
