// What the agent adds to a turn beyond what the turn must do. Scripted turns through the real
// agent (WorkspaceSession: session log, file history, Write and Bash tools; a model that answers
// at once, so only our own work is timed): each turn a prompt, a Write of a new file version, a
// Bash command changing one file, and a closing answer. Beside it, in the same run, the durable
// minimum for the same effects: the same log bytes written in the groups the crash-safety rule
// asks to be durable together (docs/session-format.md), one fdatasync per group, the same file
// written, the same command run. Counts fdatasyncs on both sides. Target: ours <= 2x the minimum.
//   npx tsx bench/agent-turn.ts [turns]
import { execFileSync } from 'node:child_process'
import fs, {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ContentBlock } from '../src/shared/messages'
import type { ModelClient, ModelReply, ModelRequest } from '../src/core/agent/model/model-client'
import { SessionStore } from '../src/core/session/store'
import { WorkspaceSession } from '../src/core/studio/workspace-session'

const TURNS = Number(process.argv[2] ?? 200)

// Every fdatasync in this process is counted (the session log's, and the minimum's).
let syncs = 0
const fdatasyncSync = fs.fdatasyncSync
fs.fdatasyncSync = (fd: number) => {
  syncs++
  fdatasyncSync(fd)
}
syncBuiltinESMExports()

const base = mkdtempSync(join(tmpdir(), 'rs-bench-agent-'))
const cwd = join(base, 'ws')
const home = join(base, 'home')
mkdirSync(join(cwd, 'src'), { recursive: true })
for (let i = 0; i < 50; i++)
  writeFileSync(join(cwd, 'src', `m${i}.ts`), `export const m${i} = ${i}\n`)

const source = (turn: number) =>
  Array.from(
    { length: 60 },
    (_, i) => `export const value${i} = ${i === turn % 60 ? `turn${turn}` : i}`
  ).join('\n')
const command = (turn: number) => `echo "turn ${turn}" >> log.txt`

/** Answers at once: a Write, then a Bash command, then a closing text, for the prompt "turn N". */
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
      model: 'bench'
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
await work.history.prepareForCommands()

interface Turn {
  ms: number
  syncs: number
  /** The turn's log lines, and whether each is a file_change. */
  lines: { text: string; fileChange: boolean }[]
}
const ours: Turn[] = []
let logSize = readFileSync(store.file).length
for (let turn = 1; turn <= TURNS; turn++) {
  const syncsBefore = syncs
  const start = process.hrtime.bigint()
  const outcome = await work.agent.send(`turn ${turn}`)
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (outcome.status !== 'completed') throw new Error(`turn ${turn}: ${JSON.stringify(outcome)}`)
  const log = readFileSync(store.file)
  const lines = log
    .subarray(logSize)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((text) => ({ text, fileChange: text.includes('"type":"file_change"') }))
  logSize = log.length
  ours.push({ ms, syncs: syncs - syncsBefore, lines })
}
await work.history.close()
store.close()

/**
 * The minimum for the same turn: its log lines written in the rule's groups (the prompt; each
 * tool's file_change records with what came before them; the rest at the end of the turn), one
 * write + fdatasync per group; the Write's file; the Bash command, spawned from this process.
 */
const minimumDir = join(base, 'minimum')
mkdirSync(minimumDir)
const fd = openSync(join(minimumDir, 'log.jsonl'), 'a')
const minimum: { ms: number; syncs: number }[] = []
for (const [k, turn] of ours.entries()) {
  const syncsBefore = syncs
  const start = process.hrtime.bigint()
  let pending = ''
  const flush = () => {
    if (pending === '') return
    writeSync(fd, pending)
    fs.fdatasyncSync(fd)
    pending = ''
  }
  for (const [i, line] of turn.lines.entries()) {
    pending += `${line.text}\n`
    const endsFileChanges = line.fileChange && turn.lines[i + 1]?.fileChange !== true
    if (i === 0 || endsFileChanges) flush()
    if (i === 0) writeFileSync(join(minimumDir, 'hot.ts'), source(k + 1))
    if (endsFileChanges && line.text.includes('"source":"Write"')) {
      execFileSync('sh', ['-c', command(k + 1)], { cwd: minimumDir })
    }
  }
  flush()
  minimum.push({ ms: Number(process.hrtime.bigint() - start) / 1e6, syncs: syncs - syncsBefore })
}
closeSync(fd)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const stats = (from: number, to: number) => {
  const o = ours.slice(from, to)
  const m = minimum.slice(from, to)
  const [oursMs, minMs] = [median(o.map((t) => t.ms)), median(m.map((t) => t.ms))]
  return `ours ${oursMs.toFixed(1)} ms (${median(o.map((t) => t.syncs))} fdatasyncs, ${median(o.map((t) => t.lines.length))} records), minimum ${minMs.toFixed(1)} ms (${median(m.map((t) => t.syncs))} fdatasyncs), ratio ${(oursMs / minMs).toFixed(2)}`
}
console.log(
  `${TURNS} turns through the real agent (prompt, Write, Bash changing one file, answer), medians per turn:`
)
console.log(`  turns 1-50:   ${stats(0, 50)}`)
console.log(`  last 50:      ${stats(TURNS - 50, TURNS)} (target <= 2)`)
rmSync(base, { recursive: true, force: true })
