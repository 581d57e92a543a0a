// Opening a session log bigger than V8's longest string (~512 MiB; default 1 GB): SessionStore.open
// streams the file (read in chunks, lines split on '\n', JSON.parse each), builds the tree, takes
// the writer lock, then the active path and its checkpoints. Baseline: the bare streaming parse of
// the same file (4 MiB chunks, split lines, JSON.parse each, values kept as any loader must).
// Each run is a fresh child process, so its peak memory (max RSS) is its own. Targets: time
// ratio <= 1.3, peak memory ratio <= 2. The file is generated in a temp folder and deleted.
// Run: npx tsx bench/session-open-large.ts [megabytes] [runs]
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SessionStore } from '../src/core/session/store'
import { bareStreamingParse } from './support/bare-jsonl'

const [mode, childFile] = process.argv.slice(2)

function ours(Store: typeof SessionStore, file: string): number {
  const store = Store.open(file)
  const tree = store.tree()
  const path = tree.activePath()
  tree.checkpoints(path)
  tree.leaves()
  store.close()
  return path.length
}

if (mode === 'child-baseline' || mode === 'child-ours') {
  const file = childFile as string
  // Loaded before the clock starts: the modules' import is no part of opening a log.
  const { SessionStore: Store } = await import('../src/core/session/store')
  const t = process.hrtime.bigint()
  const result = mode === 'child-baseline' ? bareStreamingParse(file) : ours(Store, file)
  const ms = Number(process.hrtime.bigint() - t) / 1e6
  const rssMb = process.resourceUsage().maxRSS / 1024
  console.log(JSON.stringify({ ms, rssMb, result }))
} else {
  const megabytes = Number(mode ?? 1024)
  const runs = Number(childFile ?? 3)
  const dir = mkdtempSync(join(tmpdir(), 'rs-bench-large-'))
  const file = join(dir, 'session.jsonl')
  try {
    const { writeSyntheticSession } = await import('../test/session/synthetic')
    const records = writeSyntheticSession(file, megabytes * 1024 * 1024)
    const size = statSync(file).size
    const self = fileURLToPath(import.meta.url)
    const run = (which: string) => {
      const child = spawnSync(
        process.execPath,
        ['--max-old-space-size=8192', '--import', 'tsx', self, which, file],
        { encoding: 'utf8' }
      )
      if (child.status !== 0) throw new Error(`${which} failed: ${child.stderr}`)
      return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as {
        ms: number
        rssMb: number
      }
    }
    const base: { ms: number; rssMb: number }[] = []
    const mine: { ms: number; rssMb: number }[] = []
    for (let i = 0; i < runs; i++) {
      base.push(run('child-baseline'))
      mine.push(run('child-ours'))
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
    const show = (name: string, xs: { ms: number; rssMb: number }[]) =>
      `${name}: time min ${Math.min(...xs.map((x) => x.ms)).toFixed(0)} / median ${median(xs.map((x) => x.ms)).toFixed(0)} / max ${Math.max(...xs.map((x) => x.ms)).toFixed(0)} ms; peak RSS median ${median(xs.map((x) => x.rssMb)).toFixed(0)} MB`
    console.log(
      `session: ${(size / 1024 / 1024).toFixed(0)} MB, ${records} records, ${runs} runs each (fresh process per run)`
    )
    console.log(show('baseline  streaming read + split + JSON.parse per line (values kept)', base))
    console.log(show('SessionStore.open + tree + active path + checkpoints + leaves', mine))
    const ratio = (f: (x: { ms: number; rssMb: number }) => number) =>
      (median(mine.map(f)) / median(base.map(f))).toFixed(2)
    console.log(
      `ratio: time ${ratio((x) => x.ms)} by median (target <= 1.3), peak memory ${ratio((x) => x.rssMb)} (target <= 2)`
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
