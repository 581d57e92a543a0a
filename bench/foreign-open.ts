// Reading a 100 MB Claude Code transcript into the tree, in process: readSessionFile (chunked read,
// JSON.parse per line, the Claude Code mapper: message groups, chain links, file history into
// turn changes, raw records kept), then the active path, its checkpoints and the leaves. Baseline:
// the bare streaming parse of the same file (bench/support/bare-jsonl.ts). The transcript is
// generated with the records and proportions the real CLI writes (support/claude-code-transcript.ts).
// Each run is a fresh child process, so its time and peak memory (max RSS) are its own.
// Targets: time ratio <= 1.3, peak memory ratio <= 2.
// Run: npx tsx bench/foreign-open.ts [megabytes] [runs]
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { readSessionFile as ReadSessionFile } from '../src/core/session/load'
import { bareStreamingParse } from './support/bare-jsonl'

const [mode, childFile] = process.argv.slice(2)

function ours(read: typeof ReadSessionFile, file: string): number {
  const { tree, format } = read(file)
  if (format !== 'claude-code') throw new Error(`read as ${format}`)
  const path = tree.activePath()
  tree.checkpoints(path)
  tree.leaves()
  return path.length
}

if (mode === 'child-baseline' || mode === 'child-ours') {
  const file = childFile as string
  // Loaded before the clock starts: the modules' import is no part of reading a transcript.
  const { readSessionFile } = await import('../src/core/session/load')
  const t = process.hrtime.bigint()
  const result = mode === 'child-baseline' ? bareStreamingParse(file) : ours(readSessionFile, file)
  const ms = Number(process.hrtime.bigint() - t) / 1e6
  const rssMb = process.resourceUsage().maxRSS / 1024
  console.log(JSON.stringify({ ms, rssMb, result }))
} else {
  const megabytes = Number(mode ?? 100)
  const runs = Number(childFile ?? 5)
  const dir = mkdtempSync(join(tmpdir(), 'rs-bench-foreign-'))
  const file = join(dir, '7d7a2229-dbc1-4214-af1e-e197f89a6e19.jsonl')
  try {
    const { writeClaudeCodeTranscript } = await import('./support/claude-code-transcript')
    const lines = writeClaudeCodeTranscript(file, megabytes * 1024 * 1024)
    const size = statSync(file).size
    const self = fileURLToPath(import.meta.url)
    const run = (which: string) => {
      const child = spawnSync(process.execPath, ['--import', 'tsx', self, which, file], {
        encoding: 'utf8'
      })
      if (child.status !== 0) throw new Error(`${which} failed: ${child.stderr}`)
      return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as {
        ms: number
        rssMb: number
      }
    }
    const base: { ms: number; rssMb: number }[] = []
    const mine: { ms: number; rssMb: number }[] = []
    // Alternated, so neither side gets the quieter moments of a shared machine.
    for (let i = 0; i < runs; i++) {
      base.push(run('child-baseline'))
      mine.push(run('child-ours'))
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
    const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)] ?? NaN
    const show = (name: string, xs: { ms: number; rssMb: number }[]) => {
      const ms = xs.map((x) => x.ms)
      const rss = xs.map((x) => x.rssMb)
      return `${name}: time min ${Math.min(...ms).toFixed(0)} / median ${median(ms).toFixed(0)} / max ${Math.max(...ms).toFixed(0)} ms; peak RSS min ${Math.min(...rss).toFixed(0)} / median ${median(rss).toFixed(0)} / max ${Math.max(...rss).toFixed(0)} MB`
    }
    console.log(
      `Claude Code transcript: ${(size / 1024 / 1024).toFixed(0)} MB, ${lines} lines, ${runs} runs each (fresh process per run)`
    )
    console.log(show('baseline  streaming read + split + JSON.parse per line (values kept)', base))
    console.log(show('readSessionFile + tree + active path + checkpoints + leaves', mine))
    const ratio = (
      f: (x: { ms: number; rssMb: number }) => number,
      pick: (xs: number[]) => number
    ) => (pick(mine.map(f)) / pick(base.map(f))).toFixed(2)
    const min = (xs: number[]) => Math.min(...xs)
    console.log(
      `ratio: time ${ratio((x) => x.ms, min)} by minimum, ${ratio((x) => x.ms, median)} by median (target <= 1.3); peak memory ${ratio((x) => x.rssMb, median)} by median (target <= 2)`
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
