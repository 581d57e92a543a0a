// A rewind as the user runs it, in a real-sized workspace: 20,000 files of varied source in deep
// folders (bench/support/varied-source.ts), a git repository, and the session's history as it
// stands after its first checkpoint (every file backed up, one pack and its index) and two turns:
// the first rewrites 1,010 files spread over the tree, the second 10 others. Ours, each from a
// session at rest on disk:
//   - 1,010 files (back to checkpoint 1), beside `cp` of the same files into their folders:
//     - in the app: open the session (log, backups, recovery) + preview + apply, in this process;
//     - the app that made the backups: preview + apply (its caches warm);
//     - `cli rewind FILE --to 1` as a whole process: the built JavaScript (out/cli, built first
//       if stale) started directly, and through bin/rewind-studio.mjs as a user runs it (after
//       its freshness check of the build);
//     with files settled before the preview (changed more than 2 s before it, see
//     docs/file-history.md) or changed just before it; modes both and code. Target: ratio ≤ 2.
//   - 10 files (back to checkpoint 2, code), `cli rewind` through bin/rewind-studio.mjs, beside
//     `node -e 0` + `git checkout -- FILES` as two processes. Target: ratio ≤ 2, and a cost that
//     does not grow with the pack index (it holds every file of the tree).
//   npx tsx bench/files-restore.ts [rounds] [small]   (small: only the 10-file rewind)
// With BENCH_CPU_PROF=DIR, each 10-file `cli rewind` writes a CPU profile there.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ensureCliBuild } from '../scripts/ensure-build.mjs'
import { RewindEngine } from '../src/core/rewind/rewind-engine'
import { checkpointAt } from '../src/core/rewind/checkpoint-at'
import { restoreSpaceAt } from '../src/core/rewind/workspace-files'
import { sessionHistoryPaths } from '../src/core/files/history-paths'
import { SessionStore } from '../src/core/session/store'
import { makeWorkspace, openSession, type WorkspaceSession } from '../test/rewind/fixture'
import { writeVariedSource } from './support/varied-source'
import { timedProcess } from './support/timed-process'

const TREE = 20_000
const rounds = Number(process.argv[2] ?? 5)
const onlySmall = process.argv[3] === 'small'
const repo = join(import.meta.dirname, '..')
const where = makeWorkspace()
writeVariedSource(where.cwd, TREE)
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com'
}
execFileSync('sh', ['-c', 'git init -q && git add -A && git commit -qm tree'], {
  cwd: where.cwd,
  env: gitEnv
})
const tracked = execFileSync('git', ['ls-files'], { cwd: where.cwd, encoding: 'utf8' })
  .split('\n')
  .filter((rel) => rel !== '' && statSync(join(where.cwd, rel)).size > 0)
// Spread over the tree: every 19th file for the big rewind, 10 others for the small one.
const big = tracked.filter((_, i) => i % 19 === 0).slice(0, 1010)
const small = tracked.filter((_, i) => i % 19 === 7).slice(0, 10)
const FILES = big.length + small.length

/** A copy of `rels` as they are now, under `to`, for cp to bring back. */
function copyOut(rels: string[], to: string): void {
  for (const rel of rels) {
    mkdirSync(dirname(join(to, rel)), { recursive: true })
    writeFileSync(join(to, rel), readFileSync(join(where.cwd, rel)))
  }
}
const originals = join(where.base, 'originals')
copyOut([...big, ...small], originals)
const listFile = (name: string, rels: string[]) => {
  const file = join(where.base, name)
  writeFileSync(file, rels.join('\n'))
  return file
}

const s = await openSession(where)
s.prompt('rewrite the big set')
await s.bash(`xargs -a ${listFile('big.txt', big)} sed -i '$a rewritten by the agent'`)
s.reply('rewritten')
s.prompt('rewrite the small set')
await s.bash(`xargs -a ${listFile('small.txt', small)} sed -i '$a rewritten by the agent'`)
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
    const plan = await engine.planRewind(checkpointAt(store, 1), mode)
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
      const plan = await live.engine.planRewind(checkpointAt(live.store, 1), mode)
      if (plan.files.length !== FILES) throw new Error(`planned ${plan.files.length} files`)
      await live.engine.apply(plan)
    }
  },
  { label: 'in the app: open + preview + apply', live: false, run: openPreviewApply },
  {
    label: 'cli rewind, a process (JavaScript built)',
    live: false,
    run: async (mode) => cli(builtCli, ['rewind', sessionFile, '--to', '1', '--mode', mode])
  },
  {
    label: 'cli rewind, a process (bin/rewind-studio.mjs)',
    live: false,
    run: async (mode) =>
      cli(
        [join(repo, 'bin', 'rewind-studio.mjs')],
        ['rewind', sessionFile, '--to', '1', '--mode', mode]
      )
  }
]

const rewritten = join(where.base, 'rewritten')
copyOut([...big, ...small], rewritten)
await s.close()
/** cp of every file the big rewind restores from `from`, into their folders of the workspace. */
const cpAll = (from: string) =>
  execFileSync('cp', ['--parents', ...big, ...small, where.cwd], { cwd: from })
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
      cp.push(await time(() => cpAll(originals)))
      cpAll(rewritten)
    }
  } finally {
    await live?.close()
  }
  return { ours: median(ours), cp: median(cp) }
}

console.log(
  `restore ${FILES} changed files of a ${TREE}-file tree (medians of ${rounds} rounds per line)`
)
for (const mode of onlySmall ? [] : (['both', 'code'] as const)) {
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
// The small rewind: 10 files back to checkpoint 2 by the installed command, beside node -e 0 +
// git checkout of the same files (both settled, from the same state).
writeFileSync(sessionFile, pristineLog)
const smallOurs: number[] = []
const smallGit: number[] = []
for (let round = 0; round < rounds; round++) {
  await settle()
  execFileSync('sync')
  const run = await timedProcess(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF === undefined
        ? []
        : ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]),
      join(repo, 'bin', 'rewind-studio.mjs'),
      'rewind',
      sessionFile,
      '--to',
      '2',
      '--mode',
      'code'
    ],
    { env, cwd: where.cwd }
  )
  smallOurs.push(run.wallMs)
  await undoAtRest()
  execFileSync('sync')
  const node = await timedProcess(process.execPath, ['-e', '0'])
  const checkout = await timedProcess('git', ['checkout', '--', ...small], { cwd: where.cwd })
  smallGit.push(node.wallMs + checkout.wallMs)
  execFileSync('cp', ['--parents', ...small, where.cwd], { cwd: rewritten })
}
console.log(
  `10 files, cli rewind --mode code (bin/rewind-studio.mjs): ${median(smallOurs).toFixed(0)} ms; node -e 0 + git checkout ${median(smallGit).toFixed(0)} ms; ratio ${(median(smallOurs) / median(smallGit)).toFixed(2)} (target <= 2)`
)
rmSync(where.base, { recursive: true, force: true, maxRetries: 5 })
