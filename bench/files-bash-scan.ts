// Bash change detection and the first checkpoint, beside what Cline, Roo and OpenCode do: a shadow
// git repository (GIT_DIR in a temp folder, GIT_WORK_TREE the workspace; no .git is made in the
// workspace). Same workspace, same commands, same run. Two workspaces of 20,000 tracked files:
//
// - varied: real source (bench/support/varied-source.ts: this repository's node_modules text
//   files cut into pieces, ~100 MB). The first checkpoint (every file stat'ed, hashed and backed
//   up) in a process of its own, with its peak memory, against `git init && git add -A && git
//   commit`; then a command changing 1,000 paths (files edited across the tree, new nested
//   folders, folders removed) against `git add -A && git write-tree`. Both sides timed alike:
//   ours with the file_change records appended (what a turn pays), git's also without the
//   starting of its three processes (sh and two gits: `sh -c 'git --version && git --version'`
//   measured beside it), as ours starts none.
//   Targets: first checkpoint <= 1x git (goal 0.3x), peak memory <= 300 MB; 1,000 changes <= 0.2x.
// - uniform: 20,000 near-identical generated files (the earlier case, kept for comparison): the
//   first checkpoint, per-turn detection of a command changing 6 paths, and the full re-stat a
//   turn costs when the watcher loses track.
//
//   npx tsx bench/files-bash-scan.ts [varied|uniform]   (both by default)
// With BENCH_CPU_PROF=DIR, the varied case's detection rounds (ours, in this process) are profiled
// into DIR/changed-paths-N.cpuprofile, two per round: before the command, after it (node:inspector).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileHistory } from '../src/core/files/file-history'
import { IgnoreRules } from '../src/core/files/ignore-rules'
import { scanTree } from '../src/core/files/workspace-scan'
import { SessionStore } from '../src/core/session/store'
import { writeVariedSource } from './support/varied-source'

const FILES = 20_000
const CHANGED = 1000
const ROUNDS = 3
const only = process.argv[2]

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const base = mkdtempSync(join(tmpdir(), 'rs-bench-scan-'))

function shadowGit(cwd: string, name: string) {
  // No automatic gc: git would pack in the background after a command, loading the machine
  // while the next figure is taken (and still writing when the bench removes its folder).
  const env = {
    ...process.env,
    GIT_DIR: join(base, name),
    GIT_WORK_TREE: cwd,
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'gc.auto',
    GIT_CONFIG_VALUE_0: '0'
  }
  return (script: string) => execFileSync('sh', ['-c', script], { cwd, env, stdio: 'pipe' })
}

/** A session whose record appends (one fdatasync each batch) are timed apart from detection. */
async function openTimedSession(cwd: string, home: string) {
  const store = SessionStore.create({ home, cwd })
  const timing = { appendMs: 0 }
  const log = {
    appendFileChanges: (changes: Parameters<SessionStore['appendFileChanges']>[0]) => {
      const t = process.hrtime.bigint()
      store.appendFileChanges(changes)
      timing.appendMs += ms(t)
    }
  }
  const history = await FileHistory.open({ home, cwd, sessionId: store.sessionId, log })
  history.beginCheckpoint(store.appendMessage({ role: 'user', content: 'bench' }).uuid)
  return {
    history,
    timing,
    close: async () => {
      await history.close()
      store.close()
    }
  }
}

/** Every file under `dir`, workspace-relative, by folder. */
function filesByFolder(cwd: string): Map<string, string[]> {
  const byFolder = new Map<string, string[]>()
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(cwd, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else byFolder.set(rel, [...(byFolder.get(rel) ?? []), path])
    }
  }
  walk('')
  return byFolder
}

/** How many detection profiles were written (BENCH_CPU_PROF). */
let profiled = 0
async function detectionProfiler(): Promise<Session | null> {
  if (process.env.BENCH_CPU_PROF === undefined) return null
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 200 })
  return session
}
function keepProfile({ profile }: { profile: unknown }): void {
  const dir = process.env.BENCH_CPU_PROF as string
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `changed-paths-${++profiled}.cpuprofile`), JSON.stringify(profile))
}

async function varied(): Promise<void> {
  const cwd = join(base, 'varied')
  const home = join(base, 'home-varied')
  const { files, bytes } = writeVariedSource(cwd, FILES)
  console.log(
    `varied workspace: ${files} files of real source, ${(bytes / 1e6).toFixed(1)} MB (node_modules text files in pieces)`
  )
  execFileSync('sync')
  const child = execFileSync(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'support', 'first-checkpoint.ts'), home, cwd],
    { encoding: 'utf8' }
  )
  const first = JSON.parse(child) as { ms: number; peakRssMb: number; startRssMb: number }
  execFileSync('sync')
  const git = shadowGit(cwd, 'shadow-varied.git')
  let start = process.hrtime.bigint()
  git('git init -q && git add -A && git -c user.name=b -c user.email=b@b commit -q -m first')
  const gitFirst = ms(start)
  console.log(
    `first checkpoint, a process of its own: ${first.ms.toFixed(0)} ms, peak memory ${first.peakRssMb.toFixed(0)} MB (${first.startRssMb.toFixed(0)} MB before it began)`
  )
  console.log(`  shadow git init && add -A && commit: ${gitFirst.toFixed(0)} ms`)
  console.log(
    `  ratio ${(first.ms / gitFirst).toFixed(2)} (target <= 1, goal 0.3); peak memory target <= 300 MB`
  )

  // 1,000 changed paths per command: edits spread over the tree, new nested folders, folders removed.
  const session = await openTimedSession(cwd, home)
  await session.history.prepareForCommands()
  const profiler = await detectionProfiler()
  const byFolder = [...filesByFolder(cwd).entries()].filter(([dir]) => dir !== '')
  const ours: number[] = []
  const appends: number[] = []
  const shadow: number[] = []
  const starts: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    // Folders removed whole (ones with no folder inside), from a different part of the tree each round.
    const leaves = byFolder.filter(
      ([dir]) => !byFolder.some(([other]) => other.startsWith(`${dir}/`))
    )
    const removed: string[] = []
    let deleted = 0
    for (let step = 0; deleted < 50; step++) {
      if (step === leaves.length) throw new Error('too few folders to remove')
      const [dir, inside] = leaves[(round * 97 + step) % leaves.length] ?? ['', []]
      removed.push(dir)
      deleted += inside.length
    }
    const created = 50
    const gone = new Set(removed)
    const candidates = byFolder
      .filter(([dir]) => ![...gone].some((r) => dir === r || dir.startsWith(`${r}/`)))
      .flatMap(([, inside]) => inside)
    const edited = Array.from(
      { length: CHANGED - deleted - created },
      (_, i) => candidates[(round * 7919 + i * 17) % candidates.length] ?? ''
    )
    if (new Set(edited).size !== edited.length) throw new Error('an edited file was picked twice')
    writeFileSync(join(base, 'edited'), edited.join('\n'))
    writeFileSync(join(base, 'removed'), removed.join('\n'))
    const command = [
      `xargs -d '\\n' -a ${join(base, 'edited')} sed -i '1s|^|// round ${round}\\n|'`,
      `xargs -d '\\n' -a ${join(base, 'removed')} rm -r`,
      ...Array.from({ length: 10 }, (_, d) => {
        const dir = `new/r${round}/d${d}/deeper`
        return `mkdir -p ${dir} && for f in 1 2 3 4 5; do echo "export const f$f = ${d}" > ${dir}/f$f.ts; done`
      })
    ].join(' && ')
    session.timing.appendMs = 0
    await profiler?.post('Profiler.start')
    const t0 = process.hrtime.bigint()
    await session.history.beforeCommand('Bash')
    const before = ms(t0)
    await profiler?.post('Profiler.stop').then(keepProfile)
    execFileSync('sh', ['-c', command], { cwd })
    await profiler?.post('Profiler.start')
    const t1 = process.hrtime.bigint()
    const changes = await session.history.afterCommand('Bash')
    ours.push(before + ms(t1) - session.timing.appendMs)
    await profiler?.post('Profiler.stop').then(keepProfile)
    appends.push(session.timing.appendMs)
    const seen = changes.created.length + changes.modified.length + changes.deleted.length
    if (seen !== CHANGED) throw new Error(`expected ${CHANGED} changes, saw ${seen}`)
    start = process.hrtime.bigint()
    git('git add -A && git write-tree')
    shadow.push(ms(start))
    start = process.hrtime.bigint()
    git('git --version && git --version')
    starts.push(ms(start))
    // The next round picks from what is there now.
    byFolder.splice(
      0,
      byFolder.length,
      ...[...filesByFolder(cwd).entries()].filter(([d]) => d !== '')
    )
  }
  await session.close()
  profiler?.disconnect()
  const [detect, append, git1, start1] = [
    median(ours),
    median(appends),
    median(shadow),
    median(starts)
  ]
  const withRecords = detect + append
  console.log(
    `a command changing ${CHANGED} paths (edits, 10 new nested folders, removed folders), medians of ${ROUNDS}:`
  )
  console.log(
    `  file history detection + backups + its ${CHANGED} file_change records: ${withRecords.toFixed(0)} ms (records ${append.toFixed(0)} ms)`
  )
  console.log(
    `  shadow git add -A && write-tree: ${git1.toFixed(0)} ms; its process starts ${start1.toFixed(0)} ms; git's work ${(git1 - start1).toFixed(0)} ms`
  )
  console.log(
    `  ratio ${(withRecords / git1).toFixed(3)} against git's commands, ${(withRecords / (git1 - start1)).toFixed(3)} against git's work without its process starts (target <= 0.2); detection alone ${(detect / git1).toFixed(3)}`
  )
}

async function uniform(): Promise<void> {
  const DIRS = 1000
  const PER_DIR = 20
  const TURNS = 10
  const cwd = join(base, 'uniform')
  const home = join(base, 'home-uniform')
  for (let d = 0; d < DIRS; d++) {
    const dir = join(cwd, `pkg${d % 50}`, `mod${d}`)
    mkdirSync(dir, { recursive: true })
    for (let f = 0; f < PER_DIR; f++) {
      writeFileSync(
        join(dir, `file${f}.ts`),
        `export const v${f} = ${d}\n${'// filler\n'.repeat(150)}`
      )
    }
  }
  // Ignored bulk, as a real workspace has: neither side should pay for it.
  writeFileSync(join(cwd, '.gitignore'), 'node_modules/\n')
  mkdirSync(join(cwd, 'node_modules', 'dep'), { recursive: true })
  for (let f = 0; f < 2000; f++) writeFileSync(join(cwd, 'node_modules', 'dep', `m${f}.js`), 'x')
  const git = shadowGit(cwd, 'shadow-uniform.git')

  const session = await openTimedSession(cwd, home)
  const { history, timing } = session
  let start = process.hrtime.bigint()
  await history.beforeCommand('Bash')
  await history.afterCommand('Bash')
  const oursFirst = ms(start)
  git('git init -q')
  start = process.hrtime.bigint()
  git('git add -A && git write-tree')
  const gitFirst = ms(start)

  const ours: number[] = []
  const appends: number[] = []
  const shadow: number[] = []
  for (let turn = 0; turn < TURNS; turn++) {
    const command = [
      `sed -i 's/filler/changed ${turn}/' pkg${turn}/mod${turn}/file1.ts pkg${turn}/mod${turn}/file2.ts`,
      `mkdir -p pkg${turn}/new${turn} && echo new > pkg${turn}/new${turn}/created.ts`,
      `rm pkg${turn}/mod${turn}/file3.ts`,
      `mv pkg${turn}/mod${turn}/file4.ts pkg${turn}/mod${turn}/renamed.ts`
    ].join(' && ')
    timing.appendMs = 0
    const t0 = process.hrtime.bigint()
    await history.beforeCommand('Bash')
    const before = ms(t0)
    execFileSync('sh', ['-c', command], { cwd })
    const t1 = process.hrtime.bigint()
    const changes = await history.afterCommand('Bash')
    ours.push(before + ms(t1) - timing.appendMs)
    appends.push(timing.appendMs)
    const seen = changes.created.length + changes.modified.length + changes.deleted.length
    if (seen !== 6) throw new Error(`expected 6 changes, saw ${JSON.stringify(changes)}`)
    const t2 = process.hrtime.bigint()
    git('git add -A && git write-tree')
    shadow.push(ms(t2))
  }
  await session.close()
  // What a turn costs when the watcher loses track (overflow, error): a full re-stat.
  start = process.hrtime.bigint()
  await scanTree(cwd, new IgnoreRules(cwd))
  const fallback = ms(start)

  console.log(
    `uniform workspace: ${DIRS * PER_DIR} near-identical tracked files (+2,000 ignored), ${TURNS} turns of sed -i, mkdir+new file, rm, mv`
  )
  console.log(`  first checkpoint, in the session's process: ${oursFirst.toFixed(0)} ms`)
  console.log(`  shadow git first add -A && write-tree:      ${gitFirst.toFixed(0)} ms`)
  const [detect, append, git1] = [median(ours), median(appends), median(shadow)]
  console.log(
    `  per turn, file history detection + backups: ${detect.toFixed(1)} ms (median), + ${append.toFixed(1)} ms appending its 6 file_change records`
  )
  console.log(`  per turn, shadow git add -A && write-tree: ${git1.toFixed(1)} ms (median)`)
  console.log(
    `  ratio per turn: ${(detect / git1).toFixed(3)} detection only, ${((detect + append) / git1).toFixed(3)} with the records`
  )
  console.log(
    `  fallback when the watcher loses track (full re-stat, no hashing): ${fallback.toFixed(0)} ms, ratio ${(fallback / git1).toFixed(2)}`
  )
}

if (only !== 'uniform') await varied()
if (only !== 'varied') await uniform()
rmSync(base, { recursive: true, force: true })
