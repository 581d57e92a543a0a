// A 500 MB session opened by the web host as a user starts it: `rewind-studio serve --cwd DIR`
// (the installed command) on a workspace whose latest session is the big one, timed from the
// process's start until it prints the URL to open (the host ready: session loaded, tree and
// graph built, server listening), with its peak resident memory (VmHWM) and CPU time (user +
// system, every thread: /proc/PID/stat) then. Baseline, a fresh
// process each, alternating: Node reading the same file as a bare streaming parse (4 MiB chunks,
// split, JSON.parse each line, values kept: bench/support/bare-jsonl.ts), with its peak memory.
// Targets: time ≤ 1.5x, memory ≤ 1.5x. The first frame after it is bench/ui-first-frame.ts's.
//   npx tsx bench/host-ready-large.ts [megabytes] [runs]
// With BENCH_CPU_PROF=DIR, each serve writes a CPU profile there (node --cpu-prof). The session
// and its workspace are kept in tmpdir()/rs-bench-host-large-<megabytes> and reused by the next
// run (writing 500 MB takes minutes); BENCH_FRESH=1 writes them again.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

// bare-jsonl.ts as plain JavaScript, started as ours is (no loader), printing its peak memory.
const bareSource = readFileSync(join(import.meta.dirname, 'support', 'bare-jsonl.ts'), 'utf8')
  .replace(/^import .*$/m, "const { closeSync, openSync, readSync } = require('node:fs')")
  .replace('export function bareStreamingParse(file: string): number', 'function parse(file)')
  .replace('const values: unknown[] = []', 'const values = []')
const bareScript = `${bareSource}\nconst n = parse(process.argv[1]); if (n === 0) process.exit(1); const u = process.resourceUsage(); console.log(u.maxRSS / 1024, (u.userCPUTime + u.systemCPUTime) / 1000)`

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

function baseline(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, ['-e', bareScript, file])
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
const bare: Run[] = []
for (let round = 0; round < RUNS; round++) {
  if (round % 2 === 1) bare.push(await baseline())
  mine.push(await ours())
  if (round % 2 === 0) bare.push(await baseline())
}
const show = (runs: Run[]) =>
  `${median(runs.map((r) => r.ms)).toFixed(0)} ms (${runs.map((r) => r.ms.toFixed(0)).join(', ')}), CPU ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms, peak ${median(runs.map((r) => r.peakMb)).toFixed(0)} MB`
const ratio = (of: (r: Run) => number) => (median(mine.map(of)) / median(bare.map(of))).toFixed(2)
console.log(`${(statSync(file).size / 1e6).toFixed(0)} MB session, ${RUNS} runs each, medians:`)
console.log(`  serve until ready: ${show(mine)}`)
console.log(`  baseline bare streaming parse, a process: ${show(bare)}`)
console.log(
  `  ratio time ${ratio((r) => r.ms)} (CPU ${ratio((r) => r.cpuMs)}), memory ${ratio((r) => r.peakMb)} (targets ≤ 1.5, ≤ 1.5)`
)
