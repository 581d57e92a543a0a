// The command as a user runs it, whole processes, beside baselines run the same way:
// - `rewind-studio --help` against `node -e 0` (target: ratio <= 2);
// - `rewind-studio inspect FILE` of a 100 MB session (its tree printed, output discarded) against
//   a bare whole-process parse of the same file (read it, split lines, JSON.parse each)
//   (target: ratio <= 1.3).
// - `inspect FILE --json` of the same file, against the same baseline.
// Each is timed as wall clock and, through /usr/bin/time, as CPU time (user + system): on a
// shared machine the CPU time is the steadier figure. The CLI runs from its build (out/cli); it
// is built first if stale, outside the timings.
// Run: npx tsx bench/cli-startup.ts [megabytes] [runs]
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ensureCliBuild } from '../scripts/ensure-build.mjs'
import { writeSyntheticSession } from '../test/session/synthetic'

const megabytes = Number(process.argv[2] ?? 100)
const runs = Number(process.argv[3] ?? 7)
const root = resolve(import.meta.dirname, '..')
const bin = join(root, 'bin/rewind-studio.mjs')
ensureCliBuild(root)

const dir = mkdtempSync(join(tmpdir(), 'rs-bench-cli-'))
const file = join(dir, 'session.jsonl')
const records = writeSyntheticSession(file, megabytes * 1024 * 1024)

const bareParse = `
const { readFileSync } = require('node:fs')
const values = []
for (const line of readFileSync(${JSON.stringify(file)}, 'utf8').split('\\n')) if (line !== '') values.push(JSON.parse(line))
`

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null

/** Wall and CPU time of one process (CPU NaN without /usr/bin/time). */
function timed(args: string[]): { wall: number; cpu: number } {
  const t = process.hrtime.bigint()
  const r =
    timeBin === null
      ? spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawnSync(timeBin, ['-f', 'CPU %U %S', process.execPath, ...args], {
          stdio: ['ignore', 'ignore', 'pipe']
        })
  const wall = Number(process.hrtime.bigint() - t) / 1e6
  const err = r.stderr.toString()
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${err}`)
  const cpu = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(err)
  return { wall, cpu: cpu === null ? NaN : (Number(cpu[1]) + Number(cpu[2])) * 1000 }
}

type Runs = { wall: number[]; cpu: number[] }
const runsOf = (): Runs => ({ wall: [], cpu: [] })
const pairs: Record<
  string,
  {
    ours: string[]
    base: string[]
    baseName: string
    target: string
    ms: { ours: Runs; base: Runs }
  }
> = {
  '--help': {
    ours: [bin, '--help'],
    base: ['-e', '0'],
    baseName: 'node -e 0',
    target: '<= 2',
    ms: { ours: runsOf(), base: runsOf() }
  },
  [`inspect ${megabytes} MB`]: {
    ours: [bin, 'inspect', file],
    base: ['-e', bareParse],
    baseName: 'bare whole-process parse',
    target: '<= 1.3',
    ms: { ours: runsOf(), base: runsOf() }
  },
  [`inspect ${megabytes} MB --json`]: {
    ours: [bin, 'inspect', file, '--json'],
    base: ['-e', bareParse],
    baseName: 'bare whole-process parse',
    target: '<= 1.3',
    ms: { ours: runsOf(), base: runsOf() }
  }
}
for (const pair of Object.values(pairs)) {
  timed(pair.ours)
  timed(pair.base)
}
const record = (runs: Runs, t: { wall: number; cpu: number }) => {
  runs.wall.push(t.wall)
  runs.cpu.push(t.cpu)
}
for (let i = 0; i < runs; i++) {
  for (const pair of Object.values(pairs)) {
    record(pair.ms.base, timed(pair.base))
    record(pair.ms.ours, timed(pair.ours))
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const range = (xs: number[]) =>
  `min ${Math.min(...xs).toFixed(0)} / median ${median(xs).toFixed(0)} / max ${Math.max(...xs).toFixed(0)} ms`
console.log(
  `session for inspect: ${(statSync(file).size / 1024 / 1024).toFixed(0)} MB, ${records} records; ${runs} runs of each, alternating`
)
for (const [name, pair] of Object.entries(pairs)) {
  const pad = ' '.repeat(name.length)
  for (const kind of ['wall', 'cpu'] as const) {
    const ours = pair.ms.ours[kind]
    const base = pair.ms.base[kind]
    console.log(`${kind === 'wall' ? name : pad}  ${kind} rewind-studio ${range(ours)}`)
    console.log(`${pad}  ${kind} baseline      ${range(base)}  (${pair.baseName})`)
    console.log(
      `${pad}  ${kind} ratio ${(median(ours) / median(base)).toFixed(2)} by median, ${(Math.min(...ours) / Math.min(...base)).toFixed(2)} by minimum (target ${pair.target})`
    )
  }
}
rmSync(dir, { recursive: true, force: true })
