import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

  it('reads a finished journal once listed as finished, which takes 16 of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-journals-'))
    const pending = journal('pending')
    const finished = Array.from({ length: 15 }, (_, i) =>
      journal(i % 2 === 0 ? 'recorded' : 'rolled-back')
    )
    for (const j of [pending, ...finished]) await saveJournal(dir, j)
    const unfinished = new Set<JournalState>(['pending', 'applied'])
    const ids = async () => (await listJournals(dir, [], () => true, unfinished)).map((j) => j.id)
    const listed = () =>
      existsSync(join(dir, 'finished'))
        ? readFileSync(join(dir, 'finished'), 'latin1').split('\n').filter(Boolean).sort()
        : []
    // 15 finished: read again at each start, not listed yet (listing costs a folder fsync).
    expect(await ids()).toEqual([pending.id])
    expect(listed()).toEqual([])
    // The 16th is the pending one, finished now.
    await saveJournal(dir, { ...pending, state: 'recorded' })
    expect(await ids()).toEqual([])
    const all = [pending, ...finished].map((j) => j.id).sort()
    expect(listed()).toEqual(all)
    // A listed journal is not read: garbage in its place goes unnoticed by recovery (a listing
    // of every journal still reports it).
    writeFileSync(join(dir, `${finished[0]?.id}.json`), 'not a journal')
    const damaged: string[] = []
    expect(await listJournals(dir, damaged, () => true, unfinished)).toEqual([])
    expect(damaged).toEqual([])
    await listJournals(dir, damaged)
    expect(damaged[0]).toMatch(/is damaged/)
    // Journals retention pruned leave the list when it is written again.
    for (const j of finished.slice(1, 6)) rmSync(join(dir, `${j.id}.json`))
    const more = Array.from({ length: 16 }, () => journal('recorded'))
    for (const j of more) await saveJournal(dir, j)
    const fresh = journal('applied')
    await saveJournal(dir, fresh)
    expect(await ids()).toEqual([fresh.id])
    const pruned = new Set(finished.slice(1, 6).map((j) => j.id))
    expect(listed()).toEqual(
      [...all.filter((id) => !pruned.has(id)), ...more.map((j) => j.id)].sort()
    )
  })

  it('a damaged list of finished journals costs reads, never a journal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-journals-'))
    const saved = [journal('pending'), journal('recorded'), journal('applied')]
    for (const j of saved) await saveJournal(dir, j)
    // Torn, or written by hand: an unfinished id cut short, garbage, nothing that is an id.
    writeFileSync(join(dir, 'finished'), `${saved[0]?.id.slice(0, 20)}\n\u0000garbage\n`)
    const unfinished = new Set<JournalState>(['pending', 'applied'])
    const found = await listJournals(dir, [], () => true, unfinished)
    expect(found.map((j) => j.id).sort()).toEqual([saved[0]?.id, saved[2]?.id].sort())
  })
})
