// The git repositories in a workspace, as the Bash sandbox needs them (bash-sandbox.ts): git runs
// a repository's hooks and the commands its config names (core.fsmonitor, core.pager, a filter
// driver) whenever you run git in it, outside the sandbox. So a sandboxed command must neither
// change a repository that exists nor leave one it made.
//
// A repository is what git's own discovery takes for one: a `.git` entry (a folder, a `gitdir:`
// file, a symlink; named as isGitFolderName says, any case, any alias), or a folder shaped as a
// git directory (a bare repository: HEAD with objects/ and refs/, or HEAD with a commondir file),
// which git uses when it runs inside it. The walk enters no `.git` and follows no symlink.
import { type Dirent, lstatSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { isGitFolderName } from './git-folder-name'

/**
 * Folders walked at most. Past that the walk stops (found.complete false): what it did not see
 * cannot be protected, so the sandbox refuses the command rather than run it unchecked.
 */
export const MAX_WALKED_FOLDERS = 100_000

export interface FoundRepos {
  /** `.git` entries: absolute path → identity (device and inode). */
  gitEntries: Map<string, string>
  /** Folders shaped as a git directory (not named .git): absolute path → identity. */
  gitDirs: Map<string, string>
  complete: boolean
}

/** Device and inode: a repository moved (its folder renamed) is still the same one. */
export function identity(path: string): string {
  try {
    const stat = lstatSync(path)
    return `${stat.dev}:${stat.ino}`
  } catch {
    return `gone:${path}`
  }
}

function isGitDirShaped(entries: Dirent[]): boolean {
  const kind = new Map(entries.map((e) => [e.name, e]))
  const head = kind.get('HEAD')
  if (head === undefined || head.isDirectory()) return false
  if (kind.get('commondir')?.isFile() === true) return true
  return kind.get('objects')?.isDirectory() === true && kind.get('refs')?.isDirectory() === true
}

/**
 * Whether git takes the `.git` at `path` for a repository (a `gitdir:` file, which git reads or
 * dies on, or a folder shaped as a git directory), rather than passing over it to look at the
 * folder holding it (an empty `.git` folder is passed over).
 */
export function isRepository(path: string): boolean {
  try {
    const stat = statSync(path)
    if (stat.isFile()) return true
    return stat.isDirectory() && isGitDirShaped(readdirSync(path, { withFileTypes: true }))
  } catch {
    return false
  }
}

/** Folders read at once: the walk waits on the disk, not on one folder after another. */
const READ_AT_ONCE = 32

async function listing(dir: string): Promise<Dirent[] | null> {
  try {
    return await readdir(dir, { withFileTypes: true })
  } catch {
    // Gone or unreadable since its parent was read: nothing in it to protect or to find.
    return null
  }
}

/** Every repository under `root` (the root's own `.git` included). */
export async function findRepos(root: string): Promise<FoundRepos> {
  const found: FoundRepos = { gitEntries: new Map(), gitDirs: new Map(), complete: true }
  const pending = [root]
  let walked = 0
  while (pending.length > 0) {
    const batch = pending.splice(0, READ_AT_ONCE)
    walked += batch.length
    if (walked > MAX_WALKED_FOLDERS) {
      found.complete = false
      break
    }
    const listings = await Promise.all(batch.map(listing))
    batch.forEach((dir, i) => {
      const entries = listings[i]
      if (entries === null || entries === undefined) return
      // Entered all the same: a repository can hold another one.
      if (dir !== root && isGitDirShaped(entries)) found.gitDirs.set(dir, identity(dir))
      for (const entry of entries) {
        const path = join(dir, entry.name)
        if (isGitFolderName(entry.name)) found.gitEntries.set(path, identity(path))
        else if (entry.isDirectory()) pending.push(path)
      }
    })
  }
  return found
}

/**
 * The folder a `gitdir:` file names, when it lies inside `root` (a worktree's or submodule's
 * git directory kept in the workspace): it must be as read-only as the file.
 */
export function gitdirTarget(root: string, gitFile: string): string | null {
  try {
    if (!lstatSync(gitFile).isFile()) return null
    const line = /^gitdir: *(.+?)\s*$/m.exec(readFileSync(gitFile, 'utf8').slice(0, 4096))?.[1]
    if (line === undefined) return null
    const target = resolve(dirname(gitFile), line)
    return target.startsWith(`${root}/`) ? target : null
  } catch {
    return null
  }
}

export interface Disarmed {
  /** Where the repository was, relative to the workspace. */
  path: string
  /** What it is called now. */
  renamedTo: string
}

/** Rounds of disarming at most: each one can uncover a repository made inside a `.git`. */
const MAX_DISARM_ROUNDS = 8

/**
 * Disarms what a sandboxed command made, run once nothing of it runs any more: each new `.git`
 * entry is renamed `.git-from-sandbox` (git looks for `.git` only), and each folder shaped as a
 * git directory that was not one before (the renamed ones too) has its HEAD renamed
 * `HEAD-from-sandbox`, which makes it no git directory. Nothing is deleted: the user can look at
 * it and rename it back. A renamed `.git` is walked in the next round, for what it held.
 */
export async function disarmNewRepos(
  root: string,
  before: FoundRepos
): Promise<{ disarmed: Disarmed[]; complete: boolean }> {
  const disarmed: Disarmed[] = []
  const rel = (p: string) => p.slice(root.length + 1)
  // By identity: a repository that was there, moved with its folder, is left as it is.
  const known = new Set([...before.gitEntries.values(), ...before.gitDirs.values()])
  const made = (found: Map<string, string>) =>
    [...found].filter(([, id]) => !known.has(id)).map(([path]) => path)
  for (let round = 0; round < MAX_DISARM_ROUNDS; round++) {
    const after = await findRepos(root)
    const entries = made(after.gitEntries)
    const dirs = made(after.gitDirs)
    if (entries.length === 0 && dirs.length === 0) return { disarmed, complete: after.complete }
    for (const dir of dirs) {
      const head = join(dir, 'HEAD')
      const renamed = freeName(join(dir, 'HEAD-from-sandbox'))
      renameSync(head, renamed)
      disarmed.push({ path: rel(head), renamedTo: rel(renamed) })
    }
    for (const entry of entries) {
      const renamed = freeName(join(dirname(entry), '.git-from-sandbox'))
      renameSync(entry, renamed)
      disarmed.push({ path: rel(entry), renamedTo: rel(renamed) })
    }
    if (!after.complete) return { disarmed, complete: false }
  }
  return { disarmed, complete: false }
}

/** `path`, or `path-2`, `path-3`, … : the first name nothing holds. */
function freeName(path: string): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? path : `${path}-${n}`
    try {
      lstatSync(candidate)
    } catch {
      return candidate
    }
  }
}
