// Where the agent and a restore may touch the disk: inside the workspace root, never through a
// symlink that leads out of it, never inside a .git folder at any depth (a nested repository's
// `.git/config` can set `core.fsmonitor`, whose command the next `git status` there runs; its
// `hooks/` run on commit). Every path from the model, a session log or an index goes through
// resolveInWorkspace (or, for a restore, workspacePathAsWritten plus lstat) before any read or
// write.
import { CodedError } from '../../shared/coded-error'
import { realpathSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { isGitFolderName } from '../os/git-folder-name'

export class PathOutsideWorkspaceError extends CodedError {
  constructor(
    readonly requested: string,
    reason: string
  ) {
    super('refused', `Refused path ${JSON.stringify(requested)}: ${reason}`)
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

/** Whether `target` is `root` or inside it, as paths (no link resolved). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target)
  // `..a` is a file's name inside, `..` or `../a` a way out.
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/**
 * `requested` (absolute, or relative to `root`) as a path inside `root`, judged as written: no
 * NUL byte, no way out of `root`, no part of it a .git folder (isGitFolderName). Symlinks are not looked at; callers
 * that allow none on the path (a restore) check each part with lstat instead.
 */
export function workspacePathAsWritten(root: string, requested: string): WorkspacePath {
  if (requested.includes('\0'))
    throw new PathOutsideWorkspaceError(requested, 'it contains a NUL byte')
  // The paths records hold (`src/a.ts`): inside by their form, `rel` as they are, no
  // resolving (a restore checks every file it touches, several times).
  if (isPlainRelative(requested) && isNormalRoot(root)) {
    if (isInGitFolder(requested)) throw new PathOutsideWorkspaceError(requested, IN_GIT_FOLDER)
    return { abs: `${root}/${requested}`, rel: requested }
  }
  const abs = resolve(root, requested)
  if (!isInside(root, abs)) {
    throw new PathOutsideWorkspaceError(requested, `it is outside the workspace ${root}`)
  }
  const rel = relative(root, abs).split(sep).join('/')
  if (isInGitFolder(rel)) throw new PathOutsideWorkspaceError(requested, IN_GIT_FOLDER)
  return { abs, rel }
}

const IN_GIT_FOLDER = 'it is inside a .git folder (git runs commands its files name)'

/**
 * A relative path of names joined by single slashes, none `.` or `..`, no backslash: it
 * resolves to the root, a slash and itself, wherever the root is. POSIX only (elsewhere `\`
 * separates too).
 */
function isPlainRelative(path: string): boolean {
  return sep === '/' && path !== '' && !NOT_PLAIN.test(path)
}

const NOT_PLAIN = /^\/|\/$|\/\/|\\|(?:^|\/)\.\.?(?:\/|$)/

/** Whether `root` is absolute and as `resolve` gives it (no trailing slash, `.`, `..`, `//`). */
function isNormalRoot(root: string): boolean {
  if (root === normalRoot) return true
  if (root.length < 2 || resolve(root) !== root) return false
  normalRoot = root
  return true
}

/** The last root isNormalRoot approved: a restore asks for one root a thousand times. */
let normalRoot = ''

/** Whether any component of `rel` (either slash) names a .git folder: the workspace's, or a nested repository's. */
export function isInGitFolder(rel: string): boolean {
  return rel.split(/[\\/]/).some(isGitFolderName)
}

/**
 * Resolves `requested` (absolute, or relative to `root`) and refuses it when it, or what its
 * symlinks lead to, lies outside `root`, or when it is in a .git folder at any depth.
 */
export function resolveInWorkspace(root: string, requested: string): WorkspacePath {
  const asWritten = workspacePathAsWritten(root, requested)
  const realRoot = realpathSync.native(root)
  const real = realpathOfExistingPrefix(asWritten.abs)
  if (!isInside(realRoot, real)) {
    throw new PathOutsideWorkspaceError(requested, 'a symlink on it leads outside the workspace')
  }
  // Checked where symlinks lead too, at any depth: a link `g -> vendor/lib/.git` must not open
  // a way in. On macOS and Windows the real path also gives each existing part's name as it is
  // on disk (its case, its long name), so an alias the name check above missed is caught here.
  if (isInGitFolder(relative(realRoot, real).split(sep).join('/'))) {
    throw new PathOutsideWorkspaceError(requested, IN_GIT_FOLDER)
  }
  return asWritten
}
