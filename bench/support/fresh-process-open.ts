// The harness of the benchmarks that read one big log in a fresh process per run (time and peak
// memory each its own): the file is generated once in a temp folder, then each run spawns this
// script again as a child that loads its modules, starts the clock, reads (ours, or the bare
// streaming parse of support/bare-jsonl.ts) and prints {ms, rssMb}. The two sides alternate, so
// neither gets the quieter moments of a shared machine. Targets: time ≤ 1.3, peak memory ≤ 2.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bareStreamingParse } from './bare-jsonl'

export interface FreshProcessOpenBench {
  /** The script itself (import.meta.url as a path): what each child runs. */
  script: string
  /** What the file is, for the first line ("session", "Claude Code transcript"). */
  what: string
  /** The generated file's name in its temp folder. */
  fileName: string
  defaultMegabytes: number
  defaultRuns: number
  /** Extra node options for the children (a 1 GB log wants a bigger heap). */
  nodeArgs?: string[]
  /** Writes the file at about `bytes`; returns how many lines (records) it holds. */
  write: (file: string, bytes: number) => Promise<number>
  /** Our side: the label, and the reader loaded before the clock starts (imports are no part of it). */
  ours: { label: string; load: () => Promise<(file: string) => number> }
}

interface Run {
  ms: number
  rssMb: number
}

/** Runs the benchmark: as the parent when run by hand, as a child when spawned by the parent. */
export async function runFreshProcessOpenBench(bench: FreshProcessOpenBench): Promise<void> {
  const [mode, arg] = process.argv.slice(2)
  if (mode === 'child-baseline' || mode === 'child-ours') {
    const read = mode === 'child-baseline' ? bareStreamingParse : await bench.ours.load()
    const t = process.hrtime.bigint()
    const result = read(arg as string)
    const ms = Number(process.hrtime.bigint() - t) / 1e6
    console.log(JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024, result }))
    return
  }
  const megabytes = Number(mode ?? bench.defaultMegabytes)
  const runs = Number(arg ?? bench.defaultRuns)
  const dir = mkdtempSync(join(tmpdir(), 'rs-bench-open-'))
  const file = join(dir, bench.fileName)
  try {
    const lines = await bench.write(file, megabytes * 1024 * 1024)
    const size = statSync(file).size
    const run = (which: string): Run => {
      const args = [...(bench.nodeArgs ?? []), '--import', 'tsx', bench.script, which, file]
      const child = spawnSync(process.execPath, args, { encoding: 'utf8' })
      if (child.status !== 0) throw new Error(`${which} failed: ${child.stderr}`)
      return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as Run
    }
    const base: Run[] = []
    const mine: Run[] = []
    for (let i = 0; i < runs; i++) {
      base.push(run('child-baseline'))
      mine.push(run('child-ours'))
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
    const range = (xs: number[]) =>
      `min ${Math.min(...xs).toFixed(0)} / median ${median(xs).toFixed(0)} / max ${Math.max(...xs).toFixed(0)}`
    const show = (name: string, xs: Run[]) =>
      `${name}: time ${range(xs.map((x) => x.ms))} ms; peak RSS ${range(xs.map((x) => x.rssMb))} MB`
    console.log(
      `${bench.what}: ${(size / 1024 / 1024).toFixed(0)} MB, ${lines} lines, ${runs} runs each (fresh process per run)`
    )
    console.log(show('baseline  streaming read + split + JSON.parse per line (values kept)', base))
    console.log(show(bench.ours.label, mine))
    const ratio = (f: (x: Run) => number, pick: (xs: number[]) => number) =>
      (pick(mine.map(f)) / pick(base.map(f))).toFixed(2)
    const min = (xs: number[]) => Math.min(...xs)
    console.log(
      `ratio: time ${ratio((x) => x.ms, min)} by minimum, ${ratio((x) => x.ms, median)} by median (target <= 1.3); peak memory ${ratio((x) => x.rssMb, median)} by median (target <= 2)`
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
