// Bringing another branch's files in (issue 31): 200 files both branches changed (different
// lines: each a real three-way merge) in a workspace of 20,000 files, beside `git merge-file` run
// on the same 200 triples one after another (as a script looping over them would), same run.
// Ours: the preview (the plan of every file, nothing written) and the whole merge (preview +
// apply through the rewind engine: backups, journal, writes, records), undone between rounds.
// Targets: the merge at most 2x the baseline; the preview under 1 s. The preview's merged files
// are checked against the baseline's output, byte for byte.
//   npx tsx bench/merge.ts [rounds]
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { prepareMerge, runMerge } from '../src/core/merge/merge'
import { makeWorkspace, openSession } from '../test/rewind/fixture'

const FILES = 20_000
const CHANGED = 200
const rounds = Number(process.argv[2] ?? 3)
const where = makeWorkspace()
const lines = (i: number, edit: (n: number) => string | null) =>
  Array.from({ length: 80 }, (_, n) => edit(n) ?? `line ${n} of file ${i}: ${'x'.repeat(40)}`).join(
    '\n'
  ) + '\n'
mkdirSync(join(where.cwd, 'src'))
for (let i = 0; i < FILES; i++) {
  writeFileSync(
    join(where.cwd, 'src', `f${i}.txt`),
    lines(i, () => null)
  )
}
const s = await openSession(where)
const changed = Array.from({ length: CHANGED }, (_, i) => `src/f${i * (FILES / CHANGED)}.txt`)
s.prompt('base')
await s.bash('true')
s.reply('ok')
const theirs = s.prompt('theirs')
await s.bash(`for f in ${changed.join(' ')}; do sed -i 's/^line 5 of/THEIRS line 5 of/' $f; done`)
const theirEnd = s.reply('ok')
await s.engine.rewind(theirs, 'both')
s.prompt('ours')
await s.bash(`for f in ${changed.join(' ')}; do sed -i 's/^line 70 of/OURS line 70 of/' $f; done`)
s.reply('ok')

// The baseline's triples: the same contents, as files for git.
const triples = mkdtempSync(join(tmpdir(), 'rs-merge-bench-'))
changed.forEach((_, k) => {
  const i = k * (FILES / CHANGED)
  writeFileSync(
    join(triples, `${k}.base`),
    lines(i, () => null)
  )
  writeFileSync(
    join(triples, `${k}.ours`),
    lines(i, (n) => (n === 70 ? `OURS line 70 of file ${i}: ${'x'.repeat(40)}` : null))
  )
  writeFileSync(
    join(triples, `${k}.theirs`),
    lines(i, (n) => (n === 5 ? `THEIRS line 5 of file ${i}: ${'x'.repeat(40)}` : null))
  )
})
const baselineOutputs = new Map<string, Buffer>()
const gitMergeFiles = (): number => {
  const start = performance.now()
  for (let k = 0; k < CHANGED; k++) {
    const run = spawnSync('git', ['merge-file', '-p', `${k}.ours`, `${k}.base`, `${k}.theirs`], {
      cwd: triples
    })
    if (run.status !== 0) throw new Error(`git merge-file ${k}: status ${run.status}`)
    baselineOutputs.set(changed[k] as string, run.stdout)
  }
  return performance.now() - start
}

const ws = {
  tree: () => s.store.tree(),
  leafUuid: () => s.store.leafUuid,
  engine: s.engine,
  space: s.history
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const previews: number[] = []
const merges: number[] = []
const baselines: number[] = []
for (let round = 0; round < rounds; round++) {
  baselines.push(gitMergeFiles())
  let start = performance.now()
  const preview = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
  previews.push(performance.now() - start)
  if (preview.preview.clean !== CHANGED) throw new Error(`expected ${CHANGED} clean merges`)
  for (const file of preview.plan?.files ?? []) {
    if (!(file.merged ?? Buffer.alloc(0)).equals(baselineOutputs.get(file.path) ?? Buffer.alloc(1)))
      throw new Error(`${file.path}: the preview's merge differs from git merge-file's`)
  }
  start = performance.now()
  const prepared = await prepareMerge(ws, { fromUuid: theirEnd, files: true })
  await runMerge(ws, prepared, {})
  merges.push(performance.now() - start)
  await s.engine.undo()
}
await s.close()
const figure = median(merges)
const baseline = median(baselines)
console.log(
  `merge of ${CHANGED} changed files in a ${FILES}-file workspace, ${rounds} rounds (median)`
)
const preview = median(previews)
console.log(
  `  preview (plan, nothing written): ${preview.toFixed(0)} ms (target < 1000 ms), ratio to the baseline ${(preview / median(baselines)).toFixed(2)}; its merged files equal git merge-file's`
)
console.log(`  figure: preview + apply: ${figure.toFixed(0)} ms`)
console.log(
  `  baseline: git merge-file on the same ${CHANGED} triples, one after another: ${baseline.toFixed(0)} ms`
)
console.log(`  ratio: ${(figure / baseline).toFixed(2)} (target <= 2)`)
