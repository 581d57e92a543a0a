// Per-turn cost of detecting what a Bash command changed, on a 20,000-file workspace: file
// history (stat manifest + inotify watcher, hashing only what moved) beside what Cline, Roo and
// OpenCode do, `git add -A && git write-tree` in a shadow repository (GIT_DIR in a temp folder,
// GIT_WORK_TREE the workspace; no .git is created in the workspace). Same commands, same run.
//   npx tsx bench/files-bash-scan.ts
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileHistory } from '../src/core/files/file-history'
import { IgnoreRules } from '../src/core/files/ignore-rules'
import { scanTree } from '../src/core/files/workspace-scan'
import { SessionStore } from '../src/core/session/store'

const DIRS = 1000
const PER_DIR = 20
const TURNS = 10

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
const base = mkdtempSync(join(tmpdir(), 'rs-bench-scan-'))
const cwd = join(base, 'ws')
const home = join(base, 'home')
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const gitEnv = { ...process.env, GIT_DIR: join(base, 'shadow.git'), GIT_WORK_TREE: cwd }
const git = (script: string) => execFileSync('sh', ['-c', script], { cwd, env: gitEnv })

const store = SessionStore.create({ home, cwd })
// Appending the records (one fdatasync each, the session store's durability) is timed apart.
let appendMs = 0
const log = {
  appendFileChanges: (changes: Parameters<SessionStore['appendFileChanges']>[0]) => {
    const t = process.hrtime.bigint()
    store.appendFileChanges(changes)
    appendMs += ms(t)
  }
}
const history = await FileHistory.open({ home, cwd, sessionId: store.sessionId, log })
history.beginCheckpoint(store.appendMessage({ role: 'user', content: 'bench' }).uuid)

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
  appendMs = 0
  const t0 = process.hrtime.bigint()
  await history.beforeCommand('Bash')
  const before = ms(t0)
  execFileSync('sh', ['-c', command], { cwd })
  const t1 = process.hrtime.bigint()
  const changes = await history.afterCommand('Bash')
  ours.push(before + ms(t1) - appendMs)
  appends.push(appendMs)
  const seen = changes.created.length + changes.modified.length + changes.deleted.length
  if (seen !== 6) throw new Error(`expected 6 changes, saw ${JSON.stringify(changes)}`)
  const t2 = process.hrtime.bigint()
  git('git add -A && git write-tree')
  shadow.push(ms(t2))
}
await history.close()
store.close()
// What a turn costs when the watcher loses track (overflow, error): a full re-stat.
start = process.hrtime.bigint()
await scanTree(cwd, new IgnoreRules(cwd))
const fallback = ms(start)

const files = DIRS * PER_DIR
console.log(
  `workspace: ${files} tracked files (+2,000 ignored), ${TURNS} turns of sed -i, mkdir+new file, rm, mv`
)
console.log(
  `first checkpoint (baseline: stat + hash + back up every file): ${oursFirst.toFixed(0)} ms`
)
console.log(
  `  shadow git first add -A && write-tree:                     ${gitFirst.toFixed(0)} ms`
)
const [detect, append, git1] = [median(ours), median(appends), median(shadow)]
console.log(
  `per turn, file history detection + backups (before + after the command): ${detect.toFixed(1)} ms (median)`
)
console.log(
  `  + appending its 6 file_change records to the session log (fdatasync each): ${append.toFixed(1)} ms`
)
console.log(`per turn, shadow git add -A && write-tree: ${git1.toFixed(1)} ms (median)`)
console.log(
  `ratio per turn: ${(detect / git1).toFixed(3)} detection only, ${((detect + append) / git1).toFixed(3)} with the records`
)
console.log(
  `fallback when the watcher loses track (full re-stat, no hashing): ${fallback.toFixed(0)} ms, ratio ${(fallback / git1).toFixed(2)}`
)
