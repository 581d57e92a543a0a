// Acting on any node of any branch (issue 12, items 1 and 2): continue from a node of an
// abandoned branch, and rewind to before a prompt of an abandoned branch in each mode, with the
// files checked on disk after each step. Real session, real file history, real engine.
import { describe, expect, it } from 'vitest'
import { RewindError } from '../../src/core/rewind/rewind-engine'
import { type WorkspaceSession, sessionsClosedAfterEach, twoTurns } from './fixture'

const { session } = sessionsClosedAfterEach()

/**
 *   turn1 (a=1) ─ turn2 (a=2, b=2) ─ turn2b (b=2b)        branch A, abandoned
 *              └─ turn3 (a=3, c=3)                         branch B, the leaf
 */
async function twoBranches() {
  const s = await session({ 'user.txt': 'the user’s own file\n' })
  const { end1, prompt2, end2 } = await twoTurns(s)
  const prompt2b = s.prompt('turn two b')
  await s.write('b.txt', '2b')
  const end2b = s.reply('two b done')
  await s.engine.rewind(prompt2, 'both')
  const prompt3 = s.prompt('turn three')
  await s.write('a.txt', '3')
  await s.write('c.txt', '3')
  const end3 = s.reply('three done')
  return { s, end1, prompt2, end2, prompt2b, end2b, prompt3, end3 }
}

function files(s: WorkspaceSession) {
  return { a: s.read('a.txt'), b: s.read('b.txt'), c: s.read('c.txt'), user: s.read('user.txt') }
}

describe('continue from any node', () => {
  it('moves the conversation and the files to a node of an abandoned branch; the next prompt is its child', async () => {
    const { s, end2 } = await twoBranches()
    const plan = await s.engine.planContinue(end2)
    expect(plan.kind).toBe('continue')
    expect(plan.preview.restore.map((f) => f.path)).toEqual(['a.txt'])
    expect(plan.preview.recreate.map((f) => f.path)).toEqual(['b.txt'])
    expect(plan.preview.delete.map((f) => f.path)).toEqual(['c.txt'])
    const result = await s.engine.apply(plan)
    expect(result.prefill).toBeNull()
    expect(s.store.leafUuid).toBe(end2)
    expect(files(s)).toEqual({ a: '2', b: '2', c: null, user: 'the user’s own file\n' })

    const next = s.prompt('after two, again')
    expect(s.store.tree().get(next)?.parentUuid).toBe(end2)
    expect(s.store.tree().records.at(-2)).toMatchObject({
      type: 'navigate',
      reason: 'continue',
      leafUuid: end2
    })
  })

  it('refuses an unknown node (not_found) and the node the conversation is at, changing nothing', async () => {
    const { s, end3 } = await twoBranches()
    await expect(s.engine.planContinue('no-such-node')).rejects.toMatchObject({
      code: 'not_found'
    })
    await expect(s.engine.planContinue(end3)).rejects.toThrow(RewindError)
    expect(files(s)).toEqual({ a: '3', b: null, c: '3', user: 'the user’s own file\n' })
  })
})

describe('rewind to before a prompt of an abandoned branch', () => {
  it('both: the leaf goes before that prompt on its own branch, the files to their state there', async () => {
    const { s, prompt2b, end2 } = await twoBranches()
    const result = await s.engine.rewind(prompt2b, 'both')
    expect(result.prefill).toBe('turn two b')
    expect(s.store.leafUuid).toBe(end2)
    expect(files(s)).toEqual({ a: '2', b: '2', c: null, user: 'the user’s own file\n' })
    expect(
      s.store
        .tree()
        .checkpoints()
        .map((c) => c.prompt)
    ).toEqual(['one', 'two'])
  })

  it('conversation: the leaf moves there, every file stays', async () => {
    const { s, prompt2b, end2 } = await twoBranches()
    const result = await s.engine.rewind(prompt2b, 'conversation')
    expect(result.prefill).toBe('turn two b')
    expect(s.store.leafUuid).toBe(end2)
    expect(files(s)).toEqual({ a: '3', b: null, c: '3', user: 'the user’s own file\n' })
  })

  it('code: only the files move (to before that prompt), the leaf stays, and a later rewind still knows the state', async () => {
    const { s, prompt2b, prompt3, end3 } = await twoBranches()
    const result = await s.engine.rewind(prompt2b, 'code')
    expect(result.prefill).toBeNull()
    expect(s.store.leafUuid).toBe(end3)
    expect(files(s)).toEqual({ a: '2', b: '2', c: null, user: 'the user’s own file\n' })
    // A restore is no change of the branch's latest turn: that turn still shows its own two.
    expect(
      s.store
        .tree()
        .fileChanges(prompt3)
        .map((c) => c.path)
    ).toEqual(['a.txt', 'c.txt'])
    await s.engine.rewind(prompt3, 'both')
    expect(files(s)).toEqual({ a: '1', b: null, c: null, user: 'the user’s own file\n' })
  })

  it('refuses what is not a prompt, as not_found', async () => {
    const { s, end2 } = await twoBranches()
    await expect(s.engine.planRewind(end2, 'both')).rejects.toMatchObject({ code: 'not_found' })
  })
})
