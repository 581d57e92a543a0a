import { describe, expect, it } from 'vitest'
import { loadSessionText } from './load'
import { isPrompt, NOT_A_SESSION, SessionTree, type TreeRecord } from './tree'
import {
  assistant,
  fileChange,
  header,
  jsonl,
  navigate,
  rewind,
  toolResult,
  user
} from '../../../test/session/builders'

const uuids = (records: TreeRecord[]) => records.map((r) => r.uuid)

describe('bad input: loading succeeds, keeps what it can, lists each problem', () => {
  it('reports a malformed line by its number and keeps the records around it', () => {
    const text =
      jsonl([header(), user('u1', null)]) + '{not json\n' + jsonl([assistant('a1', 'u1')])
    const loaded = loadSessionText(text)
    expect(loaded.problems).toEqual([
      { line: 3, kind: 'malformed', message: expect.stringContaining('not JSON') }
    ])
    expect(uuids(loaded.tree.activePath())).toEqual(['u1', 'a1'])
    expect(loaded.tornTail).toBe(false)
  })

  it('shows a record whose parent is missing as a root and says so', () => {
    const loaded = loadSessionText(jsonl([header(), user('u1', null), assistant('a1', 'gone')]))
    expect(loaded.problems).toEqual([
      {
        line: 3,
        kind: 'missing-parent',
        message: 'parent gone of a1 is not in the file: shown as a root'
      }
    ])
    expect(uuids(loaded.tree.children(null))).toEqual(['u1', 'a1'])
    expect(uuids(loaded.tree.activePath())).toEqual(['a1'])
  })

  it('breaks a parentUuid cycle at the record that closes it', () => {
    // x names y as parent before y exists; y names x: following parents would loop forever.
    const loaded = loadSessionText(jsonl([header(), user('x', 'y'), assistant('y', 'x')]))
    expect(loaded.problems.map((p) => [p.line, p.kind])).toEqual([[2, 'cycle']])
    expect(uuids(loaded.tree.children(null))).toEqual(['x'])
    expect(uuids(loaded.tree.activePath())).toEqual(['x', 'y'])
  })

  it('keeps the first of two records with one uuid and ignores the second', () => {
    const loaded = loadSessionText(
      jsonl([
        header(),
        user('u1', null, 'first'),
        user('u1', null, 'second'),
        assistant('a1', 'u1')
      ])
    )
    expect(loaded.problems.map((p) => [p.line, p.kind])).toEqual([[3, 'duplicate-uuid']])
    expect(loaded.tree.get('u1')?.type === 'user' && loaded.tree.get('u1')).toMatchObject({
      message: { content: 'first' }
    })
    expect(uuids(loaded.tree.activePath())).toEqual(['u1', 'a1'])
  })

  it('reports a record of a known type without its fields, and a missing header', () => {
    const loaded = loadSessionText(jsonl([user('u1', null), { type: 'assistant', uuid: 'a1' }, 42]))
    expect(loaded.problems.map((p) => [p.line, p.kind, p.message])).toEqual([
      [1, 'invalid-record', NOT_A_SESSION],
      [2, 'invalid-record', 'assistant: parentUuid is not a uuid or null'],
      [3, 'invalid-record', 'not a JSON object']
    ])
    expect(uuids(loaded.tree.activePath())).toEqual(['u1'])
  })

  it('ignores a rewind to a leaf that is not in the file, keeping the leaf', () => {
    const loaded = loadSessionText(
      jsonl([header(), user('u1', null), rewind('r1', 'u1', 'nowhere', 'u1')])
    )
    expect(loaded.problems.map((p) => p.kind)).toEqual(['invalid-record'])
    expect(loaded.tree.leafUuid).toBe('u1')
  })

  it('keeps unknown record types in the records and ignores them', () => {
    const future = {
      type: 'model_change',
      uuid: 'm1',
      parentUuid: 'u1',
      timestamp: 'x',
      model: 'next'
    }
    const loaded = loadSessionText(
      jsonl([header(), user('u1', null), future, assistant('a1', 'u1')])
    )
    expect(loaded.problems).toEqual([])
    expect(loaded.tree.records).toContainEqual(future)
    expect(loaded.tree.leafUuid).toBe('a1')
  })
})

describe('leaf rule', () => {
  //  u1 ─ a1 ─ u2 ─ a2        (abandoned)
  //          └ u3 ─ a3        (after rewinding to a1)
  const branched = [
    header(),
    user('u1', null),
    assistant('a1', 'u1'),
    user('u2', 'a1'),
    assistant('a2', 'u2'),
    rewind('r1', 'a2', 'a1', 'u2'),
    user('u3', 'a1'),
    assistant('a3', 'u3')
  ]

  it('walks from the leaf through parentUuid, never by line order', () => {
    const tree = SessionTree.fromRecords(branched)
    expect(uuids(tree.activePath())).toEqual(['u1', 'a1', 'u3', 'a3'])
    expect(tree.leaves()).toEqual(['a2', 'a3'])
    expect(uuids(tree.children('a1'))).toEqual(['u2', 'u3'])
  })

  it('a rewind with nothing after it still moves the leaf (quit right after a rewind)', () => {
    const tree = SessionTree.fromRecords(branched.slice(0, 6))
    expect(tree.leafUuid).toBe('a1')
    expect(uuids(tree.activePath())).toEqual(['u1', 'a1'])
  })

  it('a navigate record moves the leaf to another branch; labels and file changes do not move it', () => {
    const tree = SessionTree.fromRecords([
      ...branched,
      navigate('n1', 'a3', 'a2'),
      fileChange('f1', 'u3', 'a.txt'),
      {
        type: 'label',
        uuid: 'l1',
        parentUuid: 'a2',
        timestamp: 'x',
        targetUuid: 'u3',
        label: 'try B'
      }
    ])
    expect(tree.leafUuid).toBe('a2')
    expect(tree.labels().get('u3')).toBe('try B')
  })

  it('a rewind to null leaves an empty active path (before the first prompt)', () => {
    const tree = SessionTree.fromRecords([
      header(),
      user('u1', null),
      rewind('r1', 'u1', null, 'u1')
    ])
    expect(tree.leafUuid).toBeNull()
    expect(tree.activePath()).toEqual([])
  })
})

describe('checkpoints', () => {
  it('are the user-typed prompts of the active path, with files changed per prompt', () => {
    const meta = { ...user('m1', 'a1', 'Checkpoint active'), isMeta: true }
    const reminder = user('sr', 'm1', [
      { type: 'text', text: '<system-reminder>job done</system-reminder>' }
    ])
    const tree = SessionTree.fromRecords([
      header(),
      user('u1', null, 'add TIMEOUT'),
      assistant('a1', 'u1'),
      fileChange('f1', 'u1', 'config.py'),
      fileChange('f2', 'u1', 'config.py'),
      fileChange('f3', 'u1', 'utils.py'),
      meta,
      reminder,
      toolResult('t1', 'sr'),
      user('u2', 't1', [{ type: 'text', text: '<system-reminder>x</system-reminder> now tests' }])
    ])
    expect(tree.checkpoints()).toEqual([
      {
        index: 1,
        uuid: 'u1',
        prompt: 'add TIMEOUT',
        filesChanged: 2,
        timestamp: expect.any(String)
      },
      { index: 2, uuid: 'u2', prompt: 'now tests', filesChanged: 0, timestamp: expect.any(String) }
    ])
    expect([meta, reminder, toolResult('t1', 'sr')].map((r) => isPrompt(r as TreeRecord))).toEqual([
      false,
      false,
      false
    ])
  })

  it('summaries list branch summaries and rewind reports in file order', () => {
    const tree = SessionTree.fromRecords([
      header(),
      user('u1', null),
      {
        type: 'branch_summary',
        uuid: 'b1',
        parentUuid: 'u1',
        timestamp: 'x',
        fromId: 'u1',
        summary: 'tried A'
      },
      {
        type: 'custom_message',
        uuid: 'c1',
        parentUuid: 'b1',
        timestamp: 'x',
        customType: 'rewind-report',
        hidden: true,
        content: 'A fails: use B',
        details: { report: 'A fails: use B' }
      }
    ])
    expect(tree.summaries().map((s) => [s.uuid, s.fromId, s.kind, s.summary])).toEqual([
      ['b1', 'u1', 'branch_summary', 'tried A'],
      ['c1', 'b1', 'rewind_report', 'A fails: use B']
    ])
    expect(tree.leafUuid).toBe('c1')
  })
})

describe('what the views ask of the tree without a map of every uuid', () => {
  //   u1 ─ a1 ─ u2 ─ a2        (the active path, u2's turn changed b.ts)
  //    └─ u3 ─ t3              (a branch left by a rewind)
  const loaded = () =>
    loadSessionText(
      jsonl([
        header(),
        user('u1', null),
        fileChange('f1', 'u1', 'a.ts'),
        assistant('a1', 'u1'),
        user('u3', 'u1'),
        toolResult('t3', 'u3'),
        { ...fileChange('f2', 'u1', 'a.ts'), source: 'rewind' },
        { ...fileChange('f1', 'u3', 'dup.ts') },
        rewind('r1', 't3', 'a1', 'u1'),
        user('u2', 'a1'),
        fileChange('f3', 'u2', 'b.ts'),
        assistant('a2', 'u2')
      ])
    ).tree

  it("lists the turns' file changes in file order, without a restore's or a reused uuid's", () => {
    expect(
      loaded()
        .turnFileChanges()
        .map((c) => c.uuid)
    ).toEqual(['f1', 'f3'])
  })

  it('numbers the nodes in the order they came, and no other record', () => {
    const tree = loaded()
    expect(['u1', 'a1', 'u3', 't3', 'u2', 'a2'].map((u) => tree.nodeNumber(u))).toEqual([
      0, 1, 2, 3, 4, 5
    ])
    expect(tree.nodeNumber('f1')).toBe(-1)
    expect(tree.nodeNumber('r1')).toBe(-1)
    expect(tree.nodeNumber('nowhere')).toBe(-1)
  })

  it('gives each node the newest leaf below it', () => {
    const tree = loaded()
    expect(['u1', 'a1', 'u2', 'u3', 't3'].map((u) => tree.branchLeafOf(u))).toEqual([
      'a2',
      'a2',
      'a2',
      't3',
      't3'
    ])
    expect(tree.branchLeafOf('f1')).toBeUndefined()
  })

  it("finds the active path's last checkpoint from its end, as checkpoints() lists it", () => {
    const tree = loaded()
    expect(tree.lastCheckpointUuid()).toBe('u2')
    expect(tree.lastCheckpointUuid()).toBe(tree.checkpoints().at(-1)?.uuid)
    // A tool result is no checkpoint: the branch left ends in one after its prompt.
    expect(tree.lastCheckpointUuid(tree.pathTo('t3'))).toBe('u3')
    expect(tree.lastCheckpointUuid([])).toBeNull()
  })
})
