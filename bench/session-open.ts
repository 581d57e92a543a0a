// Opening a 100 MB session (about 100k records): SessionStore.open, which parses every line,
// checks records, builds the tree and takes the writer lock, then the active path and its
// checkpoints; beside the bare baseline of the same work minus everything but JSON: read the
// file, split it into lines, JSON.parse each. Target: ratio at most 1.3.
// Run: npx tsx bench/session-open.ts [megabytes]
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { SessionStore } from '../src/core/session/store'
import { writeSyntheticSession } from '../test/session/synthetic'

const megabytes = Number(process.argv[2] ?? 100)
const dir = mkdtempSync(join(tmpdir(), 'rs-bench-open-'))
const file = join(dir, 'session.jsonl')
const records = writeSyntheticSession(file, megabytes * 1024 * 1024)
const size = statSync(file).size

// Keeps the parsed values, as any loader must: dropping them would measure a loop whose
// objects die young, which no session reader can be.
function baseline(): number {
  const text = readFileSync(file, 'utf8')
  const values: unknown[] = []
  for (const line of text.split('\n')) if (line !== '') values.push(JSON.parse(line))
  return values.length
}

function open(): number {
  const store = SessionStore.open(file)
  const tree = store.tree()
  const path = tree.activePath()
  tree.checkpoints(path)
  tree.leaves()
  store.close()
  return path.length
}

// A full GC before each timed run, so neither side pays for the other's garbage.
setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void

function timeMs(f: () => unknown): number {
  collectGarbage()
  const t = process.hrtime.bigint()
  f()
  return Number(process.hrtime.bigint() - t) / 1e6
}

// Warm both up once, then alternate so neither gets a quieter machine. The minimum is the run
// least disturbed by other processes (this machine is shared); the median is printed beside it.
baseline()
open()
const runs = 9
const base: number[] = []
const ours: number[] = []
for (let i = 0; i < runs; i++) {
  base.push(timeMs(baseline))
  ours.push(timeMs(open))
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const line = (name: string, xs: number[]) =>
  `${name}: min ${Math.min(...xs).toFixed(0)} ms, median ${median(xs).toFixed(0)} ms`
console.log(`session: ${(size / 1024 / 1024).toFixed(1)} MB, ${records} records, ${runs} runs each`)
console.log(line('baseline  read + split + JSON.parse per line (values kept)', base))
console.log(line('SessionStore.open + tree + active path + checkpoints + leaves', ours))
console.log(
  `ratio: ${(Math.min(...ours) / Math.min(...base)).toFixed(2)} by minimum, ${(median(ours) / median(base)).toFixed(2)} by median (target <= 1.3)`
)
rmSync(dir, { recursive: true, force: true })
