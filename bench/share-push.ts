// `share push` of a long session beside `git push` of the same objects made by hand (issue 32's
// target: a 500-turn session with 2,000 backups at most 2x; a second push after 10 more turns
// sends only what is new, its bytes reported).
//
// The session: 500 turns, each writing 4 files of real source (bench/support/varied-source.ts):
// turns 1-250 create 1,000 files, turns 251-500 change each once, so its records name 2,000
// backups. Ours: pushSession (read the log, mask, hash, write the missing objects with
// fast-import, the trees, two commits, our refs, push), each run into a fresh repository and a
// fresh bare remote, so every run writes and sends everything; and the same as a `share push`
// process. Baseline, in the same run: the very same tree (taken out of our commit with `git
// archive`) added and committed by hand in a repository of its own (`git add -A && git
// commit`), then only its `git push` to a fresh bare remote is timed (and again after `git
// repack -a -d`, the objects packed as ours are). Then 10 more turns: our second push and the
// baseline's second push (the new tree added, committed, pushed), with the bytes git says each
// sent.
//   npx tsx bench/share-push.ts [runs]   (default 3)
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pushReport } from '../src/core/share/git'
import { pushSession } from '../src/core/share/push'
import { repoRoot } from '../test/support/cli'
import { writeTurns } from '../test/support/git-machines'
import { writeVariedSource } from './support/varied-source'

const runs = Number(process.argv[2] ?? 3)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const ms = (n: number) => `${n.toFixed(0)} ms`
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`

const base = mkdtempSync(join(tmpdir(), 'rs-bench-share-'))
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com'
}
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, maxBuffer: 1 << 30 }).toString()

/** A fresh, empty bare repository `<name>.git`. */
function freshRemote(name: string): string {
  const remote = join(base, `${name}.git`)
  rmSync(remote, { recursive: true, force: true })
  git(base, 'init', '-q', '--bare', remote)
  return remote
}

/** A fresh repository at `dir` whose `origin` is a fresh bare remote `name`. */
function freshRepo(dir: string, name: string): void {
  rmSync(join(dir, '.git'), { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  git(dir, 'init', '-q')
  git(dir, 'remote', 'add', 'origin', freshRemote(name))
}

// The session's files: real source, 1,000 of them.
const source = join(base, 'source')
writeVariedSource(source, 1000)
const sources = execFileSync('find', [source, '-type', 'f'], { maxBuffer: 1 << 26 })
  .toString()
  .trim()
  .split('\n')
  .sort()
  .map((file) => readFileSync(file, 'utf8'))
const contentOf = (path: string, turn: number) => {
  // Each file its own content (a few pieces of the source are alike), then one edit in the
  // second half of the session: a line added in the middle.
  const text = `// ${path}\n${sources[Number(/(\d+)\.py$/.exec(path)?.[1] ?? 0) % sources.length] ?? ''}`
  if (turn <= 250) return text
  const half = text.indexOf('\n', text.length >> 1)
  return `${text.slice(0, half + 1)}// edited in turn ${turn}\n${text.slice(half + 1)}`
}

const workspace = join(base, 'ws')
mkdirSync(workspace)
const home = join(base, 'home')
const started = performance.now()
const session = writeTurns({
  home,
  cwd: workspace,
  turns: 500,
  filesPerTurn: 4,
  files: 1000,
  content: contentOf
})
console.log(
  `session: 500 turns, ${session.contents.at(-1)?.size} files, written in ${ms(performance.now() - started)}`
)
const request = { home, file: session.file, workspace, scope: { kind: 'all' as const } }

const ours: number[] = []
const oursCli: number[] = []
const loose: number[] = []
const packed: number[] = []
let first: Awaited<ReturnType<typeof pushSession>> | null = null
for (let run = 0; run < runs; run++) {
  freshRepo(workspace, 'remote')
  let t = performance.now()
  first = await pushSession(request)
  ours.push(performance.now() - t)

  // The baseline: the same tree, made by hand in a repository of its own.
  const hand = join(base, 'hand')
  rmSync(hand, { recursive: true, force: true })
  freshRepo(hand, 'hand-remote')
  execFileSync('sh', ['-c', `git -C '${workspace}' archive ${first.commit} | tar -x -C '${hand}'`])
  git(hand, 'add', '-A')
  git(hand, 'commit', '-qm', 'by hand')
  const handTree = git(hand, 'rev-parse', 'HEAD^{tree}').trim()
  const ourTree = git(workspace, 'rev-parse', `${first.commit}^{tree}`).trim()
  if (handTree !== ourTree) throw new Error(`the trees differ: ${handTree} ${ourTree}`)
  t = performance.now()
  git(hand, 'push', '-q', 'origin', 'HEAD:refs/heads/by-hand')
  loose.push(performance.now() - t)
  freshRemote('hand-remote')
  git(hand, 'repack', '-a', '-d', '-q')
  t = performance.now()
  git(hand, 'push', '-q', 'origin', 'HEAD:refs/heads/by-hand')
  packed.push(performance.now() - t)
  freshRepo(workspace, 'remote')
  t = performance.now()
  const cli = spawnSync(
    process.execPath,
    [join(repoRoot, 'bin/rewind-studio.mjs'), 'share', 'push', session.file],
    {
      env: { ...env, REWIND_STUDIO_HOME: home }
    }
  )
  oursCli.push(performance.now() - t)
  if (cli.status !== 0) throw new Error(cli.stderr.toString())
}
if (first === null) throw new Error('no run')
console.log(
  `first push: ${first.backups} backups, ${first.records} records, ${(first.bytes / 1e6).toFixed(1)} MB; git sent ${first.sent.objects} objects, ${kib(first.sent.bytes)}`
)
console.log(`  ours (pushSession):          ${ms(median(ours))}   runs ${ours.map(ms).join(', ')}`)
console.log(
  `  ours (share push, a process): ${ms(median(oursCli))}   runs ${oursCli.map(ms).join(', ')}`
)
console.log(
  `  baseline git push, objects loose:  ${ms(median(loose))}   runs ${loose.map(ms).join(', ')}`
)
console.log(
  `  baseline git push, objects packed: ${ms(median(packed))}   runs ${packed.map(ms).join(', ')}`
)
console.log(
  `  ratio: ${(median(ours) / median(loose)).toFixed(2)} (${(median(oursCli) / median(loose)).toFixed(2)} as a process) against loose; ${(median(ours) / median(packed)).toFixed(2)} (${(median(oursCli) / median(packed)).toFixed(2)}) against packed; target <= 2`
)

// Ten more turns, the second push of each.
writeTurns({
  home,
  cwd: workspace,
  turns: 10,
  filesPerTurn: 4,
  files: 1000,
  content: contentOf,
  resume: { file: session.file, from: session }
})
let t = performance.now()
const second = await pushSession(request)
const secondMs = performance.now() - t
const hand = join(base, 'hand')
execFileSync('sh', [
  '-c',
  `rm -rf '${hand}/log' '${hand}/backups' '${hand}/share.json' && git -C '${workspace}' archive ${second.commit} | tar -x -C '${hand}'`
])
git(hand, 'add', '-A')
git(hand, 'commit', '-qm', 'by hand, 10 more turns')
t = performance.now()
const handPush = spawnSync('git', ['push', '--progress', 'origin', 'HEAD:refs/heads/by-hand'], {
  cwd: hand,
  env: { ...env, LC_ALL: 'C' }
})
const handMs = performance.now() - t
const handSent = pushReport(handPush.stderr.toString())
console.log(
  `second push, 10 more turns: ${second.newObjects} new objects (${kib(second.newBytes)} before compression); git sent ${second.sent.objects} objects, ${kib(second.sent.bytes)} (the first sent ${kib(first.sent.bytes)}), in ${ms(secondMs)}`
)
console.log(
  `  baseline git push of the same new objects: ${handSent.objects} objects, ${kib(handSent.bytes)}, in ${ms(handMs)}; ratio ${(secondMs / handMs).toFixed(2)}`
)
rmSync(base, { recursive: true, force: true })
