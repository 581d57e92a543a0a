// Making 4 run workspaces (core/parallel/run-workspace.ts) of a 20,000-file workspace, beside
// what it is made of, in the same run (issue 30's targets):
//   git:     makeRunWorkspaces of 4 runs in a committed repository (rev-parse, the uncommitted
//            state listed once as the launcher does; each run: init, alternates, read-tree -u,
//            the listed files and the session's files laid over) vs four bare
//            `git worktree add --detach` of HEAD;                   target ≤ 1.5
//   non-git: makeRunWorkspaces of 4 runs of the same files in a plain folder (one walk, a copy
//            file by file, COPYFILE_FICLONE) vs four `cp -r` of the folder;  target ≤ 1
// Each round makes the four of each, alternating ours and the baseline (and which goes first);
// the median round is printed, and each round's ratio, wall and CPU time (user + sys, of this
// process and of the children it waited for: git, cp). Before each timed part the page cache's
// dirty pages are written out (`sync`, not timed): else whoever goes second pays for the first's
// writeback. Nothing is removed until every round is over: ext4 without a journal (this
// machine's) passes over every inode freed in the last minute when it allocates one, in the last
// six while the block holding it is unwritten, which an allocation beside it makes it
// (`recently_deleted`, one lookup each), so whoever goes right after a removal of 80,000 files
// pays for it: 60% of a `cp -r`'s time in one profile, and rounds read 0.2-3.4x by who followed
// whose removal. For the same reason, run it six minutes or more after the last large removal on
// that file system (another bench's; this one's own last removal, 16 trees a round, takes
// minutes): rounds right after one read 3-8x slower on either side, at random.
//   npx tsx bench/parallel-workspaces.ts [files] [rounds]   (default 20000 3)
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlobStore } from '../src/core/files/blob-store'
import { gitRepoOf, makeRunWorkspaces } from '../src/core/parallel/run-workspace'
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

interface Timed {
  ms: number
  /** CPU seconds, user + sys, of this process and of the children it waited for. */
  cpu: number
}

/** This process's CPU seconds and its waited-for children's (/proc/self/stat utime..cstime). */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0)
  return ticks / 100
}

async function timed(work: () => Promise<unknown> | unknown): Promise<Timed> {
  settle()
  const cpu0 = cpuSeconds()
  const t0 = performance.now()
  await work()
  return { ms: performance.now() - t0, cpu: cpuSeconds() - cpu0 }
}

function ours(cwd: string, round: number): Promise<Timed> {
  const ids = Array.from({ length: RUNS }, (_, i) => `r${round}-${i}`)
  return timed(async () => {
    const repoInfo = await gitRepoOf(cwd)
    const specs = ids.map((id) => {
      const runDir = join(runsDir(home, cwd), id)
      mkdirSync(runDir, { recursive: true })
      return { home, cwd, runDir, id, repo: repoInfo, state: new Map(), blobs }
    })
    await makeRunWorkspaces(specs)
  })
}

function worktrees(round: number): Promise<Timed> {
  const dirs = Array.from({ length: RUNS }, (_, i) => join(base, `wt-${round}-${i}`))
  return timed(() => {
    for (const dir of dirs) git(repo, 'worktree', 'add', '--detach', '--quiet', dir, 'HEAD')
  })
}

function copies(round: number): Promise<Timed> {
  const dirs = Array.from({ length: RUNS }, (_, i) => join(base, `cp-${round}-${i}`))
  return timed(() => {
    for (const dir of dirs) execFileSync('cp', ['-r', plain, dir])
  })
}

const results = {
  git: [] as Timed[],
  worktree: [] as Timed[],
  copy: [] as Timed[],
  cp: [] as Timed[]
}
// Who goes first alternates round by round (A B, then B A): the page cache and the writeback
// of the step before favour neither side.
for (let round = 0; round < rounds; round++) {
  if (round % 2 === 0) {
    results.git.push(await ours(repo, round))
    results.worktree.push(await worktrees(round))
    results.copy.push(await ours(plain, round))
    results.cp.push(await copies(round))
  } else {
    results.worktree.push(await worktrees(round))
    results.git.push(await ours(repo, round))
    results.cp.push(await copies(round))
    results.copy.push(await ours(plain, round))
  }
  const at = (xs: Timed[]) => {
    const t = xs[round] as Timed
    return `${(t.ms / 1000).toFixed(2)} s (CPU ${t.cpu.toFixed(2)})`
  }
  console.log(
    `round ${round}: git ${at(results.git)}, worktree add ${at(results.worktree)}; folder ${at(results.copy)}, cp -r ${at(results.cp)}`
  )
}
const line = (
  name: string,
  figure: Timed[],
  baseline: Timed[],
  baseName: string,
  target: number
) => {
  const f = median(figure.map((t) => t.ms))
  const b = median(baseline.map((t) => t.ms))
  const fc = median(figure.map((t) => t.cpu))
  const bc = median(baseline.map((t) => t.cpu))
  const rounds = (of: (t: Timed) => number) => {
    const pairs = figure.map((t, i) => of(t) / of(baseline[i] as Timed)).sort((x, y) => x - y)
    return `${pairs[0]?.toFixed(2)}-${pairs.at(-1)?.toFixed(2)}`
  }
  console.log(
    `${name}: ${f.toFixed(0)} ms; ${baseName}: ${b.toFixed(0)} ms; ratio ${(f / b).toFixed(2)}, round by round ${rounds((t) => t.ms)} (target ≤ ${target})`
  )
  console.log(
    `  CPU (user + sys): ${fc.toFixed(2)} s; ${bc.toFixed(2)} s; ratio ${(fc / bc).toFixed(2)}, round by round ${rounds((t) => t.cpu)}`
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
settle()
