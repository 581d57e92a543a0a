// Making 4 run workspaces (core/parallel/run-workspace.ts) of a 20,000-file workspace, beside
// what it is made of, in the same run (issue 30's targets):
//   git:     4 × makeRunWorkspace of a committed repository (rev-parse, the uncommitted state
//            listed once as the launcher does; each run: init, alternates, read-tree -u, the
//            listed files and the session's files laid over) vs four bare
//            `git worktree add --detach` of HEAD;                   target ≤ 1.5
//   non-git: 4 × makeRunWorkspace of the same files in a plain folder (a copy file by file,
//            COPYFILE_FICLONE) vs four `cp -r` of the folder;       target ≤ 1
// Each round makes the four, times them, removes them (not timed), alternating ours and the
// baseline (and which goes first); the median round is printed, and each round's ratio. Before each timed part the page cache's dirty pages are
// written out (`sync`, not timed): else whoever goes second pays for the first's writeback.
//   npx tsx bench/parallel-workspaces.ts [files] [rounds]   (default 20000 3)
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlobStore } from '../src/core/files/blob-store'
import { gitRepoOf, makeRunWorkspace, removeRunWorkspace } from '../src/core/parallel/run-workspace'
import { runsDir } from '../src/core/session/paths'
import { writeVariedSource } from './support/varied-source'

const files = Number(process.argv[2] ?? 20_000)
const rounds = Number(process.argv[3] ?? 3)
const RUNS = 4
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

const base = mkdtempSync(join(tmpdir(), 'rs-bench-parallel-ws-'))
const home = join(base, 'home')
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com'
}
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, stdio: 'pipe' })

const repo = join(base, 'repo')
mkdirSync(repo)
const made = writeVariedSource(repo, files)
git(repo, 'init', '-q')
git(repo, 'add', '-A')
git(repo, 'commit', '-qm', 'source')
const plain = join(base, 'plain')
cpSync(repo, plain, { recursive: true, filter: (src) => !src.includes(`${join(repo, '.git')}`) })
console.log(
  `${made.files} files, ${(made.bytes / 1e6).toFixed(0)} MB; ${RUNS} workspaces a round, ${rounds} rounds`
)

const blobs = new BlobStore(join(base, 'blobs'))
const settle = () => execFileSync('sync')

async function ours(cwd: string, round: number): Promise<number> {
  const ids = Array.from({ length: RUNS }, (_, i) => `r${round}-${i}`)
  settle()
  const t0 = performance.now()
  const repoInfo = await gitRepoOf(cwd)
  for (const id of ids) {
    const runDir = join(runsDir(home, cwd), id)
    mkdirSync(runDir, { recursive: true })
    await makeRunWorkspace({ home, cwd, runDir, id, repo: repoInfo, state: new Map(), blobs })
  }
  const ms = performance.now() - t0
  for (const id of ids) {
    await removeRunWorkspace(home, {
      cwd,
      id,
      repo: repoInfo?.top ?? null,
      ref: null
    })
  }
  return ms
}

function worktrees(round: number): number {
  const dirs = Array.from({ length: RUNS }, (_, i) => join(base, `wt-${round}-${i}`))
  settle()
  const t0 = performance.now()
  for (const dir of dirs) git(repo, 'worktree', 'add', '--detach', '--quiet', dir, 'HEAD')
  const ms = performance.now() - t0
  for (const dir of dirs) git(repo, 'worktree', 'remove', '--force', dir)
  return ms
}

function copies(round: number): number {
  const dirs = Array.from({ length: RUNS }, (_, i) => join(base, `cp-${round}-${i}`))
  settle()
  const t0 = performance.now()
  for (const dir of dirs) execFileSync('cp', ['-r', plain, dir])
  const ms = performance.now() - t0
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  return ms
}

const results = {
  git: [] as number[],
  worktree: [] as number[],
  copy: [] as number[],
  cp: [] as number[]
}
// Who goes first alternates round by round (A B, then B A): the page cache and the writeback
// of the step before favour neither side.
for (let round = 0; round < rounds; round++) {
  if (round % 2 === 0) {
    results.git.push(await ours(repo, round))
    results.worktree.push(worktrees(round))
    results.copy.push(await ours(plain, round))
    results.cp.push(copies(round))
  } else {
    results.worktree.push(worktrees(round))
    results.git.push(await ours(repo, round))
    results.cp.push(copies(round))
    results.copy.push(await ours(plain, round))
  }
}
const line = (
  name: string,
  figure: number[],
  baseline: number[],
  baseName: string,
  target: number
) => {
  const f = median(figure)
  const b = median(baseline)
  const pairs = figure.map((ms, i) => ms / (baseline[i] ?? NaN)).sort((x, y) => x - y)
  const range = `round by round ${pairs[0]?.toFixed(2)}-${pairs.at(-1)?.toFixed(2)}`
  console.log(
    `${name}: ${f.toFixed(0)} ms; ${baseName}: ${b.toFixed(0)} ms; ratio ${(f / b).toFixed(2)}, ${range} (target ≤ ${target})`
  )
}
line(
  `git, ${RUNS} run workspaces`,
  results.git,
  results.worktree,
  `${RUNS} × git worktree add`,
  1.5
)
line(`folder, ${RUNS} run workspaces`, results.copy, results.cp, `${RUNS} × cp -r`, 1)
rmSync(base, { recursive: true, force: true })
