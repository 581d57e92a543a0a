// The cost of one append with the durability the store uses (one write() of the whole line on an
// O_APPEND descriptor, then fdatasync), on a 1 MB and on a 100 MB session: it must not grow with
// the file. Baseline, measured in the same run on the same file: a bare write + fdatasync of a line
// of the same size, i.e. what the disk charges before the store adds anything (validation, the
// size check, the tree update).
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

function bareAppends(file: string): number {
  const fd = openSync(file, 'a')
  const line = Buffer.from(
    `${JSON.stringify({ type: 'note', uuid: 'x'.repeat(36), message: { role: 'user', content } })}\n`
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

function storeAppends(file: string): number {
  const store = SessionStore.open(file)
  const times: number[] = []
  for (let i = 0; i < APPENDS; i++) {
    const t = process.hrtime.bigint()
    store.appendMessage({ role: i % 2 === 0 ? 'user' : 'assistant', content })
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  store.close()
  return median(times)
}

/** Bare and store appends, alternating in rounds so both see the same disk and machine load. */
function measure(megabytes: number): { bare: number; store: number; size: number } {
  const file = join(dir, `session-${megabytes}mb.jsonl`)
  writeSyntheticSession(file, megabytes * 1024 * 1024)
  const size = statSync(file).size
  const bare: number[] = []
  const store: number[] = []
  for (let round = 0; round < 3; round++) {
    bare.push(bareAppends(file))
    store.push(storeAppends(file))
  }
  return { bare: median(bare), store: median(store), size }
}

const small = measure(1)
const large = measure(100)
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`
console.log(`${APPENDS} appends x 3 rounds of a ~850-byte message, median per append`)
for (const m of [small, large]) {
  console.log(
    `${mb(m.size).padStart(6)} session: bare write + fdatasync ${m.bare.toFixed(3)} ms, appendMessage ${m.store.toFixed(3)} ms (${(m.store / m.bare).toFixed(2)}x bare)`
  )
}
console.log(
  `appendMessage 100 MB / 1 MB: ${(large.store / small.store).toFixed(2)} (bare: ${(large.bare / small.bare).toFixed(2)}); flat means ~1`
)
rmSync(dir, { recursive: true, force: true })
