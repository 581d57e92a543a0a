// The cost of one append with the durability the store uses (one write() of the whole line on an
// O_APPEND descriptor, then fdatasync), on a 1 MB and on a 100 MB session: it must not grow with
// the file. Baseline, measured in the same run: the same write + fdatasync of the same bytes on a
// bare descriptor of a fresh file, i.e. what the disk charges before the store adds anything.
// Run: npx tsx bench/session-append.ts
import {
  closeSync,
  fdatasyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SessionStore } from '../src/core/session/store'
import { writeSyntheticSession } from '../test/session/synthetic'

const APPENDS = 200
const dir = mkdtempSync(join(tmpdir(), 'rs-bench-append-'))
const content = [{ type: 'text' as const, text: 'x'.repeat(800) }]

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
}

function appendCost(megabytes: number): { median: number; size: number } {
  const file = join(dir, `session-${megabytes}mb.jsonl`)
  writeSyntheticSession(file, megabytes * 1024 * 1024)
  const store = SessionStore.open(file)
  const times: number[] = []
  for (let i = 0; i < APPENDS; i++) {
    const t = process.hrtime.bigint()
    store.appendMessage({ role: i % 2 === 0 ? 'user' : 'assistant', content })
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  store.close()
  return { median: median(times), size: statSync(file).size }
}

function bareCost(): number {
  const fd = openSync(join(dir, 'bare.jsonl'), 'a')
  const line = Buffer.from(
    `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`
  )
  const times: number[] = []
  for (let i = 0; i < APPENDS; i++) {
    const t = process.hrtime.bigint()
    writeSync(fd, line)
    fdatasyncSync(fd)
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  closeSync(fd)
  return median(times)
}

const bare = bareCost()
const small = appendCost(1)
const large = appendCost(100)
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`
console.log(`${APPENDS} appends of a ~850-byte message each, median per append`)
console.log(`baseline  bare write + fdatasync:        ${bare.toFixed(3)} ms`)
console.log(
  `appendMessage on a ${mb(small.size)} session:       ${small.median.toFixed(3)} ms (${(small.median / bare).toFixed(2)}x baseline)`
)
console.log(
  `appendMessage on a ${mb(large.size)} session:     ${large.median.toFixed(3)} ms (${(large.median / bare).toFixed(2)}x baseline)`
)
console.log(`ratio 100 MB / 1 MB: ${(large.median / small.median).toFixed(2)} (flat means ~1)`)
rmSync(dir, { recursive: true, force: true })
