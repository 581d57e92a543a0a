// The folders a session made (its file_change records' createdFolders): a restore that takes
// their changes back removes those it leaves empty, once its files are done, and its undo or
// rollback makes them again before its files; and the folders a restore makes for the files it
// recreates, which its undo or rollback removes again where empty. Only ever rmdir (a folder holding anything, a
// user's file put there since, stays) and mkdir, each on a path checked as a file's is (inside
// the workspace, never the root, in no .git folder, no symlink on the way); a folder that cannot
// be checked is left as it is, never a reason to refuse the restore.
import { mkdirSync, rmdirSync } from 'node:fs'
import { checkedPath, isFolderAt } from './workspace-files'

/**
 * The absolute path of folder `rel` when a restore may touch it and whether a folder (not a link
 * to one) stands there; null when it may not be touched or cannot be looked at (EACCES).
 */
function lookAt(root: string, rel: string): { abs: string; stands: boolean } | null {
  try {
    const abs = checkedPath(root, rel)
    return { abs, stands: isFolderAt(abs) }
  } catch {
    // A path no restore may touch (PathOutsideWorkspaceError), or one the system will not show.
    return null
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
  return [...new Set(folders)].filter((rel) => lookAt(root, rel)?.stands === (state === 'stand'))
}

/** Removes each of `folders` that is empty, deepest first; returns those it removed. */
export function removeEmptyFolders(root: string, folders: readonly string[]): string[] {
  const removed: string[] = []
  for (const rel of deepestFirst(folders)) {
    const found = lookAt(root, rel)
    if (found?.stands !== true) continue
    try {
      rmdirSync(found.abs)
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
    const found = lookAt(root, rel)
    if (found === null || found.stands) continue
    try {
      mkdirSync(found.abs, { recursive: true })
      made.push(rel)
    } catch {
      // A file stands where it goes (or on its way): the files' own writes say what is wrong.
    }
  }
  return made
}
