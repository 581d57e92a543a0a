// Where the agent and a restore may touch the disk: inside the workspace root, never through a
// symlink that leads out of it, never inside its .git. Every path from the model, a session log
// or an index goes through resolveInWorkspace before any read or write.
import { realpathSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'

export class PathOutsideWorkspaceError extends Error {
  constructor(
    readonly requested: string,
    reason: string
  ) {
    super(`Refused path ${JSON.stringify(requested)}: ${reason}`)
    this.name = 'PathOutsideWorkspaceError'
  }
}

export interface WorkspacePath {
  /** Absolute path as written (not resolved through symlinks). */
  abs: string
  /** Relative to the workspace root, forward slashes. */
  rel: string
}

/** realpath of the longest existing prefix of `p`, plus the part that does not exist yet. */
function realpathOfExistingPrefix(p: string): string {
  let existing = p
  const missing: string[] = []
  for (;;) {
    try {
      const real = realpathSync.native(existing)
      return missing.length === 0 ? real : resolve(real, ...missing.reverse())
    } catch (error) {
      // ENOTDIR: a file stands where a folder of the path would be; the rest does not exist.
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
      const parent = dirname(existing)
      if (parent === existing) return p
      missing.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)))
      existing = parent
    }
  }
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/**
 * `requested` (absolute, or relative to `root`) as a path inside `root`, judged as written: no
 * NUL byte, no way out of `root`, not in its .git folder. Symlinks are not looked at; callers
 * that allow none on the path (a restore) check each part with lstat instead.
 */
export function workspacePathAsWritten(root: string, requested: string): WorkspacePath {
  if (requested.includes('\0'))
    throw new PathOutsideWorkspaceError(requested, 'it contains a NUL byte')
  const abs = resolve(root, requested)
  if (!isInside(root, abs)) {
    throw new PathOutsideWorkspaceError(requested, `it is outside the workspace ${root}`)
  }
  const rel = relative(root, abs).split(sep).join('/')
  if (isInGitFolder(rel)) {
    throw new PathOutsideWorkspaceError(requested, "it is inside the workspace's .git folder")
  }
  return { abs, rel }
}

const isInGitFolder = (rel: string) => rel === '.git' || rel.startsWith('.git/')

/**
 * Resolves `requested` (absolute, or relative to `root`) and refuses it when it, or what its
 * symlinks lead to, lies outside `root`, or when it is in the workspace's .git folder.
 */
export function resolveInWorkspace(root: string, requested: string): WorkspacePath {
  const asWritten = workspacePathAsWritten(root, requested)
  const realRoot = realpathSync.native(root)
  const real = realpathOfExistingPrefix(asWritten.abs)
  if (!isInside(realRoot, real)) {
    throw new PathOutsideWorkspaceError(requested, 'a symlink on it leads outside the workspace')
  }
  // Checked where symlinks lead too: a link `g -> .git` must not open a way in.
  if (isInGitFolder(relative(realRoot, real).split(sep).join('/'))) {
    throw new PathOutsideWorkspaceError(requested, "it is inside the workspace's .git folder")
  }
  return asWritten
}
