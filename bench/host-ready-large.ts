// A 500 MB session opened by the web host as a user starts it: `rewind-studio serve --cwd DIR`
// (the installed command) on a workspace whose latest session is the big one, timed from the
// process's start until it prints the URL to open (the host ready: session loaded, tree and
// graph built, server listening), with its peak resident memory (VmHWM) and CPU time (user +
// system, every thread: /proc/PID/stat) then. Baselines, a fresh
// process each, alternating with ours: Node reading the same file as a bare streaming parse (4 MiB
// chunks, split, JSON.parse each line: bench/support/bare-jsonl.ts), each value dropped once
// parsed (the parse alone), and the same with the values kept (the least a host that holds every
// record does; most of its time is the collector copying what it keeps), each with its peak
// memory and CPU time, measured the same way as ours: wall time from spawn to the process's end,
// CPU and peak from the process itself. Targets: time ≤ 1.5x, memory ≤ 1.5x (the ratios are
// printed against both). The first frame after it is bench/ui-first-frame.ts's.
//   npx tsx bench/host-ready-large.ts [megabytes] [runs]
// With BENCH_CPU_PROF=DIR, each serve writes a CPU profile there (node --cpu-prof). The session
// and its workspace are kept in tmpdir()/rs-bench-host-large-<megabytes> and reused by the next
// run (writing 500 MB takes minutes); BENCH_FRESH=1 writes them again.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { transformSync } from 'esbuild'
import { ensureBuild, ensureCliBuild } from '../scripts/ensure-build.mjs'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { writeSyntheticSession } from '../test/session/synthetic'
import { median } from './support/timed-process'

const MEGABYTES = Number(process.argv[2] ?? 500)
const RUNS = Number(process.argv[3] ?? 3)
const repo = join(import.meta.dirname, '..')
const base = join(tmpdir(), `rs-bench-host-large-${MEGABYTES}`)
const cwd = join(base, 'workspace')
const home = join(base, 'home')
const file = join(
  sessionsDir(home, cwd),
  sessionFileName('2026-01-01T00:00:00.000Z', '01900000-0000-7000-8000-000000000000')
)
if (process.env.BENCH_FRESH === '1' || !existsSync(file)) {
  rmSync(base, { recursive: true, force: true })
  mkdirSync(cwd, { recursive: true })
  mkdirSync(sessionsDir(home, cwd), { recursive: true })
  // Written aside and renamed: a run stopped while writing leaves no half session to reuse.
  writeSyntheticSession(`${file}.partial`, MEGABYTES * 1024 * 1024, 1, { cwd })
  renameSync(`${file}.partial`, file)
}
const env: NodeJS.ProcessEnv = { ...process.env, REWIND_STUDIO_HOME: home }
delete env.ANTHROPIC_API_KEY

// bare-jsonl.ts as plain JavaScript, started as ours is (no loader), printing its peak memory
// and CPU time. `node -e` runs it as CommonJS: esbuild's output of the module, then the call.
const bareSource = transformSync(
  readFileSync(join(import.meta.dirname, 'support', 'bare-jsonl.ts'), 'utf8'),
  { loader: 'ts', format: 'cjs' }
).code
const bareScript = `${bareSource}\nconst n = bareStreamingParse(process.argv[1], process.argv[2] === 'keep'); if (n === 0) process.exit(1); const u = process.resourceUsage(); console.log(u.maxRSS / 1024, (u.userCPUTime + u.systemCPUTime) / 1000)`

interface Run {
  ms: number
  peakMb: number
  /** CPU time, user + system, ms: what a machine shared with other work moves least. */
  cpuMs: number
}

/** CPU time (user + system) of a live process so far, ms (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Peak resident memory of a live process, MB. */
function peakOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN)
  return kb / 1024
}

function ours(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_CPU_PROF === undefined
          ? []
          : ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]),
        join(repo, 'bin', 'rewind-studio.mjs'),
        'serve',
        '--cwd',
        cwd,
        '--port',
        '0'
      ],
      { env, cwd }
    )
    let out = ''
    let done: Run | null = null
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (done === null && out.includes('Open http')) {
        done = {
          ms: Number(process.hrtime.bigint() - start) / 1e6,
          peakMb: peakOf(child.pid!),
          cpuMs: cpuOf(child.pid!)
        }
        child.kill(process.env.BENCH_CPU_PROF === undefined ? 'SIGTERM' : 'SIGINT')
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('close', () => (done === null ? reject(new Error(`serve: ${out}`)) : resolve(done)))
  })
}

function baseline(values: 'keep' | 'drop'): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, ['-e', bareScript, file, values])
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (code !== 0) reject(new Error(`baseline: ${out}`))
      else {
        const [peakMb, cpuMs] = out.trim().split(' ').map(Number)
        resolve({ ms, peakMb: peakMb ?? NaN, cpuMs: cpuMs ?? NaN })
      }
    })
  })
}

ensureBuild()
ensureCliBuild()
await ours() // builds what is stale, warms the page cache
const mine: Run[] = []
const dropped: Run[] = []
const kept: Run[] = []
for (let round = 0; round < RUNS; round++) {
  // Each side goes first in every other round: one that follows the other's heap teardown, or
  // another process's load, is not always the same side.
  if (round % 2 === 1) {
    dropped.push(await baseline('drop'))
    kept.push(await baseline('keep'))
  }
  mine.push(await ours())
  if (round % 2 === 0) {
    dropped.push(await baseline('drop'))
    kept.push(await baseline('keep'))
  }
}
const show = (runs: Run[]) =>
  `${median(runs.map((r) => r.ms)).toFixed(0)} ms (${runs.map((r) => r.ms.toFixed(0)).join(', ')}), CPU ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms (${runs.map((r) => r.cpuMs.toFixed(0)).join(', ')}), peak ${median(runs.map((r) => r.peakMb)).toFixed(0)} MB`
const ratio = (bare: Run[], of: (r: Run) => number) =>
  (median(mine.map(of)) / median(bare.map(of))).toFixed(2)
const ratios = (bare: Run[]) =>
  `time ${ratio(bare, (r) => r.ms)} (CPU ${ratio(bare, (r) => r.cpuMs)}), memory ${ratio(bare, (r) => r.peakMb)}`
console.log(`${(statSync(file).size / 1e6).toFixed(0)} MB session, ${RUNS} runs each, medians:`)
console.log(`  serve until ready: ${show(mine)}`)
console.log(`  baseline bare streaming parse, values dropped, a process: ${show(dropped)}`)
console.log(`  baseline bare streaming parse, values kept, a process: ${show(kept)}`)
console.log(`  ratio to the parse alone: ${ratios(dropped)} (targets ≤ 1.5, ≤ 1.5)`)
console.log(`  ratio to the parse keeping the values: ${ratios(kept)} (targets ≤ 1.5, ≤ 1.5)`)
