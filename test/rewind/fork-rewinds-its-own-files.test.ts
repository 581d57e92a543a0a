// A fork and the files: its copied file changes let it rewind on its own, restoring a node's
// files happens in the fork (planned as the origin's switch, undone in the fork), and neither
// session takes the other's copy of a change for a change made by "another session" — while a
// change the fork really makes still is one for its origin.
import { describe, expect, it } from 'vitest'
import { RewindEngine } from '../../src/core/rewind/rewind-engine'
import { forkSession } from '../../src/core/session/fork'
import { restoreInFork } from '../../src/core/studio/fork-at-node'
import { openSession, sessionsClosedAfterEach, twoTurns } from './fixture'

const { session, track } = sessionsClosedAfterEach()

/** a.txt: 0, then 1 by turn 1, 2 by turn 2; b.txt created by turn 2 (2). */
async function twoTurnsSession() {
  const s = await session({ 'a.txt': '0' })
  const { end1: a1, prompt2: p2, end2: a2 } = await twoTurns(s)
  return { s, p2, a1, a2 }
}

describe('fork and files', () => {
  it('the origin rewinds through turns a fork copied with no conflict, and so does the fork', async () => {
    const { s, p2 } = await twoTurnsSession()
    const fork = await openSession(s, forkSession(s.home, s.store, s.store.leafUuid ?? ''))
    track(fork)

    const inOrigin = await s.engine.planRewind(p2, 'both')
    expect(inOrigin.conflicts).toEqual([])
    expect(inOrigin.files.map((f) => [f.path, f.action])).toEqual([
      ['a.txt', 'restore'],
      ['b.txt', 'delete']
    ])
    const inFork = await fork.engine.planRewind(p2, 'both')
    expect(inFork.conflicts).toEqual([])
    await fork.engine.apply(inFork)
    expect([s.read('a.txt'), s.read('b.txt')]).toEqual(['1', null])
  })

  it('a change the fork makes after forking is another session’s change for the origin', async () => {
    const { s, p2 } = await twoTurnsSession()
    const fork = track(await openSession(s, forkSession(s.home, s.store, s.store.leafUuid ?? '')))
    fork.prompt('third, in the fork')
    await fork.write('a.txt', '3 from the fork')
    fork.reply('three')
    const plan = await s.engine.planRewind(p2, 'both')
    expect(plan.conflicts).toEqual(['a.txt'])
    expect(plan.files.map((f) => f.path)).toEqual(['b.txt'])
  })

  it('restores a node’s files in the fork: the origin’s log is not written, the fork’s undo puts them back', async () => {
    const { s, a1 } = await twoTurnsSession()
    const originLog = s.store.tree().records.length
    const plan = await s.engine.planSwitch(a1)
    const fork = forkSession(s.home, s.store, a1)
    const engine = new RewindEngine({ home: s.home, store: fork, space: s.history })
    try {
      const result = await engine.apply(restoreInFork(plan, fork))
      expect(result).toMatchObject({ restored: ['a.txt'], deleted: ['b.txt'] })
      expect([s.read('a.txt'), s.read('b.txt')]).toEqual(['1', null])
      expect(fork.leafUuid).toBe(a1)
      expect(s.store.tree().records.length).toBe(originLog)
      await engine.undo()
      expect([s.read('a.txt'), s.read('b.txt')]).toEqual(['2', '2'])
      expect(fork.leafUuid).toBe(a1)
    } finally {
      fork.close()
    }
  })

  it('refuses a plan made for another node', async () => {
    const { s, a1, a2 } = await twoTurnsSession()
    const plan = await s.engine.planSwitch(a1)
    const fork = forkSession(s.home, s.store, a2)
    try {
      expect(() => restoreInFork(plan, fork)).toThrow(/planned for/)
    } finally {
      fork.close()
    }
  })
})
