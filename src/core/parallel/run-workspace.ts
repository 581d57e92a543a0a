// A parallel run's own workspace: a folder holding the files of the node the run starts from, so
// its agent never works in the user's. Two providers:
//   - git: the workspace is in a repository with a commit. A repository of the run's own,
//     `<run>/work/.git` under the data home, that borrows the user's objects (its
//     objects/info/alternates names the user's object folder: read, never written) and has
//     HEAD's tree checked out (`read-tree -u`); then the user's uncommitted state laid over it
//     (tracked files changed, untracked files git does not ignore; what git ignores, such as
//     node_modules, is not copied). Nothing is written into the user's .git: no worktree entry,
//     no ref, no object, no lock; a commit the run's agent makes lands in the run's repository.
//     Its config is git's new-repository one, not the user's: no hook, filter (LFS) or
//     attribute-driven conversion of the user's runs in it, so files are as committed.
//   - copy: any other folder, copied file by file with copy-on-write clones where the file system
//     has them (COPYFILE_FICLONE; a plain copy elsewhere), symlinks as symlinks, never hard links
//     (a tool that writes in place would change the user's file through one). The workspaces of
//     all runs of one start are made in one walk of the user's folder (makeRunWorkspaces): each
//     folder read once, each entry copied to every run's workspace in turn, so every run starts
//     from the same files, each read once for all. The copy yields to the host's event loop every
//     FILES_PER_BATCH files copied: it is never held for the seconds a 20,000-file copy takes.
//     (Copies on libuv's pool were slower on ext4: eight at a time, 4 x 20,000 files 11-27 s
//     against 7-20 s for these; two or four at a time, 1.4-1.8x the CPU time of one walk and no
//     sooner on a 2-core machine, alternated in one scratch run.)
// Then, in both, every file the session changed is set to the start node's state from the file
// history (a file absent there is removed from the copy): the files as a restore to that node
// would leave the user's workspace, without touching it.
//
// Removal (removeRunWorkspace) deletes only `<run>/work` (its own repository with it), never
// through a link; nothing of the user's is in there to lose.
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
import { yieldToEventLoop } from '../os/event-loop'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { checkedPath, deleteFileAt } from '../rewind/workspace-files'
import type { NodeFile } from '../rewind/node-files'
import { RUN_WORKSPACE_NAME, runsDir } from '../session/paths'
import { GitRepo } from '../share/git'

/**
 * The ref namespace of the git worktrees earlier versions made run workspaces of (in the user's
 * repository): removing such a run still removes its worktree entry and ref.
 */
const WORKTREE_RUN_REF_PREFIX = 'refs/rewind-studio/runs/'

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
  /** The folder the run works in: `<run>/work`, or the workspace's place in it. */
  workspace: string
  /** The repository whose commit the run starts from (its objects borrowed), or null. */
  repo: string | null
}

export async function makeRunWorkspace(spec: RunWorkspaceSpec): Promise<RunWorkspace> {
  const [made] = await makeRunWorkspaces([spec])
  return made as RunWorkspace
}

/**
 * The workspaces of several runs of one start (one workspace, one repository or none, one start
 * node's files): a copy is one walk of the user's folder for all of them; a repository's are
 * made one after another, each its own checkout. `stopped` is asked between batches of a copy:
 * once it says so the walk ends, rejecting with code `stopped` (what it copied stays, for the
 * run's removal to take).
 */
export async function makeRunWorkspaces(
  specs: readonly RunWorkspaceSpec[],
  stopped: () => boolean = () => false
): Promise<RunWorkspace[]> {
  const [first] = specs
  if (first === undefined) return []
  if (specs.some((spec) => spec.cwd !== first.cwd || spec.repo !== first.repo)) {
    throw new Error('The run workspaces made together must be of one workspace')
  }
  const repo = first.repo
  const workspaces: string[] = []
  if (repo === null) {
    const works = specs.map((spec) => join(spec.runDir, RUN_WORKSPACE_NAME))
    await copyFolder(first.cwd, works, stopped)
    workspaces.push(...works)
  } else {
    for (const spec of specs) {
      workspaces.push(
        await checkOutOwnRepository(repo, spec, join(spec.runDir, RUN_WORKSPACE_NAME))
      )
    }
  }
  return specs.map((spec, i) => {
    const workspace = workspaces[i] as string
    layOverSessionFiles(workspace, spec.state, spec.blobs)
    return { kind: repo === null ? 'copy' : 'git', workspace, repo: repo?.top ?? null }
  })
}

export interface Repo {
  git: GitRepo
  /** The repository's top folder (real path). */
  top: string
  /** Where its objects are (the common dir's `objects`: a worktree's too). */
  objects: string
  /** The common dir's `shallow` list, when the clone is shallow. */
  shallow: string
  head: string
  /**
   * The user's uncommitted state as git lists it from the workspace (modified, deleted and
   * untracked-not-ignored paths under it), listed once for all runs of one start: each run then
   * starts from the same files, and a 20,000-file tree is walked once, not once a run.
   */
  uncommitted: () => Promise<string[]>
}

/** The repository `cwd` is in, with a commit to check out; null: none (the copy provider). */
export async function gitRepoOf(cwd: string): Promise<Repo | null> {
  let git: GitRepo
  try {
    git = await GitRepo.open(cwd)
  } catch {
    return null
  }
  const said = await git.run(
    [
      'rev-parse',
      '--path-format=absolute',
      '--show-toplevel',
      '--git-common-dir',
      '--verify',
      '--quiet',
      'HEAD^{commit}'
    ],
    { allowFailure: true }
  )
  const [top = '', common = '', head = ''] = said.stdout.toString('utf8').split('\n')
  if (said.status !== 0 || top === '' || common === '' || head === '') return null
  let listing: Promise<string[]> | null = null
  return {
    git,
    top: realpathSync(top),
    objects: join(common, 'objects'),
    shallow: join(common, 'shallow'),
    head,
    uncommitted: () => (listing ??= listUncommitted(git))
  }
}

async function listUncommitted(git: GitRepo): Promise<string[]> {
  const listed = await must(git, [
    'ls-files',
    '-z',
    '--modified',
    '--others',
    '--exclude-standard',
    '--deduplicate'
  ])
  return listed.stdout
    .toString('utf8')
    .split('\0')
    .filter((rel) => rel !== '')
}

async function checkOutOwnRepository(
  repo: Repo,
  spec: RunWorkspaceSpec,
  work: string
): Promise<string> {
  // An alternates file names one folder a line: a path with a line break cannot be named.
  if (/[\n\r]/.test(repo.objects)) {
    throw new CodedError(
      'unavailable',
      `The repository's folder ${JSON.stringify(repo.objects)} has a line break in its name, which a run's own repository cannot borrow objects from. No run was started.`
    )
  }
  mkdirSync(work, { mode: 0o700 })
  const own = await GitRepo.init(work, repo.git.objectFormat)
  const ownDir = join(work, '.git')
  writePrivateFileSync(join(ownDir, 'objects', 'info', 'alternates'), `${repo.objects}\n`)
  // A shallow clone's history stops at the commits its `shallow` file lists: without the same
  // list, git in the run would look for their parents and fail.
  if (existsSync(repo.shallow)) copyFileSync(repo.shallow, join(ownDir, 'shallow'))
  await must(own, ['update-ref', '--no-deref', 'HEAD', repo.head])
  await must(own, ['read-tree', '--reset', '-u', 'HEAD'])
  // The workspace may be a folder inside the repository: the run works in the same folder of
  // its checkout.
  const inside = relative(repo.top, spec.cwd)
  const workspace = inside === '' ? work : join(work, inside)
  mkdirSync(workspace, { recursive: true })
  for (const rel of await repo.uncommitted()) {
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

/** Files copied between two turns of the event loop: a few milliseconds of work. */
const FILES_PER_BATCH = 64
const CLONE_OR_COPY = constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL

/**
 * Copies the tree `from` into each of the new folders `tos` (see the header), in one walk: a
 * folder is read once and made in every copy, an entry copied to every copy in turn (its source
 * still in the caches). Paths are joined by hand: `from` is a resolved path and the names come
 * from readdir, so path.join's normalizing has nothing to do.
 */
async function copyFolder(
  from: string,
  tos: readonly string[],
  stopped: () => boolean
): Promise<void> {
  for (const to of tos) mkdirSync(to, { mode: 0o700 })
  const stack: string[] = ['']
  let copied = 0
  while (stack.length > 0) {
    const rel = stack.pop() as string
    const dir = rel === '' ? from : `${from}${sep}${rel}`
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}${sep}${entry.name}`
      const src = `${dir}${sep}${entry.name}`
      if (entry.isDirectory()) {
        for (const to of tos) mkdirSync(`${to}${sep}${child}`)
        stack.push(child)
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        const target = entry.isSymbolicLink() ? readlinkSync(src) : null
        for (const to of tos) {
          const dst = `${to}${sep}${child}`
          if (target === null) copyFileSync(src, dst, CLONE_OR_COPY)
          else symlinkSync(target, dst)
          if (++copied % FILES_PER_BATCH === 0) {
            await yieldToEventLoop()
            if (stopped()) {
              throw new CodedError('stopped', 'Stopped while its workspace was being copied.')
            }
          }
        }
      }
      // Sockets, FIFOs and devices are no project file: left out.
    }
  }
}

/** A symlink as a symlink, a file cloned where the file system can (else copied). */
function copyEntry(src: string, dst: string, link: boolean): void {
  if (link) symlinkSync(readlinkSync(src), dst)
  else copyFileSync(src, dst, CLONE_OR_COPY)
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
 * Removes a run's workspace, its own repository with it. Only a folder `<runs>/<id>/work` of
 * this data home is ever removed, and rmSync deletes links, never what they lead to. A run an
 * earlier version made as a git worktree of the user's repository (its manifest names a ref)
 * has git remove that worktree's entry and ref too.
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
  if (run.ref?.startsWith(WORKTREE_RUN_REF_PREFIX) === true && run.repo !== null) {
    await removeWorktreeOfEarlierVersion(run.repo, work, run.ref)
  }
  if (lstatOrNull(work) !== null) rmSync(work, { recursive: true, force: true })
}

async function removeWorktreeOfEarlierVersion(repo: string, work: string, ref: string) {
  if (!existsSync(repo)) return
  const git = await GitRepo.open(repo).catch(() => null)
  if (git === null) return
  if (existsSync(work))
    await git.run(['worktree', 'remove', '--force', work], { allowFailure: true })
  await git.run(['worktree', 'prune'], { allowFailure: true })
  await git.run(['update-ref', '-d', ref], { allowFailure: true })
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
