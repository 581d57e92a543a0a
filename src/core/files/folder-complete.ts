// The "Open folder…" field's completion in the browser (the desktop has the system's dialog):
// the folders under the typed path's parent whose names start as the path ends. Only folders,
// never a .git (in any spelling git honours) nor anything through one, never more than
// MAX_FOLDER_COMPLETIONS, and only for an absolute path whose parent exists. Hidden folders show
// when the typed name starts with a dot, as shells do. It lists names, it opens nothing: which
// folder may become a workspace is workspace-root.ts's call when it is opened.
import { readdirSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import type { FolderCompletion } from '../../shared/views'
import { CodedError } from '../../shared/coded-error'
import { isGitFolderName } from '../os/git-folder-name'
import { isInGitFolder } from './workspace-paths'

export const MAX_FOLDER_COMPLETIONS = 50

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export function completeFolder(typed: string): FolderCompletion {
  if (!isAbsolute(typed)) {
    throw new CodedError('invalid_payload', `${typed} is no absolute path: start it with /.`)
  }
  const cut = typed.lastIndexOf('/') + 1
  const parent = resolve(typed.slice(0, cut) || '/')
  const start = typed.slice(cut)
  if (isInGitFolder(typed)) {
    throw new CodedError('refused', `${typed} goes through a .git folder: never opened.`)
  }
  if (!isFolder(parent)) throw new CodedError('not_found', `No folder ${parent}.`)
  let names: string[]
  try {
    names = readdirSync(parent)
  } catch (error) {
    throw new CodedError(
      'not_found',
      `Could not list ${parent}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`
    )
  }
  const matching = names
    .filter((name) => name.startsWith(start) && (start.startsWith('.') || !name.startsWith('.')))
    .filter((name) => !isGitFolderName(name))
    .sort()
  const folders: string[] = []
  let truncated = false
  for (const name of matching) {
    if (!isFolder(join(parent, name))) continue
    if (folders.length === MAX_FOLDER_COMPLETIONS) {
      truncated = true
      break
    }
    folders.push(join(parent, name))
  }
  return { parent, folders, truncated }
}
