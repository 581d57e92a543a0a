// What the agent adds to a turn beyond what the turn must do. Scripted turns through the real
// agent (WorkspaceSession: session log, file history, Write and Bash tools; a model that answers
// at once, so only our own work is timed): each turn a prompt, a Write of a new file version, a
// Bash command changing one file, and a closing answer. Beside each turn, in the same run, the
// durable minimum for the same effects: the same log bytes written in the groups the crash-safety
// rule asks to be durable together (docs/session-format.md), one fdatasync per group, the file
// replaced as the Write tool promises (temp file, fsync, rename: old or new after a crash), the
// same command run by bash, as the Bash tool runs it. Also the minimum as this bench first
// defined it (the command run by sh, the file written in place without fsync), for comparison
// with earlier figures. Ours and the minimums alternate turn by turn, so a load that comes and
// goes weighs on both. Counts fdatasyncs and fsyncs on every side. The spare files our backups are
// written into (spare-files.ts) are made again between turns, outside both timings, as they are
// while the agent waits for a model. Target: ours <= 2x the minimum. With `ignored`, the
// workspace also holds what git ignores, as a built project does: build/ (10,000 files in 100
// folders), node_modules/ (5,000 files), .env and app.log; the session's first scan (its
// baseline, timed apart) then walks and backs up ignored files within the budget (setting
// ignoredFiles), and the turns run beside that bulk. The workspace is a git repository with a
// commit, as a user's is: each turn reads HEAD before and after (the commits of a turn,
// share/commit-links.ts).
//   npx tsx bench/agent-turn.ts [turns] [ignored]
import { execFileSync } from 'node:child_process'
import fs, {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ContentBlock } from '../src/shared/messages'
import type { ModelClient, ModelReply, ModelRequest } from '../src/core/agent/model/model-client'
import { SessionStore } from '../src/core/session/store'
import { WorkspaceSession } from '../src/core/workspace/workspace-session'

const TURNS = Number(process.argv[2] ?? 200)
const IGNORED = process.argv[3] === 'ignored'

// Every fdatasync and fsync in this process is counted (the session log's, the Write's, the
// minimums').
const syncs = { fdatasync: 0, fsync: 0 }
const { fdatasyncSync, fsyncSync } = fs
fs.fdatasyncSync = (fd: number) => {
  syncs.fdatasync++
  fdatasyncSync(fd)
}
fs.fsyncSync = (fd: number) => {
  syncs.fsync++
  fsyncSync(fd)
}
syncBuiltinESMExports()
const syncCount = () => ({ ...syncs })
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}
const syncsSince = (before: typeof syncs) => ({
  fdatasync: syncs.fdatasync - before.fdatasync,
  fsync: syncs.fsync - before.fsync
})

const base = mkdtempSync(join(tmpdir(), 'rs-bench-agent-'))
const cwd = join(base, 'ws')
const home = join(base, 'home')
mkdirSync(join(cwd, 'src'), { recursive: true })
for (let i = 0; i < 50; i++)
  writeFileSync(join(cwd, 'src', `m${i}.ts`), `export const m${i} = ${i}\n`)
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com'
}
if (IGNORED) {
  writeFileSync(join(cwd, '.gitignore'), 'build/\nnode_modules/\n*.log\n.env\n')
  writeFileSync(join(cwd, '.env'), 'TOKEN=local\n')
  writeFileSync(join(cwd, 'app.log'), 'started\n'.repeat(100))
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(cwd, 'build', `out${d}`), { recursive: true })
    for (let f = 0; f < 100; f++) {
      writeFileSync(join(cwd, 'build', `out${d}`, `o${f}.js`), `// built ${d}/${f}\n`.repeat(60))
    }
  }
  for (let p = 0; p < 50; p++) {
    mkdirSync(join(cwd, 'node_modules', `dep${p}`), { recursive: true })
    for (let f = 0; f < 100; f++) {
      writeFileSync(join(cwd, 'node_modules', `dep${p}`, `m${f}.js`), `module.exports = ${f}\n`)
    }
  }
}

execFileSync('sh', ['-c', 'git init -q && git add -A && git commit -qm start'], {
  cwd,
  env: gitEnv
})

const source = (turn: number) =>
  Array.from(
    { length: 60 },
    (_, i) => `export const value${i} = ${i === turn % 60 ? `turn${turn}` : i}`
  ).join('\n')
const command = (turn: number) => `echo "turn ${turn}" >> log.txt`

/** Answers at once, with its usage: a Write, then a Bash command, then a closing text, for "turn N". */
const model: ModelClient = {
  id: 'bench',
  async complete(request: ModelRequest): Promise<ModelReply> {
    const turn = Number(request.script.prompt?.replace('turn ', '') ?? 0)
    const replies: ContentBlock[][] = [
      [
        {
          type: 'tool_use',
          id: `w${turn}`,
          name: 'Write',
          input: { file_path: 'src/hot.ts', content: source(turn) }
        }
      ],
      [{ type: 'tool_use', id: `b${turn}`, name: 'Bash', input: { command: command(turn) } }],
      [{ type: 'text', text: `Turn ${turn} done.` }]
    ]
    const content = replies[request.script.answered] ?? [{ type: 'text', text: 'done' }]
    return {
      content,
      stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      model: 'bench',
      // As the API's every reply does (the context meter then counts from it, not estimating).
      usage: { input_tokens: 2_000 + 300 * turn, output_tokens: 40 }
    }
  }
}

const store = SessionStore.create({ home, cwd })
const work = await WorkspaceSession.open({
  home,
  store,
  model,
  permissionMode: 'bypassPermissions',
  checkpointTools: false,
  bashSandbox: false,
  askPermission: async () => true,
  onEvent: () => undefined
})
const baselineStart = process.hrtime.bigint()
await work.history.prepareForCommands()
const baselineMs = Number(process.hrtime.bigint() - baselineStart) / 1e6

interface Turn {
  ms: number
  /** CPU time of this process (user + system, every thread), ms: less swayed by load than ms. */
  cpu: number
  syncs: typeof syncs
  /** The turn's log lines, and whether each is a file_change. */
  lines: { text: string; fileChange: boolean }[]
}

/**
 * A minimum for one turn: its log lines written in the rule's groups (the prompt; each tool's
 * file_change records with what came before them; the rest at the end of the turn), one write +
 * fdatasync per group; the Write's file; the Bash command, spawned from this process; before
 * each file_change group, the changed file's new content backed up (durable minimum only).
 */
class Minimum {
  readonly turns: Omit<Turn, 'lines'>[] = []
  private readonly fd: number
  /** Backup files made beforehand, as ours makes its spare files between turns. */
  private spares: string[] = []
  private backups = 0

  constructor(
    private readonly dir: string,
    private readonly shell: 'bash' | 'sh',
    private readonly durableReplace: boolean
  ) {
    mkdirSync(dir)
    this.fd = openSync(join(dir, 'log.jsonl'), 'a')
  }

  run(turn: number, lines: Turn['lines']): void {
    const syncsBefore = syncCount()
    const cpuBefore = process.cpuUsage()
    const start = process.hrtime.bigint()
    let pending = ''
    const flush = () => {
      if (pending === '') return
      writeSync(this.fd, pending)
      fs.fdatasyncSync(this.fd)
      pending = ''
    }
    for (const [i, line] of lines.entries()) {
      pending += `${line.text}\n`
      const endsFileChanges = line.fileChange && lines[i + 1]?.fileChange !== true
      const byWrite = line.text.includes('"source":"Write"')
      if (endsFileChanges && this.durableReplace) {
        // Before the records that name it: the backup is durable before the log says it exists.
        const changed = byWrite ? source(turn) : readFileSync(join(this.dir, 'log.txt'))
        this.backUp(changed)
      }
      if (i === 0 || endsFileChanges) flush()
      if (i === 0) this.writeFile(source(turn))
      if (endsFileChanges && byWrite) {
        execFileSync(this.shell, ['-c', command(turn)], { cwd: this.dir })
      }
    }
    flush()
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    this.turns.push({ ms, cpu: cpuMs(cpuBefore), syncs: syncsSince(syncsBefore) })
  }

  /** Makes the files the next turn's backups are written into (outside the timings). */
  makeSpares(): void {
    while (this.spares.length < 2) {
      const spare = join(this.dir, `spare-${this.backups + this.spares.length}`)
      writeFileSync(spare, '')
      this.spares.push(spare)
    }
  }

  close(): void {
    closeSync(this.fd)
  }

  private backUp(content: string | Buffer): void {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content
    const spare = this.spares.shift() ?? join(this.dir, `spare-${this.backups}`)
    const fd = openSync(spare, 'w')
    writeSync(fd, bytes)
    fs.fdatasyncSync(fd)
    closeSync(fd)
    renameSync(spare, join(this.dir, `backup-${this.backups++}`))
  }

  private writeFile(content: string): void {
    const target = join(this.dir, 'hot.ts')
    if (!this.durableReplace) {
      writeFileSync(target, content)
      return
    }
    const temp = `${target}.tmp`
    const fd = openSync(temp, 'w')
    writeSync(fd, content)
    fs.fsyncSync(fd)
    closeSync(fd)
    renameSync(temp, target)
  }
}

const minimum = new Minimum(join(base, 'minimum'), 'bash', true)
const firstMinimum = new Minimum(join(base, 'first-minimum'), 'sh', false)
const ours: Turn[] = []
let logSize = readFileSync(store.file).length
for (let turn = 1; turn <= TURNS; turn++) {
  const syncsBefore = syncCount()
  const cpuBefore = process.cpuUsage()
  const start = process.hrtime.bigint()
  const outcome = await work.agent.send(`turn ${turn}`)
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  const cpu = cpuMs(cpuBefore)
  if (outcome.status !== 'completed') throw new Error(`turn ${turn}: ${JSON.stringify(outcome)}`)
  const log = readFileSync(store.file)
  const lines = log
    .subarray(logSize)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((text) => ({ text, fileChange: text.includes('"type":"file_change"') }))
  logSize = log.length
  ours.push({ ms, cpu, syncs: syncsSince(syncsBefore), lines })
  // The spare files the turn's backups used are made again while the agent waits for the next
  // reply (a model takes far longer than the ~0.3 ms a file): here, between the timings.
  await work.history.blobs.keepSpareFiles()
  minimum.makeSpares()
  minimum.run(turn, lines)
  firstMinimum.run(turn, lines)
}
await work.history.close()
store.close()
minimum.close()
firstMinimum.close()

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const syncText = (turns: { syncs: typeof syncs }[]) =>
  `${median(turns.map((t) => t.syncs.fdatasync))} fdatasyncs + ${median(turns.map((t) => t.syncs.fsync))} fsync`
const stats = (from: number, to: number) => {
  const o = ours.slice(from, to)
  const m = minimum.turns.slice(from, to)
  const f = firstMinimum.turns.slice(from, to)
  const [oursMs, minMs, firstMs] = [o, m, f].map((turns) => median(turns.map((t) => t.ms)))
  const [oursCpu, minCpu, firstCpu] = [o, m, f].map((turns) => median(turns.map((t) => t.cpu)))
  const ratio = (a = NaN, b = NaN) => (a / b).toFixed(2)
  return [
    `ours ${oursMs?.toFixed(1)} ms (${syncText(o)}, ${median(o.map((t) => t.lines.length))} records), minimum ${minMs?.toFixed(1)} ms (${syncText(m)}), ratio ${ratio(oursMs, minMs)}`,
    `CPU: ours ${oursCpu?.toFixed(1)} ms, minimum ${minCpu?.toFixed(1)} ms, ratio ${ratio(oursCpu, minCpu)}`,
    `minimum as first defined (sh, file written in place) ${firstMs?.toFixed(1)} ms (${syncText(f)}, CPU ${firstCpu?.toFixed(1)} ms), ratio ${ratio(oursMs, firstMs)}`
  ].join('\n                ')
}
console.log(
  `${TURNS} turns through the real agent (prompt, Write, Bash changing one file, answer), medians per turn (load ${loadavg()[0]?.toFixed(1)} at the end):`
)
console.log(
  `  the session's first scan${IGNORED ? ' (beside build/, node_modules/, .env, app.log)' : ''}: ${baselineMs.toFixed(0)} ms`
)
console.log(`  turns 1-50:   ${stats(0, 50)}`)
console.log(`  last 50:      ${stats(TURNS - 50, TURNS)} (target <= 2)`)
rmSync(base, { recursive: true, force: true })
