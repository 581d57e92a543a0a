// Listing a workspace of 1,000 sessions of 1 MB each (our format) through the session index
// (src/core/sources): warm in the same process (what the studio does after every turn), and warm
// in a new process (the index read from the data home). Baselines in the same run: readdir + stat
// of the same files (the least any listing that notices a change can do), and the listing as it
// was before the index: every log opened and parsed to count its prompts. Also printed: the cold
// listing that builds the index (once per log, then only logs that change are read). And as
// processes, what a user runs: `rewind-studio sessions --cwd DIR` warm (the installed command,
// the index from the data home), beside a Node process doing the readdir + stat; wall and CPU.
// Target: warm < 300 ms; as a process ≤ 2x readdir + stat. With BENCH_CPU_PROF=DIR, each
// `sessions` process writes a CPU profile there (node --cpu-prof; the profiler's own cost is in
// those runs' figures, so read the profiles, not the ratio, of such a run). With
// BENCH_BASE_ROOT=DIR (a checkout of another build, built), that build's `sessions` is run after
// each of ours on the same index: A/B. The cold start as a user meets it (the host, its page):
// session-list-cold.ts.
// Run: npx tsx bench/session-list.ts [sessions] [megabytes each] [runs]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SessionStore } from '../src/core/session/store'
import { Sources } from '../src/core/sources/discovery'
import { writeManySessions } from '../test/support/many-sessions'
import { ensureCliBuild } from '../scripts/ensure-build.mjs'
import { type TimedRun, timedProcess } from './support/timed-process'

const sessions = Number(process.argv[2] ?? 1000)
const megabytes = Number(process.argv[3] ?? 1)
const runs = Number(process.argv[4] ?? 5)

const base = mkdtempSync(join(tmpdir(), 'rs-bench-list-'))
const cwd = join(base, 'project')
const home = join(base, 'home')
mkdirSync(cwd)
const dir = writeManySessions(home, cwd, sessions, megabytes * 1024 * 1024)
const total = readdirSync(dir).reduce((n, name) => n + statSync(join(dir, name)).size, 0)
// Empty homes for the other tools: only our sessions are measured.
const homes = {
  'rewind-studio': home,
  'claude-code': join(base, 'none'),
  pi: join(base, 'none'),
  'oh-my-pi': join(base, 'none'),
  codex: join(base, 'none'),
  'gemini-cli': join(base, 'none'),
  opencode: join(base, 'none')
}

function timeMs(f: () => unknown): number {
  const t = process.hrtime.bigint()
  f()
  return Number(process.hrtime.bigint() - t) / 1e6
}

const readdirStat = () => readdirSync(dir).map((name) => statSync(join(dir, name)).size).length
const oldListing = () =>
  SessionStore.list(home, cwd).map((listing) => {
    const store = SessionStore.open(listing.file, { readOnly: true })
    try {
      return store.tree().checkpoints().length
    } finally {
      store.close()
    }
  }).length

const cold = timeMs(() => new Sources({ home, homes }).workspaceSessions(cwd))
const studioSources = new Sources({ home, homes })
studioSources.workspaceSessions(cwd)
const warm: number[] = []
const fromDisk: number[] = []
const stats: number[] = []
for (let i = 0; i < runs; i++) {
  stats.push(timeMs(readdirStat))
  warm.push(timeMs(() => studioSources.workspaceSessions(cwd)))
  fromDisk.push(timeMs(() => new Sources({ home, homes }).workspaceSessions(cwd)))
}
const oldRuns = Math.min(runs, 2)
const old: number[] = []
for (let i = 0; i < oldRuns; i++) old.push(timeMs(oldListing))

// Whole processes, alternating: the CLI, and Node doing readdir + stat of the same folder.
ensureCliBuild()
const cliEnv = {
  ...process.env,
  REWIND_STUDIO_HOME: home,
  REWIND_STUDIO_CLAUDE_HOME: homes['claude-code'],
  REWIND_STUDIO_PI_HOME: homes.pi,
  REWIND_STUDIO_OMP_HOME: homes['oh-my-pi'],
  REWIND_STUDIO_CODEX_HOME: homes.codex,
  REWIND_STUDIO_GEMINI_HOME: homes['gemini-cli'],
  REWIND_STUDIO_OPENCODE_HOME: homes.opencode
}
const bin = join(import.meta.dirname, '..', 'bin', 'rewind-studio.mjs')
const statScript = `const fs = require('node:fs'), path = require('node:path'); let n = 0; for (const f of fs.readdirSync(process.argv[1])) n += fs.statSync(path.join(process.argv[1], f)).size; if (n === 0) process.exit(1)`
// BENCH_BASE_ROOT=DIR (a checkout of another build, built): its `sessions` alternated with ours.
const baseRoot = process.env.BENCH_BASE_ROOT
const cliRuns: TimedRun[] = []
const baseRuns: TimedRun[] = []
const statRuns: TimedRun[] = []
const listedBy = async (script: string, profile: string[] = []) => {
  const listed = await timedProcess(
    process.execPath,
    [...profile, script, 'sessions', '--cwd', cwd],
    {
      env: cliEnv
    }
  )
  if (listed.stdout.split('\n').length < sessions) throw new Error('sessions listed too few')
  return listed
}
for (let i = 0; i < runs; i++) {
  const profile =
    process.env.BENCH_CPU_PROF === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
  cliRuns.push(await listedBy(bin, profile))
  statRuns.push(await timedProcess(process.execPath, ['-e', statScript, dir]))
  if (baseRoot !== undefined)
    baseRuns.push(await listedBy(join(baseRoot, 'bin', 'rewind-studio.mjs')))
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const range = (xs: number[]) =>
  `min ${Math.min(...xs).toFixed(0)} / median ${median(xs).toFixed(0)} / max ${Math.max(...xs).toFixed(0)} ms`
console.log(
  `${sessions} sessions, ${(total / 1024 / 1024).toFixed(0)} MB in all; ${runs} runs (old listing: ${oldRuns})`
)
console.log(`cold: index built from every log            ${cold.toFixed(0)} ms (once)`)
console.log(`warm, same process (the studio)            ${range(warm)}`)
console.log(`warm, new process (index from the data home) ${range(fromDisk)}`)
console.log(`baseline readdir + stat                    ${range(stats)}`)
console.log(`baseline old listing (open + parse each)   ${range(old)}`)
console.log(
  `ratio warm / readdir+stat ${(median(warm) / median(stats)).toFixed(2)}, new process / readdir+stat ${(median(fromDisk) / median(stats)).toFixed(2)}, warm / old listing ${(median(warm) / median(old)).toFixed(4)} (target: warm < 300 ms)`
)
const wallOf = (xs: TimedRun[]) => xs.map((r) => r.wallMs)
const cpuOf = (xs: TimedRun[]) => xs.map((r) => r.cpuMs)
console.log(
  `cli sessions, a process (warm)            wall ${range(wallOf(cliRuns))}, CPU ${range(cpuOf(cliRuns))}`
)
console.log(
  `baseline node readdir + stat, a process   wall ${range(wallOf(statRuns))}, CPU ${range(cpuOf(statRuns))}`
)
if (baseRoot !== undefined) {
  console.log(
    `${baseRoot} sessions, a process (warm)  wall ${range(wallOf(baseRuns))}, CPU ${range(cpuOf(baseRuns))}; this build's CPU / its ${(median(cpuOf(cliRuns)) / median(cpuOf(baseRuns))).toFixed(2)}`
  )
}
console.log(
  `ratio as processes: wall ${(median(wallOf(cliRuns)) / median(wallOf(statRuns))).toFixed(2)}, CPU ${(median(cpuOf(cliRuns)) / median(cpuOf(statRuns))).toFixed(2)} (target ≤ 2)`
)
rmSync(base, { recursive: true, force: true })
