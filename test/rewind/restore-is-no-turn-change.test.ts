// A restore is its own action, never a turn's change (issue 26, item 1): what a turn changed is its
// own file_change records, the files a node left are made of turns alone (file-lineage.ts), and a
// restore moves the files from where they are (the timeline's "files at") to a node's state. A turn
// sent while the files were elsewhere goes on from those files. Logs of earlier versions, whose
// code-only restores filed records under the branch's latest turn, are read by the same rule.
// Real session, real file history, real engine; files checked on disk.
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../src/core/files/blob-store'
import { filesAsNodeLeftThem } from '../../src/core/rewind/node-files'
import { fileChangeRecords } from '../../src/core/rewind/other-sessions'
import { type WorkspaceSession, sessionsClosedAfterEach, twoTurns } from './fixture'

const { session } = sessionsClosedAfterEach()

const hash = (text: string) => sha256(Buffer.from(text))

function files(s: WorkspaceSession) {
  return { a: s.read('a.txt'), b: s.read('b.txt'), c: s.read('c.txt') }
}

/** Whether the disk holds what the session says the files are at (the "changed since" marker). */
async function changedSince(s: WorkspaceSession): Promise<boolean> {
  return s.engine.filesChangedSince((await s.engine.timeline()).filesAt)
}

/** turn1 (a=1) ─ turn2 (a=2, b=2): the leaf. */
async function twoTurnsSession() {
  const s = await session()
  return { s, ...(await twoTurns(s)) }
}

describe('a restore is no turn’s change', () => {
  it('an earlier version’s restore records, filed under a turn, are read as no change of it', async () => {
    const { s, end1, prompt2 } = await twoTurnsSession()
    const prompt3 = s.prompt('look around, change nothing')
    const looked = s.reply('looked')
    s.reply('nothing changed')
    s.hand('a.txt', '2\nPORT = 8080\n')
    // What an earlier version appended with its code-only rewind to before turn two and its undo:
    // records under the latest turn, the hand edit as the undo's "after".
    const filedUnderTurn3 = (before: string | null, after: string | null, source: string) =>
      s.store.appendFileChanges([
        {
          checkpointUuid: prompt3,
          path: 'a.txt',
          before: before === null ? null : hash(before),
          after: after === null ? null : hash(after),
          source
        }
      ])
    filedUnderTurn3('2\nPORT = 8080\n', '1', 'rewind')
    await s.engine.rewind(prompt2, 'code')
    expect(files(s)).toEqual({ a: '1', b: null, c: null })
    filedUnderTurn3('1', '2\nPORT = 8080\n', 'undo')
    await s.engine.undo()
    expect(s.read('a.txt')).toBe('2\nPORT = 8080\n')

    const tree = s.store.tree()
    expect(tree.checkpoints().map((c) => c.filesChanged)).toEqual([1, 2, 0])
    expect(tree.fileChanges(prompt3)).toEqual([])
    // Still records of the session (its log names their blobs; another session's rewind counts
    // them as this session's changes).
    expect(fileChangeRecords(tree).filter((c) => c.source !== 'Write')).toHaveLength(2)
    expect(filesAsNodeLeftThem(tree, looked).get('a.txt')?.hash).toBe(hash('2'))
    // The hand edit is a change since the files' node, not part of it.
    expect(await changedSince(s)).toBe(true)

    await s.engine.apply(await s.engine.planContinue(end1))
    await s.engine.apply(await s.engine.planContinue(looked))
    expect(files(s)).toEqual({ a: '2', b: '2', c: null })
  })

  it('a turn sent after a conversation-only rewind goes on from the files the rewind left', async () => {
    const { s, end2, prompt2 } = await twoTurnsSession()
    await s.engine.rewind(prompt2, 'conversation')
    s.prompt('three, on the files turn two left')
    await s.write('c.txt', '3')
    const end3 = s.reply('three done')
    expect(files(s)).toEqual({ a: '2', b: '2', c: '3' })
    expect(await changedSince(s)).toBe(false)
    expect(
      Object.fromEntries(
        [...filesAsNodeLeftThem(s.store.tree(), end3)].map(([path, f]) => [path, f.hash])
      )
    ).toEqual({ 'a.txt': hash('2'), 'b.txt': hash('2'), 'c.txt': hash('3') })

    await s.engine.apply(await s.engine.planContinue(end2))
    expect(files(s)).toEqual({ a: '2', b: '2', c: null })
    await s.engine.apply(await s.engine.planContinue(end3))
    expect(files(s)).toEqual({ a: '2', b: '2', c: '3' })
    expect(await changedSince(s)).toBe(false)
  })

  it('a turn sent after a code-only rewind goes on from the files the rewind left; rewinding before it brings those back', async () => {
    const { s, end1, prompt2, end2 } = await twoTurnsSession()
    await s.engine.rewind(prompt2, 'code')
    expect(files(s)).toEqual({ a: '1', b: null, c: null })
    const prompt3 = s.prompt('three, on the files as they were before turn two')
    await s.write('c.txt', '3')
    const end3 = s.reply('three done')
    expect(
      s.store
        .tree()
        .checkpoints()
        .map((c) => c.filesChanged)
    ).toEqual([1, 2, 1])
    expect(await changedSince(s)).toBe(false)

    await s.engine.apply(await s.engine.planContinue(end2))
    expect(files(s)).toEqual({ a: '2', b: '2', c: null })
    await s.engine.apply(await s.engine.planContinue(end3))
    expect(files(s)).toEqual({ a: '1', b: null, c: '3' })

    await s.engine.rewind(prompt3, 'both')
    expect(s.store.leafUuid).toBe(end2)
    expect(files(s)).toEqual({ a: '1', b: null, c: null })
    expect((await s.engine.timeline()).filesAt).toBe(end1)
    expect(await changedSince(s)).toBe(false)
  })

  it('a code-only rewind needs no prompt on the current branch: it files nothing', async () => {
    const { s, prompt1, prompt2 } = await twoTurnsSession()
    await s.engine.rewind(prompt1, 'both')
    expect(s.store.leafUuid).toBeNull()
    expect(files(s)).toEqual({ a: null, b: null, c: null })
    const records = s.store.tree().records.length
    await s.engine.rewind(prompt2, 'code')
    expect(files(s)).toEqual({ a: '1', b: null, c: null })
    expect(s.store.leafUuid).toBeNull()
    // One record: the rewind's.
    expect(s.store.tree().records.slice(records)).toMatchObject([{ type: 'rewind', mode: 'code' }])
  })
})
