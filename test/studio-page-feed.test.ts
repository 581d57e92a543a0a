// What the page is sent (issue 15 item 7): the graph as pushed deltas and the transcript by
// windows, through the contract as both transports call it. Following every pushed update from
// the first gives, after each turn, rewind, label and branch switch, the same graph as a full
// fetch; windows of the transcript put together give the whole branch.
import { describe, expect, it } from 'vitest'
import type { GraphUpdate } from '../src/shared/graph-encoding'
import type { SessionGraph, TranscriptEntry, TranscriptWindow } from '../src/shared/views'
import { graphFollower } from './support/graph-updates'
import { type Harness, studioHarnesses } from './support/studio-harness'

const { harness } = studioHarnesses()

/** The graph the pushed updates give, followed from the first push. */
function pushedGraph(h: Harness): SessionGraph | undefined {
  const follow = graphFollower()
  return h.events
    .filter((e) => e.event === 'session:graphUpdate')
    .map((e) => follow(e.payload as GraphUpdate))
    .at(-1)
}

/** The pushed graph once the pushes of the last change have landed, against a full fetch. */
async function expectPushedIsFull(h: Harness): Promise<void> {
  const full = await h.value<SessionGraph>('session:graph')
  await expect.poll(() => pushedGraph(h)?.nodes).toEqual(full.nodes)
  const pushed = pushedGraph(h) as SessionGraph
  expect({ ...pushed, filesAt: null }).toEqual({ ...full, filesAt: null })
}

describe('the graph as deltas', () => {
  it('gives the same graph as a full fetch after turns, a rewind, a label and a switch', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await expectPushedIsFull(h)
    await h.sendAndWait('also remove DEBUG and create utils.py')
    await expectPushedIsFull(h)
    const pushes = h.events.filter((e) => e.event === 'session:graphUpdate')
    expect((pushes[0]?.payload as GraphUpdate).kind).toBe('full')
    // After the first, a turn is pushed as deltas: the new node and the leaf renamed, no more.
    const deltas = pushes.slice(1).map((e) => e.payload as GraphUpdate)
    expect(deltas.every((u) => u.kind === 'delta')).toBe(true)
    expect(Math.max(...deltas.map((u) => u.nodes.id.length))).toBeLessThanOrEqual(1)

    const second = (await h.value<SessionGraph>('session:graph')).nodes[1]?.id as string
    await h.value('rewind:apply', { checkpointUuid: second, mode: 'both' })
    await expectPushedIsFull(h)
    await h.sendAndWait('only create utils.py and keep DEBUG')
    await expectPushedIsFull(h)
    await h.value('session:label', { nodeId: second, label: 'the first try' })
    await expectPushedIsFull(h)
    const old = (await h.value<SessionGraph>('session:graph')).nodes.find((n) => n.id === second)
    await h.value('branch:switch', { leafUuid: old?.branchLeafUuid })
    await expectPushedIsFull(h)
  })

  it('answers a page with the version it holds by a delta, an unknown one by the whole graph', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const first = await h.value<GraphUpdate>('session:graphUpdate', {})
    expect(first.kind).toBe('full')
    const same = await h.value<GraphUpdate>('session:graphUpdate', { since: first.version })
    expect(same).toMatchObject({ kind: 'delta', base: first.version, removed: [], renames: [] })
    expect(same.nodes.id).toEqual([])
    expect((await h.value<GraphUpdate>('session:graphUpdate', { since: -5 })).kind).toBe('full')
  })
})

describe('the transcript by windows', () => {
  it('gives the whole branch window by window, and a window around a node', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const whole = await h.value<TranscriptEntry[]>('session:transcript', { leafUuid: null })
    expect(whole.length).toBeGreaterThan(4)

    const range = (anchor: unknown, before: number, after: number) =>
      h.value<TranscriptWindow>('session:transcriptRange', {
        leafUuid: null,
        anchor,
        before,
        after
      })
    const pieces: TranscriptEntry[] = []
    for (let at = 0; at < whole.length;) {
      const window = await range(at, 0, 2)
      expect(window).toMatchObject({ total: whole.length, start: at })
      // A window never ends between tool calls and their results: the next entry is no result.
      const next = whole[at + window.entries.length]
      expect(next !== undefined && next.role === 'user' && !next.isPrompt).toBe(false)
      pieces.push(...window.entries)
      at += window.entries.length
    }
    expect(pieces).toEqual(whole)

    const tail = await range('end', 2, 0)
    expect(tail).toEqual({ total: whole.length, start: whole.length - 2, entries: whole.slice(-2) })
    const second = whole.findIndex((e) => e.isPrompt && e.uuid !== whole[0]?.uuid)
    const around = await range({ nodeId: whole[second]?.nodeId }, 1, 1)
    expect(around.start).toBe(second - 1)
    expect(around.entries[1]).toEqual(whole[second])

    // A node with no message on the branch: the window at its end.
    const missing = await range({ nodeId: 'no-such-node' }, 1, 5)
    expect(missing).toEqual({
      total: whole.length,
      start: whole.length - 1,
      entries: whole.slice(-1)
    })
    const tooMany = await h.call('session:transcriptRange', {
      leafUuid: null,
      anchor: 'end',
      before: 100_000,
      after: 0
    })
    expect(tooMany).toMatchObject({ ok: false, error: { code: 'invalid_payload' } })
  })
})
