// Compare of two nodes 1,000 files apart (core/views/compare-view.ts: the files as each node left
// them, rebuilt from the backups, with a unified diff per file) beside `diff -r` over two folders
// holding the same two states, in the same run. Each file has 50 lines; the second turn changes
// one line in each of the 1,000 (a realistic edit; the backups store it as a delta).
// Cases: the full comparison with every diff (what `cli diff` prints), in the process that made
// the backups and with a fresh blob store (a fresh `cli diff`); the studio's view (diffs up to
// its 1 MB budget, the rest on demand); which files differ alone (hashes, no blob read).
// Target: ratio at most 2 against `diff -r`.
//   npx tsx bench/compare.ts
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BlobStore } from '../src/core/files/blob-store'
import { type CompareSources, buildCompareView } from '../src/core/views/compare-view'
import { buildSessionGraph, indexTurns } from '../src/core/views/session-graph'
import { makeWorkspace, openSession } from '../test/rewind/fixture'

const FILES = 1000
const where = makeWorkspace()
const s = await openSession(where)
const before = join(where.base, 'before')
const after = join(where.base, 'after')
mkdirSync(before)
mkdirSync(after)
const text = (i: number, changed: boolean) =>
  Array.from({ length: 50 }, (_, line) =>
    line === 25 && changed
      ? `line ${line} of file ${i}: changed by the second turn\n`
      : `line ${line} of file ${i}: ${'x'.repeat(60)}\n`
  ).join('')
for (let i = 0; i < FILES; i++) {
  writeFileSync(join(before, `f${i}.txt`), text(i, false))
  writeFileSync(join(after, `f${i}.txt`), text(i, true))
}

const first = s.prompt('create the files')
await s.bash(`cp ${before}/* .`)
s.reply('created')
const second = s.prompt('change a line in each')
await s.bash(`cp ${after}/* .`)
s.reply('changed')

const tree = s.store.tree()
const index = indexTurns(tree)
const nodes = buildSessionGraph(tree, s.store.sessionId, index).nodes
const sources = (blobs: BlobStore): CompareSources => ({
  tree,
  index,
  nodes,
  blobs,
  disk: { hashOf: () => undefined, contentOf: () => undefined },
  caveat: null
})

const time = (fn: () => unknown) => {
  const start = process.hrtime.bigint()
  fn()
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const rounds = 7

const diffR = (flags: string) =>
  time(() => {
    // diff exits 1 when the folders differ: that is the expected answer here.
    const r = spawnSync('diff', [flags, before, after], { maxBuffer: 1 << 30 })
    if (r.status !== 1) throw new Error(`diff ${flags} answered ${r.status}`)
  })

interface Case {
  label: string
  run: () => number
}
const check = (files: number, diffs: number) => (view: ReturnType<typeof buildCompareView>) => {
  if (view.files.length !== files) throw new Error(`compared ${view.files.length} files`)
  const withDiff = view.files.filter((f) => f.diff !== null).length
  if (withDiff !== diffs) throw new Error(`${withDiff} diffs, expected ${diffs}`)
}
const cases: Case[] = [
  {
    label: 'every diff, the process that made the backups',
    run: () =>
      time(() =>
        check(
          FILES,
          FILES
        )(buildCompareView(sources(s.history.blobs), first, second, { diffBudget: Infinity }))
      )
  },
  {
    label: 'every diff, a fresh blob store (as cli diff)',
    run: () =>
      time(() =>
        check(
          FILES,
          FILES
        )(
          buildCompareView(sources(new BlobStore(s.history.paths.blobs)), first, second, {
            diffBudget: Infinity
          })
        )
      )
  },
  {
    label: 'the studio view (diffs to 1 MB, the rest on demand)',
    run: () => time(() => buildCompareView(sources(s.history.blobs), first, second))
  },
  {
    label: 'which files differ alone (no diff)',
    run: () =>
      time(() =>
        check(
          FILES,
          0
        )(buildCompareView(sources(s.history.blobs), first, second, { diffBudget: 0 }))
      )
  }
]

execFileSync('sync')
const baseline = { r: [] as number[], ru: [] as number[] }
const ours = cases.map(() => [] as number[])
for (let round = 0; round < rounds; round++) {
  baseline.r.push(diffR('-r'))
  baseline.ru.push(diffR('-ru'))
  cases.forEach((c, i) => ours[i]?.push(c.run()))
}
const r = median(baseline.r)
const ru = median(baseline.ru)
console.log(`compare two nodes ${FILES} files apart (medians of ${rounds}):`)
console.log(`  baseline diff -r ${r.toFixed(1)} ms; diff -ru ${ru.toFixed(1)} ms`)
cases.forEach((c, i) => {
  const m = median(ours[i] ?? [])
  console.log(
    `  ${c.label}: ${m.toFixed(1)} ms; ratio ${(m / r).toFixed(2)} vs diff -r (target <= 2), ${(m / ru).toFixed(2)} vs diff -ru`
  )
})
await s.close()
