// Restoring 1,000 changed files with the rewind engine (backup of what it overwrites, journal,
// temp file + rename per file, session record) beside `cp` of the same 1,000 files, in the same
// workspace, same run: files settled before the preview or not, in the process that made the
// backups (the app) or in a fresh one (`cli rewind`).
// Target: ratio at most 2.
//   npx tsx bench/files-restore.ts
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { RewindEngine, checkpointAt } from '../src/core/rewind/rewind-engine'
import { restoreSpaceAt } from '../src/core/rewind/workspace-files'
import { makeWorkspace, openSession } from '../test/rewind/fixture'

const FILES = 1000
const where = makeWorkspace()
const s = await openSession(where)
const originals = join(where.base, 'originals')
mkdirSync(originals)
const line = (i: number, word: string) =>
  `${word} line of file ${i}: ${'x'.repeat(60)}\n`.repeat(50)
for (let i = 0; i < FILES; i++) writeFileSync(join(originals, `f${i}.txt`), line(i, 'original'))

s.prompt('create the files')
await s.bash(`cp ${originals}/* .`)
s.reply('created')
s.prompt('rewrite them all')
await s.bash(`for f in f*.txt; do sed -i 's/original/rewritten/' $f; done`)
s.reply('rewritten')

const rewritten = join(where.base, 'rewritten')
execFileSync('cp', ['-r', where.cwd, rewritten])

const time = async (fn: () => unknown) => {
  const start = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const rounds = 5

const settle = () => new Promise((resolve) => setTimeout(resolve, 2100))

interface Case {
  label: string
  /** Files last changed more than two seconds before the preview (see docs/file-history.md). */
  settled: boolean
  /** A new engine and blob store per round, as a fresh `cli rewind` (its preview reads them). */
  cold: boolean
}

const cases: Case[] = [
  { label: 'settled files, the app that made the backups', settled: true, cold: false },
  { label: 'settled files, a fresh process (as cli rewind)', settled: true, cold: true },
  { label: 'files changed just before the preview', settled: false, cold: false }
]

/** Median time of the engine's apply, and of `cp` of the same files, each from the same state. */
async function measure(mode: 'both' | 'code', c: Case): Promise<{ ours: number; cp: number }> {
  const ours: number[] = []
  const cp: number[] = []
  for (let round = 0; round < rounds; round++) {
    if (c.settled) await settle()
    const engine = c.cold
      ? new RewindEngine({
          home: where.home,
          store: s.store,
          space: restoreSpaceAt(s.history.root, s.history.paths.root)
        })
      : s.engine
    const plan = await engine.planRewind(checkpointAt(s.store, 2), mode)
    if (plan.files.length !== FILES) throw new Error(`planned ${plan.files.length} files`)
    // Both start with no dirty pages: replacing a file whose data is not yet written back
    // makes ext4 flush it first (auto_da_alloc), which would charge one side for the other.
    execFileSync('sync')
    ours.push(await time(() => engine.apply(plan)))
    await engine.undo()
    execFileSync('sync')
    cp.push(await time(() => execFileSync('sh', ['-c', `cp ${originals}/* .`], { cwd: where.cwd })))
    execFileSync('sh', ['-c', `cp ${rewritten}/* .`], { cwd: where.cwd })
  }
  return { ours: median(ours), cp: median(cp) }
}

for (const mode of ['both', 'code'] as const) {
  console.log(`restore ${FILES} changed files, mode ${mode} (medians of ${rounds}):`)
  for (const c of cases) {
    const { ours, cp } = await measure(mode, c)
    console.log(
      `  ${c.label}: ${ours.toFixed(0)} ms; cp of the same files ${cp.toFixed(0)} ms; ratio ${(ours / cp).toFixed(2)} (target <= 2)`
    )
  }
}
await s.close()
