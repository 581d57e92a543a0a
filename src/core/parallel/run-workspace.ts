// A parallel run's own workspace: a folder holding the files of the node the run starts from, so
// its agent never works in the user's. Two providers:
//   - git: the workspace is in a repository with a commit. `git worktree add --detach` of HEAD,
//     under the data home (`<run>/work`), HEAD kept by a private ref refs/rewind-studio/runs/<id>
//     (never a branch, never the user's checkout or index); then the user's uncommitted state laid
//     over it (tracked files changed, untracked files git does not ignore; what git ignores, such
//     as node_modules, is not copied);
//   - copy: any other folder, copied file by file with copy-on-write clones where the file system
//     has them (COPYFILE_FICLONE; a plain copy elsewhere), symlinks as symlinks, never hard links
//     (a tool that writes in place would change the user's file through one).
// Then, in both, every file the session changed is set to the start node's state from the file
// history (a file absent there is removed from the copy): the files as a restore to that node
// would leave the user's workspace, without touching it.
//
// Removal (removeRunWorkspace) deletes only inside `<run>/work`, never through a link, and lets
// git remove its worktree and the ref; nothing of the user's is in there to lose.
import {
  constants,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  chmodSync,
  type Stats
} from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { CodedError } from '../../shared/coded-error'
import type { BlobStore } from '../files/blob-store'
import { isInside } from '../files/workspace-paths'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { checkedPath, deleteFileAt } from '../rewind/workspace-files'
import type { NodeFile } from '../rewind/node-files'
import { RUN_WORKSPACE_NAME, runsDir } from '../session/paths'
import { GitRepo } from '../share/git'

/** The ref namespace of run workspaces: a run's start commit, kept while its worktree lives. */
export const RUN_REF_PREFIX = 'refs/rewind-studio/runs/'

export interface RunWorkspaceSpec {
  home: string
  /** The user's workspace, resolved through symlinks. */
  cwd: string
  /** `<runs>/<run id>`, made private by the caller. */
  runDir: string
  id: string
  /** The repository the workspace is in (gitRepoOf), or null: the copy provider. */
  repo: Repo | null
  /** The start node's state of every file the session changed (node-files.ts). */
  state: ReadonlyMap<string, NodeFile>
  blobs: BlobStore
}

export interface RunWorkspace {
  kind: 'git' | 'copy'
  /** The folder the run works in: `<run>/work`, or the workspace's place in the worktree. */
  workspace: string
  repo: string | null
  ref: string | null
}

export async function makeRunWorkspace(spec: RunWorkspaceSpec): Promise<RunWorkspace> {
  const work = join(spec.runDir, RUN_WORKSPACE_NAME)
  const made = spec.repo
  const workspace = made === null ? copyFolder(spec.cwd, work) : await addWorktree(made, spec, work)
  layOverSessionFiles(workspace, spec.state, spec.blobs)
  return {
    kind: made === null ? 'copy' : 'git',
    workspace,
    repo: made?.top ?? null,
    ref: made === null ? null : RUN_REF_PREFIX + spec.id
  }
}

export interface Repo {
  git: GitRepo
  /** The repository's top folder (real path). */
  top: string
  head: string
}

/** The repository `cwd` is in, with a commit to check out; null: none (the copy provider). */
export async function gitRepoOf(cwd: string): Promise<Repo | null> {
  let git: GitRepo
  try {
    git = await GitRepo.open(cwd)
  } catch {
    return null
  }
  const top = await git.run(['rev-parse', '--show-toplevel'], { allowFailure: true })
  const head = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    allowFailure: true
  })
  if (top.status !== 0 || head.status !== 0) return null
  return {
    git,
    top: realpathSync(top.stdout.toString('utf8').trim()),
    head: head.stdout.toString('utf8').trim()
  }
}

async function addWorktree(repo: Repo, spec: RunWorkspaceSpec, work: string): Promise<string> {
  const ref = RUN_REF_PREFIX + spec.id
  await must(repo.git, ['update-ref', ref, repo.head])
  await must(repo.git, ['worktree', 'add', '--detach', '--quiet', work, ref])
  // The workspace may be a folder inside the repository: the run works in the same folder of
  // the worktree.
  const inside = relative(repo.top, spec.cwd)
  const workspace = inside === '' ? work : join(work, inside)
  mkdirSync(workspace, { recursive: true })
  // The user's uncommitted state, as git lists it from the workspace (paths under it):
  // modified and untracked-not-ignored files are copied, deleted ones removed.
  const listed = await must(repo.git, [
    'ls-files',
    '-z',
    '--modified',
    '--others',
    '--exclude-standard',
    '--deduplicate'
  ])
  for (const rel of listed.stdout.toString('utf8').split('\0')) {
    if (rel === '') continue
    const from = join(spec.cwd, rel)
    const to = join(workspace, rel)
    const info = lstatOrNull(from)
    if (info === null) {
      if (lstatOrNull(to)?.isFile() === true) deleteFileAt(checkedPath(workspace, rel))
    } else if (info.isFile() || info.isSymbolicLink()) {
      mkdirSync(dirname(to), { recursive: true })
      rmSync(to, { force: true })
      copyEntry(from, to, info.isSymbolicLink())
    }
  }
  return workspace
}

async function must(git: GitRepo, args: string[]): Promise<{ stdout: Buffer }> {
  const run = await git.run(args, { allowFailure: true })
  if (run.status !== 0) {
    throw new CodedError(
      'unavailable',
      `git ${args[0] ?? ''} failed: ${run.stderr.trim().split('\n').at(-1) ?? ''}. No run was started.`
    )
  }
  return run
}

/** Copies the tree `from` into the new folder `to` (see the header); returns `to`. */
function copyFolder(from: string, to: string): string {
  mkdirSync(to, { mode: 0o700 })
  const stack: string[] = ['']
  while (stack.length > 0) {
    const rel = stack.pop() as string
    for (const entry of readdirSync(join(from, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}${sep}${entry.name}`
      const src = join(from, child)
      const dst = join(to, child)
      if (entry.isDirectory()) {
        mkdirSync(dst)
        stack.push(child)
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        copyEntry(src, dst, entry.isSymbolicLink())
      }
      // Sockets, FIFOs and devices are no project file: left out.
    }
  }
  return to
}

function copyEntry(src: string, dst: string, link: boolean): void {
  if (link) symlinkSync(readlinkSync(src), dst)
  else copyFileSync(src, dst, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL)
}

/** The session's files set to the start node's state (a file absent there removed). */
function layOverSessionFiles(
  workspace: string,
  state: ReadonlyMap<string, NodeFile>,
  blobs: BlobStore
): void {
  for (const [rel, file] of state) {
    if (file.afterUnknown === true) continue
    const abs = checkedPathMade(workspace, rel)
    if (file.hash === null) {
      if (lstatOrNull(abs)?.isFile() === true) deleteFileAt(abs)
      continue
    }
    rmSync(abs, { force: true })
    writePrivateFileSync(abs, blobs.read(file.hash))
    chmodSync(abs, file.mode ?? 0o644)
  }
}

/** checkedPath, its folders made first (a file the node has in a folder the copy lacks). */
function checkedPathMade(workspace: string, rel: string): string {
  const abs = checkedPath(workspace, rel)
  mkdirSync(dirname(abs), { recursive: true })
  return checkedPath(workspace, rel)
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

/**
 * Removes a run's workspace: git removes its worktree (and its entry in the repository's
 * .git/worktrees) and the ref goes; a copy is deleted. Only a folder `<runs>/<id>/work` of this
 * data home is ever removed, and rmSync deletes links, never what they lead to.
 */
export async function removeRunWorkspace(
  home: string,
  run: { cwd: string; id: string; repo: string | null; ref: string | null }
): Promise<void> {
  const work = join(runsDir(home, run.cwd), run.id, RUN_WORKSPACE_NAME)
  const root = realpathOrSelf(runsDir(home, run.cwd))
  if (!isInside(root, realpathOrSelf(dirname(work))) || realpathOrSelf(dirname(work)) === root) {
    throw new CodedError('refused', `${work} is not a run's folder: nothing was removed.`)
  }
  if (run.repo !== null && existsSync(run.repo)) {
    const git = await GitRepo.open(run.repo).catch(() => null)
    if (git !== null) {
      if (existsSync(work))
        await git.run(['worktree', 'remove', '--force', work], { allowFailure: true })
      await git.run(['worktree', 'prune'], { allowFailure: true })
      if (run.ref !== null && run.ref.startsWith(RUN_REF_PREFIX)) {
        await git.run(['update-ref', '-d', run.ref], { allowFailure: true })
      }
    }
  }
  if (lstatOrNull(work) !== null) rmSync(work, { recursive: true, force: true })
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** Folders for a run made private: `<runs>/<id>` (the caller's first step). */
export function makeRunDir(home: string, cwd: string, id: string): string {
  const dir = join(runsDir(home, cwd), id)
  ensurePrivateDir(dir)
  return dir
}
