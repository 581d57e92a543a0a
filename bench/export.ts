// Exporting a 5,000-turn tree (a rewind every 40 turns, so 125 branches) to one HTML page:
// SessionStore.open (read-only), the tree model, the page, written to a file. Beside two
// baselines of the same run: reading and parsing the session file (read + split + JSON.parse per
// line), and the JSON export (the same model, no page). Targets: the HTML export at most 2 s here,
// the page at most 3 times the session file's size.
// Run: npx tsx bench/export.ts [turns]
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { renderExport } from '../src/core/export/render'
import { SessionStore } from '../src/core/session/store'
import type { ExportFormat } from '../src/shared/views'
import { writeSyntheticSession } from '../test/session/synthetic'

const turns = Number(process.argv[2] ?? 5000)
const dir = mkdtempSync(join(tmpdir(), 'rs-bench-export-'))
const file = join(dir, 'session.jsonl')
const records = writeSyntheticSession(file, Infinity, 1, { turns })
const size = statSync(file).size

function baseline(): number {
  const values: unknown[] = []
  for (const line of readFileSync(file, 'utf8').split('\n'))
    if (line !== '') values.push(JSON.parse(line))
  return values.length
}

function exportTo(format: ExportFormat): number {
  const store = SessionStore.open(file, { readOnly: true })
  try {
    const out = join(dir, `export.${format}`)
    const { content } = renderExport({ tree: store.tree(), header: store.header, file }, format, {
      kind: 'all'
    })
    writeFileSync(out, content)
    return statSync(out).size
  } finally {
    store.close()
  }
}

setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void
function timeMs(f: () => unknown): number {
  collectGarbage()
  const t = process.hrtime.bigint()
  f()
  return Number(process.hrtime.bigint() - t) / 1e6
}

// Warm up, then alternate so no side gets a quieter moment of this shared machine.
baseline()
const htmlBytes = exportTo('html')
const jsonBytes = exportTo('json')
const runs = 5
const base: number[] = []
const json: number[] = []
const html: number[] = []
for (let i = 0; i < runs; i++) {
  base.push(timeMs(baseline))
  json.push(timeMs(() => exportTo('json')))
  html.push(timeMs(() => exportTo('html')))
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const line = (name: string, xs: number[]) =>
  `${name}: min ${Math.min(...xs).toFixed(0)} ms, median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
console.log(`session: ${turns} turns, ${records} records, ${mb(size)}; ${runs} runs each`)
console.log(line('baseline  read + split + JSON.parse per line', base))
console.log(line('JSON export (open, model, write)', json))
console.log(line('HTML export (open, model, page, write)', html))
console.log(
  `HTML export / parse: ${(Math.min(...html) / Math.min(...base)).toFixed(2)} by minimum, ${(median(html) / median(base)).toFixed(2)} by median; / JSON export: ${(median(html) / median(json)).toFixed(2)} by median (target: HTML <= 2000 ms)`
)
console.log(
  `sizes: page ${mb(htmlBytes)} = ${(htmlBytes / size).toFixed(2)} x the session file (target <= 3); JSON ${mb(jsonBytes)} = ${(jsonBytes / size).toFixed(2)} x`
)
rmSync(dir, { recursive: true, force: true })
