// Random sequences of agent writes, Bash commands, hand edits, rewinds and undos, checked after
// every step against an in-memory model of the workspace:
//   - rewinding to checkpoint N gives every file the session changed since N the content it had
//     just before the session first changed it after N: its content at N, plus any hand edit the
//     user made before the agent touched it (a file the user created is never deleted);
//   - every file the session did not change since N stays as the user left it;
//   - undo puts back exactly what the rewind changed.
// Hand edits happen between turns (before a prompt, a rewind or an undo); the ones just before a
// rewind or undo go to files the agent never touches, so "as the user left it" is unambiguous.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkpointAt } from '../../src/core/rewind/rewind-engine'
import type { RewindMode } from '../../src/shared/messages'
import { type WorkspaceSession, newSession } from './fixture'

const AGENT_PATHS = ['a', 'b', 'd/e'] as const
const USER_PATHS = ['u', 'd/u'] as const
const ALL_PATHS = [...AGENT_PATHS, ...USER_PATHS]

type Workspace = Map<string, string>
interface Turn {
  /**
   * For each path the session changed during the turn (or a code-only rewind filed under it),
   * its content just before the first of those changes (null = absent).
   */
  before: Map<string, string | null>
}
interface Model {
  ws: Workspace
  turns: Turn[]
  lastRewind: { ws: Workspace; turns: Turn[] } | null
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
const step = fc.oneof(
  fc.record({
    t: fc.constant('turn' as const),
    hand: fc.array(handEdit(ALL_PATHS), { maxLength: 2 }),
    actions: fc.array(action, { minLength: 1, maxLength: 3 })
  }),
  fc.record({
    t: fc.constant('rewind' as const),
    hand: fc.array(handEdit(USER_PATHS), { maxLength: 1 }),
    n: fc.nat(),
    mode: fc.constantFrom<RewindMode>('both', 'code', 'conversation')
  }),
  fc.record({
    t: fc.constant('undo' as const),
    hand: fc.array(handEdit(USER_PATHS), { maxLength: 1 })
  })
)

const copyTurns = (turns: Turn[]) => turns.map((t) => ({ before: new Map(t.before) }))

function setFile(ws: Workspace, path: string, text: string | null): void {
  if (text === null) ws.delete(path)
  else ws.set(path, text)
}

/** Applies a change to the model; records it under the current turn when it changed anything. */
function change(model: Model, path: string, text: string | null): void {
  const current = model.ws.get(path) ?? null
  if (current === text) return
  const turn = model.turns.at(-1)
  if (turn !== undefined && !turn.before.has(path)) turn.before.set(path, current)
  setFile(model.ws, path, text)
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

async function rewindStep(s: WorkspaceSession, model: Model, n: number, mode: RewindMode) {
  if (model.turns.length === 0) {
    expect(() => checkpointAt(s.store, 1)).toThrow(/no checkpoints/)
    return
  }
  const index = 1 + (n % model.turns.length)
  const before = { ws: new Map(model.ws), turns: copyTurns(model.turns) }
  await s.engine.rewind(checkpointAt(s.store, index), mode)
  if (mode !== 'conversation') {
    const target = new Map<string, string | null>()
    for (const turn of model.turns.slice(index - 1).reverse()) {
      for (const [path, text] of turn.before) target.set(path, text)
    }
    // A code-only restore is filed under the latest checkpoint; 'both' leaves that branch.
    for (const [path, text] of target) change(model, path, text)
  }
  if (mode !== 'code') model.turns = model.turns.slice(0, index - 1)
  model.lastRewind = before
}

async function undoStep(s: WorkspaceSession, model: Model) {
  const last = model.lastRewind
  if (last === null) {
    await expect(s.engine.undo()).rejects.toThrow(/Nothing to undo/)
    return
  }
  await s.engine.undo()
  const codeOnly = last.turns.length === model.turns.length
  model.turns = last.turns
  for (const path of AGENT_PATHS) {
    const text = last.ws.get(path) ?? null
    if (codeOnly) change(model, path, text)
    else setFile(model.ws, path, text)
  }
  model.lastRewind = null
}

describe('rewind property: random edit / bash / hand-edit / rewind / undo sequences', () => {
  it('matches the in-memory model after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const s = await newSession()
        const model: Model = { ws: new Map(), turns: [], lastRewind: null }
        try {
          for (const st of steps) {
            for (const h of st.hand) {
              s.hand(h.path, h.text)
              setFile(model.ws, h.path, h.text)
            }
            if (st.t === 'turn') {
              s.prompt('turn')
              model.turns.push({ before: new Map() })
              model.lastRewind = null
              for (const a of st.actions) await runAction(s, model, a)
              s.reply('done')
            } else if (st.t === 'rewind') {
              await rewindStep(s, model, st.n, st.mode)
            } else {
              await undoStep(s, model)
            }
            expect(disk(s)).toEqual(model.ws)
            expect(s.store.tree().checkpoints()).toHaveLength(model.turns.length)
          }
        } finally {
          await s.close()
        }
      }),
      { numRuns: 40 }
    )
  }, 300_000)
})
