// The timeline (issue 12, items 3 and 4): every rewind, switch and continue is an action; undo
// and redo walk them in order, many steps, across a reopening of the session; each undo puts
// the files exactly as they were before its action (hand edits included) and the leaf where it
// was; a new action drops the redo tail. Also where the files are ("files at") after each kind
// of move. Real session, real file history, real engine; files checked on disk after each step.
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../session/store'
import { replayTimeline } from './timeline'
import {
  type WorkspaceSession,
  openSession,
  sessionsClosedAfterEach,
  twoTurns
} from '../../../test/rewind/fixture'

const { session, track } = sessionsClosedAfterEach()

/**
 *   turn1 (a=1) ─ turn2 (a=2, b=2)          branch A (leaf endA)
 *              └─ turn3 (c=3)               branch B, the leaf (endB)
 */
async function twoBranches() {
  const s = await session()
  const { end1, prompt2, end2: endA } = await twoTurns(s)
  await s.engine.rewind(prompt2, 'both')
  const prompt3 = s.prompt('turn three')
  await s.write('c.txt', '3')
  const endB = s.reply('three done')
  return { s, end1, prompt2, endA, prompt3, endB }
}

function files(s: WorkspaceSession) {
  return { a: s.read('a.txt'), b: s.read('b.txt'), c: s.read('c.txt') }
}

const states = (s: WorkspaceSession) =>
  replayTimeline(s.store.tree()).actions.map((a) => [a.kind, a.state])

describe('timeline: undo and redo', () => {
  it('undoes twice and redoes once, files and leaf exact after each step, hand edits included', async () => {
    const { s, end1, endA, endB } = await twoBranches()
    s.hand('a.txt', 'hand on B')
    await s.engine.switchBranch(endA)
    expect(files(s)).toEqual({ a: '2', b: '2', c: null })
    s.hand('b.txt', 'hand on A')
    await s.engine.apply(await s.engine.planContinue(end1))
    expect(files(s)).toEqual({ a: '1', b: null, c: null })
    expect(s.store.leafUuid).toBe(end1)
    expect(states(s)).toEqual([
      ['rewind', 'done'],
      ['switch-branch', 'done'],
      ['continue', 'done']
    ])

    await s.engine.undo()
    expect(files(s)).toEqual({ a: '2', b: 'hand on A', c: null })
    expect(s.store.leafUuid).toBe(endA)

    await s.engine.undo()
    expect(files(s)).toEqual({ a: 'hand on B', b: null, c: '3' })
    expect(s.store.leafUuid).toBe(endB)
    expect(states(s)).toEqual([
      ['rewind', 'done'],
      ['switch-branch', 'undone'],
      ['continue', 'undone']
    ])

    await s.engine.redo()
    expect(files(s)).toEqual({ a: '2', b: '2', c: null })
    expect(s.store.leafUuid).toBe(endA)
    expect(states(s)).toEqual([
      ['rewind', 'done'],
      ['switch-branch', 'done'],
      ['continue', 'undone']
    ])

    // And back: undoing the redo gives back what the redo overwrote.
    await s.engine.undo()
    expect(files(s)).toEqual({ a: 'hand on B', b: null, c: '3' })
    expect(s.store.leafUuid).toBe(endB)
  })

  it('walks back across a reopening of the session (records and journals on disk)', async () => {
    const { s, end1, endA, endB } = await twoBranches()
    await s.engine.switchBranch(endA)
    await s.engine.apply(await s.engine.planContinue(end1))
    await s.engine.undo()
    const file = s.store.file
    const where = { base: s.base, cwd: s.cwd, home: s.home }
    await s.close()

    const again = track(await openSession(where, SessionStore.open(file)))
    const timeline = await again.engine.timeline()
    expect(timeline.actions.map((a) => [a.kind, a.state])).toEqual([
      ['rewind', 'done'],
      ['switch-branch', 'done'],
      ['continue', 'undone']
    ])
    expect(timeline.undoable?.kind).toBe('switch-branch')
    expect(timeline.redoable?.kind).toBe('continue')
    await again.engine.undo()
    expect(files(again)).toEqual({ a: '1', b: null, c: '3' })
    expect(again.store.leafUuid).toBe(endB)
    await again.engine.redo()
    await again.engine.redo()
    expect(files(again)).toEqual({ a: '1', b: null, c: null })
    expect(again.store.leafUuid).toBe(end1)
    await expect(again.engine.redo()).rejects.toMatchObject({ code: 'not_found' })
  })

  it('a new action after undos drops the redo tail', async () => {
    const { s, end1, endA, prompt3 } = await twoBranches()
    await s.engine.switchBranch(endA)
    await s.engine.apply(await s.engine.planContinue(end1))
    await s.engine.undo()
    await s.engine.undo()
    await s.engine.rewind(prompt3, 'conversation')
    expect(states(s)).toEqual([
      ['rewind', 'done'],
      ['rewind', 'done']
    ])
    await expect(s.engine.redo()).rejects.toThrow(/Nothing to redo/)
  })

  it('a prompt sent after an undo ends the reach of undo and redo: nothing is undone unseen', async () => {
    const { s, endA } = await twoBranches()
    await s.engine.switchBranch(endA)
    await s.engine.undo()
    s.prompt('a new turn on B')
    await s.write('d.txt', '4')
    s.reply('four')
    const timeline = await s.engine.timeline()
    expect(timeline.undoable).toBeNull()
    expect(timeline.redoable).toBeNull()
    await expect(s.engine.redo()).rejects.toMatchObject({ code: 'not_found' })
    await expect(s.engine.undo()).rejects.toMatchObject({ code: 'not_found' })
    expect(files(s)).toEqual({ a: '1', b: null, c: '3' })
    expect(s.read('d.txt')).toBe('4')
  })
})

describe("timeline: code-only steps are no turn's changes", () => {
  it('after a redone code-only rewind, going away and back to the turn brings what the turn left', async () => {
    const s = await session()
    s.prompt('one')
    await s.write('a.txt', '1')
    const end1 = s.reply('one done')
    const prompt2 = s.prompt('two')
    await s.write('a.txt', '2')
    const end2 = s.reply('two done')
    await s.engine.rewind(prompt2, 'code')
    await s.engine.undo()
    await s.engine.redo()
    expect(s.read('a.txt')).toBe('1')
    await s.engine.apply(await s.engine.planContinue(end1))
    expect((await s.engine.timeline()).filesAt).toBe(end1)
    await s.engine.apply(await s.engine.planContinue(end2))
    // The state at end2 is what turn two left there: the redone rewind changed no turn.
    expect(s.read('a.txt')).toBe('2')
    expect(
      s.store
        .tree()
        .fileChanges(prompt2)
        .map((c) => c.source)
    ).toEqual(['Write'])
  })
})

describe('timeline: a restore that changes nothing', () => {
  it('is refused and says so: no record, no step for Undo', async () => {
    const { s, prompt3 } = await twoBranches()
    await s.engine.rewind(prompt3, 'code')
    const records = s.store.tree().records.length
    const actions = replayTimeline(s.store.tree()).actions.length
    // The files are where that rewind would take them already.
    await expect(s.engine.rewind(prompt3, 'code')).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('Nothing was restored, and no step was recorded') as unknown
    })
    expect(s.store.tree().records).toHaveLength(records)
    expect(replayTimeline(s.store.tree()).actions).toHaveLength(actions)
    // Undo takes back the rewind that did change the files, not an empty one.
    await s.engine.undo()
    expect(files(s)).toEqual({ a: '1', b: null, c: '3' })
  })
})

describe('files at: where the files stand', () => {
  it('follows turns, rewinds of each mode, switches, continues, undos and redos', async () => {
    const { s, end1, prompt2, endA, prompt3, endB } = await twoBranches()
    const filesAt = () => replayTimeline(s.store.tree()).filesAt
    expect(filesAt()).toBe(endB)
    await s.engine.rewind(prompt3, 'conversation')
    expect(s.store.leafUuid).toBe(end1)
    expect(filesAt()).toBe(endB)
    await s.engine.undo()
    await s.engine.rewind(prompt3, 'code')
    expect(s.store.leafUuid).toBe(endB)
    expect(filesAt()).toBe(end1)
    await s.engine.undo()
    expect(filesAt()).toBe(endB)
    await s.engine.redo()
    expect(filesAt()).toBe(end1)
    await s.engine.undo()
    await s.engine.switchBranch(endA)
    expect(filesAt()).toBe(endA)
    await s.engine.rewind(prompt2, 'both')
    expect(filesAt()).toBe(end1)
  })

  it('says "changed since" after a hand edit to a file the session touched, not to others', async () => {
    const { s, endB } = await twoBranches()
    expect(s.engine.filesChangedSince(endB)).toBe(false)
    s.hand('notes.txt', 'not the session’s')
    expect(s.engine.filesChangedSince(endB)).toBe(false)
    s.hand('c.txt', 'edited by hand')
    expect(s.engine.filesChangedSince(endB)).toBe(true)
    s.hand('c.txt', '3')
    expect(s.engine.filesChangedSince(endB)).toBe(false)
  })
})
