// The git provider of run workspaces on real repositories: the run gets a repository of its own
// that borrows the user's objects, so nothing (a worktree entry, a ref, an object, an index
// refresh) is written into the user's .git, whatever git the run's agent then runs in it.
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { lstatSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BlobStore } from '../files/blob-store'
import {
  gitRepoOf,
  makeRunDir,
  makeRunWorkspace,
  makeRunWorkspaces,
  removeRunWorkspace,
  type RunWorkspaceSpec
} from './run-workspace'

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com'
}
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, stdio: 'pipe' }).toString('utf8')

/** Every file under `dir` with its content's hash and (unless told) mtime: a byte or a touch shows. */
function tree(dir: string, { mtimes = true } = {}): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rel of readdirSync(dir, { recursive: true }).map(String)) {
    const abs = join(dir, rel)
    if (!lstatSync(abs).isFile()) continue
    out[rel] =
      createHash('sha256').update(readFileSync(abs)).digest('hex') +
      (mtimes ? ` ${lstatSync(abs).mtimeMs}` : '')
  }
  return out
}

function repository(format: 'sha1' | 'sha256' = 'sha1'): string {
  const base = mkdtempSync(join(tmpdir(), 'rs-run-ws-'))
  const repo = join(base, 'repo')
  mkdirSync(join(repo, 'app', 'src'), { recursive: true })
  git(base, 'init', '-q', `--object-format=${format}`, '-b', 'main', repo)
  writeFileSync(join(repo, 'README.md'), 'top\n')
  writeFileSync(join(repo, 'app', 'src', 'a.ts'), 'export const a = 1\n')
  writeFileSync(join(repo, 'app', 'gone.txt'), 'tracked, deleted by the user\n')
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n')
  git(repo, 'add', '.')
  git(repo, 'commit', '-qm', 'one')
  writeFileSync(join(repo, 'app', 'src', 'a.ts'), 'export const a = 2\n')
  git(repo, 'commit', '-qam', 'two')
  return repo
}

async function runOf(repo: string, cwd: string, id = 'run1', home = join(repo, '..', 'home')) {
  const runDir = makeRunDir(home, cwd, id)
  const made = await makeRunWorkspace({
    home,
    cwd,
    runDir,
    id,
    repo: await gitRepoOf(cwd),
    state: new Map(),
    blobs: new BlobStore(join(home, 'blobs'))
  })
  return { home, made }
}

describe('a run workspace in a git repository', () => {
  it('is a repository of its own at HEAD with the uncommitted state, and leaves the user’s .git as it was', async () => {
    const repo = repository()
    const cwd = join(repo, 'app')
    // Uncommitted: a tracked file changed, one deleted, one untracked; one ignored.
    writeFileSync(join(cwd, 'src', 'a.ts'), 'export const a = 3\n')
    execFileSync('rm', [join(cwd, 'gone.txt')])
    writeFileSync(join(cwd, 'draft.md'), 'not committed\n')
    mkdirSync(join(repo, 'node_modules'))
    writeFileSync(join(repo, 'node_modules', 'dep.js'), 'ignored\n')
    git(repo, 'status', '--porcelain') // git's own index refresh, before the snapshot
    const gitDirBefore = tree(join(repo, '.git'))
    const gitContentBefore = tree(join(repo, '.git'), { mtimes: false })
    const head = git(repo, 'rev-parse', 'HEAD')

    const { home, made } = await runOf(repo, cwd)
    expect(made.kind).toBe('git')
    expect(made.workspace.endsWith(join('run1', 'work', 'app'))).toBe(true)
    const work = join(made.workspace, '..')
    expect(lstatSync(join(work, '.git')).isDirectory()).toBe(true)
    expect(readFileSync(join(made.workspace, 'src', 'a.ts'), 'utf8')).toBe('export const a = 3\n')
    expect(readFileSync(join(made.workspace, 'draft.md'), 'utf8')).toBe('not committed\n')
    expect(existsSync(join(made.workspace, 'gone.txt'))).toBe(false)
    expect(existsSync(join(work, 'node_modules'))).toBe(false)
    // No sample hooks, nothing but git's own new repository.
    expect(readdirSync(join(work, '.git')).includes('hooks')).toBe(false)

    // Git in the run sees the user's history and the run's changes, and commits into its own
    // repository.
    expect(git(made.workspace, 'rev-parse', 'HEAD')).toBe(head)
    expect(git(made.workspace, 'log', '--format=%s')).toBe('two\none\n')
    expect(git(work, 'status', '--porcelain')).toBe(
      ' D app/gone.txt\n M app/src/a.ts\n?? app/draft.md\n'
    )
    expect(tree(join(repo, '.git'))).toEqual(gitDirBefore)

    git(made.workspace, 'add', '-A')
    git(made.workspace, 'commit', '-qm', 'the run’s own')
    git(made.workspace, 'gc', '--quiet')
    // The commit's objects are the run's: the user's repository gained no object, ref or
    // byte. (Git does touch the mtime of a user's object the commit would have written again,
    // its "freshening" against pruning; inside the sandbox the user's files are read-only and
    // git writes its own copy instead.)
    expect(tree(join(repo, '.git'), { mtimes: false })).toEqual(gitContentBefore)
    expect(git(repo, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n')

    await removeRunWorkspace(home, { cwd, id: 'run1', repo: made.repo, ref: null })
    expect(existsSync(work)).toBe(false)
    expect(tree(join(repo, '.git'), { mtimes: false })).toEqual(gitContentBefore)
    expect(git(repo, 'fsck', '--no-progress')).toBe('')
    expect(readFileSync(join(cwd, 'src', 'a.ts'), 'utf8')).toBe('export const a = 3\n')
  })

  it('reads a shallow clone and a sha256 repository', async () => {
    const origin = repository()
    const shallow = join(origin, '..', 'shallow')
    git(join(origin, '..'), 'clone', '-q', '--depth', '1', `file://${origin}`, shallow)
    const one = await runOf(shallow, shallow)
    expect(git(one.made.workspace, 'log', '--format=%s')).toBe('two\n')
    expect(git(one.made.workspace, 'status', '--porcelain')).toBe('')

    const sha256 = repository('sha256')
    const two = await runOf(sha256, sha256)
    expect(git(two.made.workspace, 'rev-parse', 'HEAD').trim()).toHaveLength(64)
    expect(git(two.made.workspace, 'status', '--porcelain')).toBe('')
  })

  it('removes the git worktree an earlier version made in the user’s repository, with its ref', async () => {
    const repo = repository()
    const home = join(repo, '..', 'home')
    const work = join(makeRunDir(home, repo, 'old'), 'work')
    const ref = 'refs/rewind-studio/runs/old'
    git(repo, 'update-ref', ref, 'HEAD')
    git(repo, 'worktree', 'add', '--detach', '--quiet', work, ref)

    await removeRunWorkspace(home, { cwd: repo, id: 'old', repo, ref })
    expect(existsSync(work)).toBe(false)
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
    expect(git(repo, 'for-each-ref', 'refs/rewind-studio/')).toBe('')
  })
})

/** A plain folder (no repository): `count` files over nested folders, a symlink and a FIFO. */
function plainFolder(count: number, bytes = 16): string {
  const user = join(mkdtempSync(join(tmpdir(), 'rs-run-copy-')), 'user')
  for (let i = 0; i < count; i++) {
    const dir = join(user, `d${i % 7}`, `e${i % 3}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `f${i}.txt`), `${i}`.padEnd(bytes, '.'), {
      mode: i % 2 ? 0o755 : 0o644
    })
  }
  symlinkSync('d0', join(user, 'link'))
  execFileSync('mkfifo', [join(user, 'pipe')])
  return user
}

/** The specs of copies of `user` for runs `ids`, a data home beside it (no session files). */
function folderSpecs(user: string, ids: readonly string[]): RunWorkspaceSpec[] {
  const home = join(user, '..', 'home')
  const blobs = new BlobStore(join(home, 'blobs'))
  return ids.map((id) => ({
    home,
    cwd: user,
    runDir: makeRunDir(home, user, id),
    id,
    repo: null,
    state: new Map(),
    blobs
  }))
}

// The copy gives the event loop its turn every FILES_PER_BATCH files: every file still lands,
// whole, with its mode.
describe('a run workspace copied from a plain folder', () => {
  it('holds every file of the folder with its mode, the link as a link, no FIFO', async () => {
    const user = plainFolder(500)
    const before = tree(user)
    // The host's event loop goes on while the files are copied (a sync copy would hold it).
    let turns = 0
    const tick = setInterval(() => turns++, 0)
    const { made } = await runOf(user, user).finally(() => clearInterval(tick))
    expect(turns).toBeGreaterThan(0)
    expect(made.kind).toBe('copy')
    expect(tree(made.workspace, { mtimes: false })).toEqual(tree(user, { mtimes: false }))
    for (const rel of Object.keys(before)) {
      expect(statSync(join(made.workspace, rel)).mode).toBe(statSync(join(user, rel)).mode)
    }
    expect(lstatSync(join(made.workspace, 'link')).isSymbolicLink()).toBe(true)
    expect(existsSync(join(made.workspace, 'pipe'))).toBe(false)
    expect(tree(user)).toEqual(before)
  })

  it('makes several runs’ copies in one walk, each the whole folder: modes, the link as a link, no FIFO', async () => {
    const user = plainFolder(300)
    const before = tree(user)
    const made = await makeRunWorkspaces(folderSpecs(user, ['run1', 'run2', 'run3']))
    expect(made.map((m) => m.kind)).toEqual(['copy', 'copy', 'copy'])
    expect(new Set(made.map((m) => m.workspace)).size).toBe(3)
    for (const { workspace } of made) {
      expect(tree(workspace, { mtimes: false })).toEqual(tree(user, { mtimes: false }))
      for (const rel of Object.keys(before)) {
        expect(statSync(join(workspace, rel)).mode).toBe(statSync(join(user, rel)).mode)
      }
      expect(lstatSync(join(workspace, 'link')).isSymbolicLink()).toBe(true)
      expect(readlinkSync(join(workspace, 'link'))).toBe('d0')
      expect(existsSync(join(workspace, 'pipe'))).toBe(false)
    }
    expect(tree(user)).toEqual(before)
  })

  it('ends the walk once it is asked to stop, rejecting as stopped, the user’s folder as it was', async () => {
    const user = plainFolder(300)
    const before = tree(user)
    const specs = folderSpecs(user, ['run1', 'run2'])
    let asked = 0
    await expect(makeRunWorkspaces(specs, () => ++asked > 1)).rejects.toMatchObject({
      code: 'stopped'
    })
    // Two batches of 64 copies made, of 300 files twice: the rest never copied.
    const copied = Object.keys(tree(join(specs[0]!.runDir, 'work'))).length
    expect(copied).toBeGreaterThan(0)
    expect(copied).toBeLessThan(Object.keys(before).length)
    expect(tree(user)).toEqual(before)
  })

  // A real full disk: the data home on a small tmpfs (mounting needs root; elsewhere skipped,
  // saying so). The copy fails with the disk's own error.
  const disk = mkdtempSync(join(tmpdir(), 'rs-run-copy-full-'))
  const mounted =
    process.platform === 'linux' &&
    spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1M', 'tmpfs', disk]).status === 0
  if (!mounted) console.log('run-workspace full disk: skipped, a tmpfs cannot be mounted here')
  afterAll(() => {
    if (mounted) spawnSync('umount', ['-l', disk])
    rmSync(disk, { recursive: true, force: true })
  })
  it.skipIf(!mounted)('on a full disk fails with ENOSPC, the user’s folder as it was', async () => {
    const user = plainFolder(200, 16_384)
    const before = tree(user)
    await expect(runOf(user, user, 'run1', disk)).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(tree(user)).toEqual(before)
  })
})
