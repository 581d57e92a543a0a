// Random sequences of agent writes, Bash commands, hand edits, rewinds (to a prompt of any
// branch, each mode), continues from any turn, undos and redos, checked after every step against
// an in-memory model of the workspace and the tree:
//   - moving from one node to another (file-targets.ts): a file changed on the branch left gets
//     the content it had just before the session first changed it there; a file changed on the
//     branch reached gets its content after the session's last change there; nothing else is
//     touched, so every file the session did not change stays as the user left it (a file the
//     user created is never deleted);
//   - a rewind to before prompt N moves the files (both, code) to where they were when that
//     prompt was sent and the leaf (both, conversation) to the node before that prompt on its own
//     branch; a continue moves both to the end of a turn;
//   - a restore is no turn's change: each turn's state is what its own changes made of the files
//     it started from (the turns behind it: file-lineage.ts), so a turn sent after a code-only or
//     conversation-only rewind goes on from the files the rewind left;
//   - undo puts back exactly what its action changed and the leaf where it was, many steps
//     back; redo does the first undone action again; a turn or a new action ends that reach;
//   - a rewind that would change no file and leave the leaf where it is is refused, and leaves
//     no step to undo.
// Hand edits happen between turns (before a prompt, a rewind or an undo); the ones just before a
// rewind, continue, undo or redo go to files the agent never touches, so "as the user left it"
// is unambiguous.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import type { RewindMode } from '../../src/shared/messages'
import { type WorkspaceSession, newSession } from './fixture'

const AGENT_PATHS = ['a', 'b', 'd/e'] as const
const USER_PATHS = ['u', 'd/u'] as const
const ALL_PATHS = [...AGENT_PATHS, ...USER_PATHS]

type Workspace = Map<string, string>
interface Turn {
  /** The turn before it on its branch (-1: it is the first). */
  parent: number
  /** Its prompt's uuid, and its reply's: where the conversation ends after it. */
  prompt: string
  reply: string
  /** The turns whose changes make its files, itself last: those behind the files it started from. */
  lineage: number[]
  /**
   * For each path the session changed during the turn, its content just before the first of
   * those changes, and after the last (null = absent).
   */
  before: Map<string, string | null>
  after: Map<string, string | null>
}
/** A rewind or continue as undo and redo see it. */
interface Move {
  pathBefore: number[]
  pathAfter: number[]
  /** The agent's files before and after it (the user's are never a restore's). */
  wsBefore: Workspace
  wsAfter: Workspace
  /** The lineage of the files' state before and after it. */
  filesBefore: number[]
  filesAfter: number[]
}
interface Model {
  ws: Workspace
  turns: Turn[]
  /** The active path: turn indexes from the first. */
  path: number[]
  /** The lineage of the state the files are in ("files at"). */
  files: number[]
  done: Move[]
  undone: Move[]
}

/** Versions of one long text differing in a line: stored as deltas of each other. */
const long = (line: string) =>
  `${'a line every version shares\n'.repeat(8)}${line}\n${'and more of them\n'.repeat(8)}`
const content = fc.constantFrom('x', 'y', 'xy', 'zz', long('one'), long('two'), long('three'))
const handEdit = (paths: readonly string[]) =>
  fc.record({ path: fc.constantFrom(...paths), text: fc.option(content, { nil: null }) })
type Action =
  | { t: 'write'; path: string; text: string }
  | { t: 'sh-write'; path: string; text: string }
  | { t: 'sh-rm'; path: string }
  | { t: 'sh-mv'; path: string; to: string }

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    t: fc.constant('write' as const),
    path: fc.constantFrom(...AGENT_PATHS),
    text: content
  }),
  fc.record({
    t: fc.constant('sh-write' as const),
    path: fc.constantFrom(...AGENT_PATHS),
    text: content
  }),
  fc.record({ t: fc.constant('sh-rm' as const), path: fc.constantFrom(...AGENT_PATHS) }),
  fc.record({
    t: fc.constant('sh-mv' as const),
    path: fc.constantFrom(...AGENT_PATHS),
    to: fc.constantFrom(...AGENT_PATHS)
  })
)
const userHand = fc.array(handEdit(USER_PATHS), { maxLength: 1 })
const step = fc.oneof(
  fc.record({
    t: fc.constant('turn' as const),
    hand: fc.array(handEdit(ALL_PATHS), { maxLength: 2 }),
    actions: fc.array(action, { minLength: 1, maxLength: 3 })
  }),
  fc.record({
    t: fc.constant('rewind' as const),
    hand: userHand,
    n: fc.nat(),
    mode: fc.constantFrom<RewindMode>('both', 'code', 'conversation')
  }),
  fc.record({ t: fc.constant('continue' as const), hand: userHand, n: fc.nat() }),
  fc.record({ t: fc.constant('undo' as const), hand: userHand }),
  fc.record({ t: fc.constant('redo' as const), hand: userHand })
)

function setFile(ws: Workspace, path: string, text: string | null): void {
  if (text === null) ws.delete(path)
  else ws.set(path, text)
}

/** Applies the agent's change to the model, recording it under the leaf's turn when it changed anything. */
function change(model: Model, path: string, text: string | null): void {
  const current = model.ws.get(path) ?? null
  if (current === text) return
  const turn = model.path.at(-1)
  const record = turn === undefined ? undefined : model.turns[turn]
  if (record !== undefined) {
    if (!record.before.has(path)) record.before.set(path, current)
    record.after.set(path, text)
  }
  setFile(model.ws, path, text)
}

/** The turns from the first to `turn` (none for -1). */
function pathTo(model: Model, turn: number): number[] {
  const path: number[] = []
  for (let at = turn; at >= 0; at = model.turns[at]?.parent ?? -1) path.unshift(at)
  return path
}

/** What each file must hold when the files move from the lineage `from` to `to` (file-targets.ts). */
function targets(model: Model, from: number[], to: number[]): Map<string, string | null> {
  let common = 0
  while (common < from.length && from[common] === to[common]) common++
  const out = new Map<string, string | null>()
  for (const turn of from.slice(common)) {
    for (const [path, text] of model.turns[turn]?.before ?? [])
      if (!out.has(path)) out.set(path, text)
  }
  for (const turn of to.slice(common)) {
    for (const [path, text] of model.turns[turn]?.after ?? []) out.set(path, text)
  }
  return out
}

const agentFiles = (ws: Workspace): Workspace =>
  new Map([...ws].filter(([path]) => (AGENT_PATHS as readonly string[]).includes(path)))

/** The uuid the leaf has with `path` active (null: before the first prompt). */
function leafOf(model: Model, path: number[]): string | null {
  const last = path.at(-1)
  return last === undefined ? null : (model.turns[last]?.reply ?? null)
}

function shellQuote(s: string): string {
  return `'${s}'`
}

async function runAction(s: WorkspaceSession, model: Model, a: Action) {
  switch (a.t) {
    case 'write':
      await s.write(a.path, a.text)
      change(model, a.path, a.text)
      return
    case 'sh-write':
      await s.bash(`mkdir -p d && printf %s ${shellQuote(a.text)} > ${a.path}`)
      change(model, a.path, a.text)
      return
    case 'sh-rm':
      await s.bash(`rm -f ${a.path}`)
      change(model, a.path, null)
      return
    case 'sh-mv': {
      if (a.path === a.to) return
      await s.bash(`mkdir -p d && if [ -f ${a.path} ]; then mv -f ${a.path} ${a.to}; fi`)
      const moved = model.ws.get(a.path)
      if (moved === undefined) return
      change(model, a.to, moved)
      change(model, a.path, null)
      return
    }
  }
}

function disk(s: WorkspaceSession): Workspace {
  const ws: Workspace = new Map()
  for (const path of ALL_PATHS) {
    const abs = join(s.cwd, path)
    if (existsSync(abs)) ws.set(path, readFileSync(abs, 'utf8'))
  }
  return ws
}

/** A new action: done, and what was undone before it can no longer be redone. */
function did(model: Model, before: { path: number[]; ws: Workspace; files: number[] }) {
  model.done.push({
    pathBefore: before.path,
    pathAfter: [...model.path],
    wsBefore: before.ws,
    wsAfter: agentFiles(model.ws),
    filesBefore: before.files,
    filesAfter: [...model.files]
  })
  model.undone = []
}

/** What `did` needs of the model before an action. */
const beforeAction = (model: Model) => ({
  path: [...model.path],
  ws: agentFiles(model.ws),
  files: [...model.files]
})

async function rewindStep(s: WorkspaceSession, model: Model, n: number, mode: RewindMode) {
  if (model.turns.length === 0) {
    expect(() => checkpointAt(s.store, 1)).toThrow(/no checkpoints/)
    return
  }
  const turn = n % model.turns.length
  const prompt = model.turns[turn]?.prompt as string
  const before = beforeAction(model)
  // Where the files were when the prompt was sent.
  const sentFrom = model.turns[turn]?.lineage.slice(0, -1) ?? []
  const moves = mode === 'conversation' ? [] : [...targets(model, model.files, sentFrom)]
  const leafAfter = mode === 'code' ? model.path : pathTo(model, turn).slice(0, -1)
  if (
    leafOf(model, leafAfter) === leafOf(model, model.path) &&
    moves.every(([path, text]) => (model.ws.get(path) ?? null) === text)
  ) {
    // It would change nothing: refused, and no step for Undo.
    await expect(s.engine.rewind(prompt, mode)).rejects.toThrow(/Nothing was restored/)
    return
  }
  await s.engine.rewind(prompt, mode)
  if (mode !== 'conversation') {
    for (const [path, text] of moves) setFile(model.ws, path, text)
    model.files = sentFrom
  }
  if (mode !== 'code') model.path = pathTo(model, turn).slice(0, -1)
  did(model, before)
}

async function continueStep(s: WorkspaceSession, model: Model, n: number) {
  if (model.turns.length === 0) return
  const turn = n % model.turns.length
  const target = model.turns[turn]?.reply as string
  if (target === leafOf(model, model.path)) {
    await expect(s.engine.planContinue(target)).rejects.toThrow(/there already/)
    return
  }
  const before = beforeAction(model)
  await s.engine.apply(await s.engine.planContinue(target))
  const lineage = model.turns[turn]?.lineage ?? []
  for (const [path, text] of targets(model, model.files, lineage)) setFile(model.ws, path, text)
  model.path = pathTo(model, turn)
  model.files = [...lineage]
  did(model, before)
}

/** Gives the agent's files `ws`'s content. */
function restoreAgentFiles(model: Model, ws: Workspace) {
  for (const path of AGENT_PATHS) setFile(model.ws, path, ws.get(path) ?? null)
}

async function undoStep(s: WorkspaceSession, model: Model) {
  const last = model.done.at(-1)
  if (last === undefined || leafOf(model, last.pathAfter) !== s.store.leafUuid) {
    await expect(s.engine.undo()).rejects.toThrow(/Nothing to undo/)
    return
  }
  await s.engine.undo()
  restoreAgentFiles(model, last.wsBefore)
  model.path = [...last.pathBefore]
  model.files = [...last.filesBefore]
  model.undone.unshift(model.done.pop() as Move)
}

async function redoStep(s: WorkspaceSession, model: Model) {
  const next = model.undone[0]
  if (next === undefined || leafOf(model, next.pathBefore) !== s.store.leafUuid) {
    await expect(s.engine.redo()).rejects.toThrow(/Nothing to redo/)
    return
  }
  await s.engine.redo()
  restoreAgentFiles(model, next.wsAfter)
  model.path = [...next.pathAfter]
  model.files = [...next.filesAfter]
  model.done.push(model.undone.shift() as Move)
}

describe('rewind property: random edit / bash / hand-edit / rewind / continue / undo / redo sequences', () => {
  it('matches the in-memory model after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const s = await newSession()
        const model: Model = {
          ws: new Map(),
          turns: [],
          path: [],
          files: [],
          done: [],
          undone: []
        }
        try {
          for (const st of steps) {
            for (const h of st.hand) {
              s.hand(h.path, h.text)
              setFile(model.ws, h.path, h.text)
            }
            if (st.t === 'turn') {
              const prompt = s.prompt('turn')
              const turn: Turn = {
                parent: model.path.at(-1) ?? -1,
                lineage: [...model.files, model.turns.length],
                prompt,
                reply: '',
                before: new Map(),
                after: new Map()
              }
              model.turns.push(turn)
              model.path.push(model.turns.length - 1)
              model.files = [...turn.lineage]
              for (const a of st.actions) await runAction(s, model, a)
              turn.reply = s.reply('done')
            } else if (st.t === 'rewind') {
              await rewindStep(s, model, st.n, st.mode)
            } else if (st.t === 'continue') {
              await continueStep(s, model, st.n)
            } else if (st.t === 'undo') {
              await undoStep(s, model)
            } else {
              await redoStep(s, model)
            }
            expect(disk(s)).toEqual(model.ws)
            expect(s.store.leafUuid).toBe(leafOf(model, model.path))
            expect(s.store.tree().checkpoints()).toHaveLength(model.path.length)
            // Each turn shows what it changed, whatever was restored or undone since.
            const tree = s.store.tree()
            for (const turn of model.turns) {
              const shown = new Set(tree.fileChanges(turn.prompt).map((c) => c.path))
              expect([...shown].sort()).toEqual([...turn.before.keys()].sort())
            }
          }
        } finally {
          await s.close()
        }
      }),
      { numRuns: 40 }
    )
  }, 300_000)
})
