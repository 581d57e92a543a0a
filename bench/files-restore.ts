// A rewind of 1,000 changed files as the user runs it, beside `cp` of the same 1,000 files in the
// same workspace, same run. Ours, each from a session at rest on disk:
//   - in the app: open the session (log, backups, recovery) + preview + apply, in this process;
//   - the app that made the backups: preview + apply (its caches warm);
//   - `cli rewind FILE --to 2` as a whole process: the built JavaScript (out/cli, built first
//     if stale) started directly, and through bin/rewind-studio.mjs as a user runs it (after
//     its freshness check of the build);
// with files settled before the preview (changed more than 2 s before it, see
// docs/file-history.md) or changed just before it. Target: ratio at most 2.
//   npx tsx bench/files-restore.ts [rounds]
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensureCliBuild } from '../scripts/ensure-build.mjs'
import { RewindEngine, checkpointAt } from '../src/core/rewind/rewind-engine'
import { restoreSpaceAt } from '../src/core/rewind/workspace-files'
import { sessionHistoryPaths } from '../src/core/files/history-paths'
import { SessionStore } from '../src/core/session/store'
import { makeWorkspace, openSession, type WorkspaceSession } from '../test/rewind/fixture'

const FILES = 1000
const rounds = Number(process.argv[2] ?? 5)
const repo = join(import.meta.dirname, '..')
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
const sessionFile = s.store.file

// The CLI as built JavaScript, started without bin's freshness check.
ensureCliBuild()
const builtCli = [
  '--input-type=module',
  '-e',
  `const { main } = await import(${JSON.stringify(join(repo, 'out', 'cli', 'index.js'))}); process.exitCode = await main(process.argv.slice(1))`
]

const time = async (fn: () => unknown) => {
  const start = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const settle = () => new Promise((resolve) => setTimeout(resolve, 2100))
const env = { ...process.env, REWIND_STUDIO_HOME: where.home }
const cli = (entry: string[], args: string[]) =>
  execFileSync(process.execPath, [...entry, ...args], { env, cwd: where.cwd, stdio: 'pipe' })

type Mode = 'both' | 'code'

/** A rewind from a session at rest on disk, all in this process: open + preview + apply. */
async function openPreviewApply(mode: Mode): Promise<void> {
  const store = SessionStore.open(sessionFile)
  try {
    const engine = new RewindEngine({
      home: where.home,
      store,
      space: restoreSpaceAt(
        s.history.root,
        sessionHistoryPaths(where.home, sessionFile, where.cwd).root
      )
    })
    await engine.recover()
    const plan = await engine.planRewind(checkpointAt(store, 2), mode)
    if (plan.files.length !== FILES) throw new Error(`planned ${plan.files.length} files`)
    await engine.apply(plan)
  } finally {
    store.close()
  }
}

async function undoAtRest(): Promise<void> {
  const store = SessionStore.open(sessionFile)
  try {
    await new RewindEngine({
      home: where.home,
      store,
      space: restoreSpaceAt(
        s.history.root,
        sessionHistoryPaths(where.home, sessionFile, where.cwd).root
      )
    }).undo()
  } finally {
    store.close()
  }
}

interface Case {
  label: string
  /** The session open in this process (the app that made the backups) rather than at rest. */
  live: boolean
  /** `live`: the session open in this process, for a live case. */
  run: (mode: Mode, live: WorkspaceSession | null) => Promise<unknown>
}

const cases: Case[] = [
  {
    label: 'the app that made the backups: preview + apply',
    live: true,
    run: async (mode, live) => {
      if (live === null) throw new Error('the live case needs the session open')
      const plan = await live.engine.planRewind(checkpointAt(live.store, 2), mode)
      if (plan.files.length !== FILES) throw new Error(`planned ${plan.files.length} files`)
      await live.engine.apply(plan)
    }
  },
  { label: 'in the app: open + preview + apply', live: false, run: openPreviewApply },
  {
    label: 'cli rewind, a process (JavaScript built)',
    live: false,
    run: async (mode) => cli(builtCli, ['rewind', sessionFile, '--to', '2', '--mode', mode])
  },
  {
    label: 'cli rewind, a process (bin/rewind-studio.mjs)',
    live: false,
    run: async (mode) =>
      cli(
        [join(repo, 'bin', 'rewind-studio.mjs')],
        ['rewind', sessionFile, '--to', '2', '--mode', mode]
      )
  }
]

const rewritten = join(where.base, 'rewritten')
execFileSync('cp', ['-r', where.cwd, rewritten])
await s.close()
// Each line starts from this log: a code-only restore and its undo file 2,000 records, and
// the lines after would otherwise measure a log grown by every round before them.
const pristineLog = readFileSync(sessionFile)

/** Median times of ours and of `cp` of the same files, each from the same state. */
async function measure(mode: Mode, c: Case, settled: boolean) {
  const ours: number[] = []
  const cp: number[] = []
  writeFileSync(sessionFile, pristineLog)
  const live = c.live ? await openSession(where, SessionStore.open(sessionFile)) : null
  try {
    for (let round = 0; round < rounds; round++) {
      if (settled) await settle()
      // Both start with no dirty pages: replacing a file whose data is not yet written back
      // makes ext4 flush it first (auto_da_alloc), which would charge one side for the other.
      execFileSync('sync')
      ours.push(await time(() => c.run(mode, live)))
      if (live !== null) await live.engine.undo()
      else await undoAtRest()
      execFileSync('sync')
      cp.push(
        await time(() => execFileSync('sh', ['-c', `cp ${originals}/* .`], { cwd: where.cwd }))
      )
      execFileSync('sh', ['-c', `cp ${rewritten}/* .`], { cwd: where.cwd })
    }
  } finally {
    await live?.close()
  }
  return { ours: median(ours), cp: median(cp) }
}

console.log(`restore ${FILES} changed files (medians of ${rounds} rounds per line)`)
for (const mode of ['both', 'code'] as const) {
  for (const settled of [true, false]) {
    console.log(`mode ${mode}, files ${settled ? 'settled' : 'changed just before the preview'}:`)
    for (const c of cases) {
      const { ours, cp } = await measure(mode, c, settled)
      console.log(
        `  ${c.label}: ${ours.toFixed(0)} ms; cp ${cp.toFixed(0)} ms; ratio ${(ours / cp).toFixed(2)} (target <= 2)`
      )
    }
  }
}
rmSync(where.base, { recursive: true, force: true })
