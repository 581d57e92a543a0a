import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  type JournalState,
  type RestoreJournal,
  listJournals,
  newJournalId,
  saveJournal
} from './journal'

function journal(state: JournalState, extra: Partial<RestoreJournal> = {}): RestoreJournal {
  return {
    id: newJournalId(),
    sessionId: 's1',
    kind: 'rewind',
    checkpointUuid: null,
    mode: 'both',
    leafBefore: null,
    leafAfter: null,
    recordUnder: null,
    undoes: null,
    ops: [{ path: 'state.txt', from: null, to: 'a'.repeat(64) }],
    state,
    createdAt: new Date().toISOString(),
    ...extra
  }
}

describe('listJournals with the states wanted', () => {
  it('gives the same journals as reading every one whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-journals-'))
    const saved = [
      journal('pending'),
      journal('recorded'),
      journal('applied'),
      journal('rolled-back'),
      // A redo's id comes after its other keys.
      { ...journal('recorded', { kind: 'redo' }), redoes: newJournalId() },
      { ...journal('pending', { kind: 'redo' }), redoes: newJournalId() }
    ]
    for (const j of saved) await saveJournal(dir, j)
    // Written by hand or by another version: its keys in another order, its state first.
    const reordered = journal('pending')
    const { state, ...rest } = reordered
    writeFileSync(join(dir, `${reordered.id}.json`), JSON.stringify({ state, ...rest }))
    // And a path that spells a finished state at its end is still an op's path.
    const trick = journal('pending', {
      ops: [{ path: '"state":"recorded","createdAt":"x"}', from: null, to: 'b'.repeat(64) }]
    })
    await saveJournal(dir, trick)

    const unfinished = new Set<JournalState>(['pending', 'applied'])
    const wanted = (j: Partial<Record<string, unknown>>) =>
      j.state === 'pending' || j.state === 'applied'
    const quick = await listJournals(dir, [], wanted, unfinished)
    const whole = await listJournals(dir, [], wanted)
    expect(quick).toEqual(whole)
    expect(quick.map((j) => j.id).sort()).toEqual(
      [saved[0], saved[2], saved[5], reordered, trick].map((j) => j?.id).sort()
    )
  })

  it('reads no more of a finished journal than its end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-journals-'))
    // Damaged before its end: read whole, it is reported; its end says it is finished.
    const finished = JSON.stringify(journal('recorded'))
    writeFileSync(join(dir, `${newJournalId()}.json`), `{"id": oops ${finished.slice(40)}`)
    const damaged: string[] = []
    expect(await listJournals(dir, damaged, () => true, new Set(['pending']))).toEqual([])
    expect(damaged).toEqual([])
    await listJournals(dir, damaged)
    expect(damaged[0]).toMatch(/is damaged/)
  })
})
