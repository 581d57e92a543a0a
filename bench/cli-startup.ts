// The command as a user runs it, whole processes, beside baselines run the same way:
// - `rewind-studio --help` against `node -e 0` (target: ratio <= 2);
// - `rewind-studio inspect FILE` of a 100 MB session (its tree printed, output discarded) against
//   a bare whole-process parse of the same file (read it, split lines, JSON.parse each)
//   (target: ratio <= 1.3).
// The CLI runs from its build (out/cli); it is built first if stale, outside the timings.
// Run: npx tsx bench/cli-startup.ts [megabytes] [runs]
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
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

function timeMs(args: string[]): number {
  const t = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  const ms = Number(process.hrtime.bigint() - t) / 1e6
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.toString()}`)
  return ms
}

const pairs: Record<
  string,
  { ours: string[]; base: string[]; ms: { ours: number[]; base: number[] } }
> = {
  '--help': { ours: [bin, '--help'], base: ['-e', '0'], ms: { ours: [], base: [] } },
  [`inspect ${megabytes} MB`]: {
    ours: [bin, 'inspect', file],
    base: ['-e', bareParse],
    ms: { ours: [], base: [] }
  }
}
for (const pair of Object.values(pairs)) {
  timeMs(pair.ours)
  timeMs(pair.base)
}
for (let i = 0; i < runs; i++) {
  for (const pair of Object.values(pairs)) {
    pair.ms.base.push(timeMs(pair.base))
    pair.ms.ours.push(timeMs(pair.ours))
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const range = (xs: number[]) =>
  `min ${Math.min(...xs).toFixed(0)} / median ${median(xs).toFixed(0)} / max ${Math.max(...xs).toFixed(0)} ms`
console.log(
  `session for inspect: ${(statSync(file).size / 1024 / 1024).toFixed(0)} MB, ${records} records; ${runs} runs of each, alternating`
)
for (const [name, pair] of Object.entries(pairs)) {
  console.log(`${name}: rewind-studio ${range(pair.ms.ours)}`)
  console.log(
    `${' '.repeat(name.length)}  baseline      ${range(pair.ms.base)}  (${pair.base[0] === '-e' && pair.base[1] === '0' ? 'node -e 0' : 'bare whole-process parse'})`
  )
  console.log(
    `${' '.repeat(name.length)}  ratio ${(median(pair.ms.ours) / median(pair.ms.base)).toFixed(2)} by median, ${(Math.min(...pair.ms.ours) / Math.min(...pair.ms.base)).toFixed(2)} by minimum (target ${name === '--help' ? '<= 2' : '<= 1.3'})`
  )
}
rmSync(dir, { recursive: true, force: true })
