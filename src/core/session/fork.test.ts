// Fork through the session store: the path to a node copied under the same uuids into a new
// file beside the origin, with its turns' file changes and its labels; nothing else copied, the
// origin untouched, and a failed fork leaves no file behind.
//
//   p1 ─ a1 ─┬─ p2 ─ a2            (abandoned: a rewind went back to a1)
//            └─ p3 ─ a3 ─ p4 ─ a4  (active)
import { appendFileSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { modelView } from '../agent/context'
import { forkSession } from './fork'
import { SessionStore } from './store'
import type { TreeRecord } from './tree'

const open: SessionStore[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.close()
})

function track(store: SessionStore): SessionStore {
  open.push(store)
  return store
}

function branchySession() {
  const home = mkdtempSync(join(tmpdir(), 'rs-fork-'))
  const store = track(SessionStore.create({ home, cwd: '/work/project' }))
  const say = (role: 'user' | 'assistant', content: string) =>
    store.appendMessage({ role, content }).uuid
  const change = (checkpointUuid: string, path: string) =>
    store.appendFileChange({
      checkpointUuid,
      path,
      before: null,
      after: 'a'.repeat(64),
      source: 'Write'
    })
  const p1 = say('user', 'first')
  change(p1, 'one.txt')
  const a1 = say('assistant', 'did one')
  const p2 = say('user', 'second, abandoned')
  change(p2, 'two.txt')
  const a2 = say('assistant', 'did two')
  store.appendRewind({ leafUuid: a1, checkpointUuid: p2, mode: 'both' })
  const p3 = say('user', 'third')
  change(p3, 'three.txt')
  const a3 = say('assistant', 'did three')
  const p4 = say('user', 'fourth')
  const a4 = say('assistant', 'did four')
  store.appendLabel({ targetUuid: p1, label: 'start' })
  store.appendLabel({ targetUuid: p2, label: 'dead end' })
  store.appendLabel({ targetUuid: p3, label: 'old name' })
  store.appendLabel({ targetUuid: p3, label: 'works' })
  return { home, store, ids: { p1, a1, p2, a2, p3, a3, p4, a4 } }
}

const uuids = (records: readonly TreeRecord[]) => records.map((r) => r.uuid)

describe('forkSession', () => {
  it('copies the path to the node under the same uuids, with its file changes and labels', () => {
    const { home, store, ids } = branchySession()
    const before = readFileSync(store.file)
    const fork = track(forkSession(home, store, ids.a3))

    expect(dirname(fork.file)).toBe(dirname(store.file))
    expect(fork.sessionId).not.toBe(store.sessionId)
    expect(fork.header.forkedFrom).toEqual({
      sessionId: store.sessionId,
      leafUuid: ids.a3,
      file: store.file
    })
    const tree = fork.tree()
    expect(tree.leafUuid).toBe(ids.a3)
    expect(uuids(tree.activePath())).toEqual([ids.p1, ids.a1, ids.p3, ids.a3])
    expect(tree.leaves()).toEqual([ids.a3])
    // One chain: each node the child of the one before.
    expect(tree.activePath().map((r) => r.parentUuid)).toEqual([null, ids.p1, ids.a1, ids.p3])
    expect(tree.checkpoints().map((c) => [c.prompt, c.filesChanged])).toEqual([
      ['first', 1],
      ['third', 1]
    ])
    // A change is copied as the fork's record, at the fork's time, naming the one it copies.
    const [copied] = tree.fileChanges(ids.p3)
    const [original] = store.tree().fileChanges(ids.p3)
    expect(copied).toMatchObject({
      path: 'three.txt',
      after: original?.after,
      copyOf: original?.uuid
    })
    expect(copied?.uuid).not.toBe(original?.uuid)
    expect((copied?.timestamp ?? '') >= fork.header.timestamp).toBe(true)
    expect(Object.fromEntries(tree.labels())).toEqual({ [ids.p1]: 'start', [ids.p3]: 'works' })
    // The turns' contents and times are the origin's.
    expect(tree.get(ids.a3)).toEqual({ ...store.tree().get(ids.a3), parentUuid: ids.p3 })
    expect(tree.problems).toEqual([])
    expect(readFileSync(store.file)).toEqual(before)

    // Reopened from disk, it is the same session, listed beside its origin.
    fork.close()
    const again = track(SessionStore.open(fork.file, { readOnly: true }))
    expect(uuids(again.tree().activePath())).toEqual([ids.p1, ids.a1, ids.p3, ids.a3])
    expect(SessionStore.list(home, '/work/project').map((l) => l.file)).toContain(fork.file)
  })

  it('forks an abandoned branch, and the fork can go on by itself', () => {
    const { home, store, ids } = branchySession()
    const fork = track(forkSession(home, store, ids.a2))
    expect(uuids(fork.tree().activePath())).toEqual([ids.p1, ids.a1, ids.p2, ids.a2])
    expect(
      fork
        .tree()
        .fileChanges(ids.p2)
        .map((c) => c.path)
    ).toEqual(['two.txt'])
    const next = fork.appendMessage({ role: 'user', content: 'carry on here' })
    expect(next.parentUuid).toBe(ids.a2)
    expect(store.tree().get(next.uuid)).toBeUndefined()
  })

  it('forks past a compaction: the fork sends the model what the origin sends', () => {
    const { home, store, ids } = branchySession()
    const compaction = store.appendCompaction({
      summary: '## Goal\nThe first and third steps.',
      firstKeptUuid: ids.p4,
      tokensBefore: 1234,
      trigger: 'manual'
    })
    const fork = track(forkSession(home, store, compaction.uuid))
    expect(fork.tree().get(compaction.uuid)).toMatchObject({
      type: 'compaction',
      firstKeptUuid: ids.p4
    })
    const seen = (s: SessionStore) => uuids(modelView(s.tree().activePath()))
    expect(seen(fork)).toEqual(seen(store))
    expect(seen(fork)).toEqual([compaction.uuid, ids.p4, ids.a4])
  })

  it('refuses an unknown node and a file outside the sessions folder, creating nothing', () => {
    const { home, store } = branchySession()
    const folder = dirname(store.file)
    expect(() => forkSession(home, store, 'no-such-node')).toThrow(/No message no-such-node/)
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'rs-fork-elsewhere-')), basename(store.file))
    appendFileSync(elsewhere, readFileSync(store.file))
    const copy = track(SessionStore.open(elsewhere, { readOnly: true }))
    expect(() => forkSession(home, copy, copy.tree().leafUuid ?? '')).toThrow(
      /not in the sessions folder of the workspace its header names/
    )
    expect(readdirSync(folder).filter((f) => f.endsWith('.jsonl'))).toEqual([basename(store.file)])
  })

  it('leaves no file behind when a record on the path cannot be copied', () => {
    const { home, store, ids } = branchySession()
    store.close()
    // A hand-edited record the tree accepts (it reads only what it needs) but the schema does not.
    appendFileSync(
      store.file,
      `${JSON.stringify({
        type: 'user',
        uuid: 'hand-made',
        parentUuid: ids.a4,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: 'edited' },
        isMeta: 'yes'
      })}\n`
    )
    const origin = track(SessionStore.open(store.file, { readOnly: true }))
    expect(() => forkSession(home, origin, 'hand-made')).toThrow(
      /Record hand-made cannot be copied/
    )
    expect(
      readdirSync(dirname(store.file)).filter((f) => !f.startsWith(basename(store.file)))
    ).toEqual([])
  })
})
