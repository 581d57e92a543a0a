// The timeline acts (issue 29, item 4): each entry names the node it left the conversation at,
// and timeline:walkTo undoes or redoes step by step until the timeline stands right after that
// entry, the files on disk with it; a step it cannot take stops it with a typed error.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionGraph, TimelineEntry } from '../src/shared/views'
import { type Harness, studioHarnesses } from './support/studio-harness'

const { harness } = studioHarnesses()

const AT_T1 = { config: 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n', utils: false }
const AT_T2 = { config: 'TIMEOUT = 30\nHOST = "localhost"\n', utils: true }

function disk(h: Harness) {
  return {
    config: readFileSync(join(h.workspace, 'config.py'), 'utf8'),
    utils: existsSync(join(h.workspace, 'utils.py'))
  }
}

const entries = (h: Harness) => h.value<TimelineEntry[]>('timeline:list')

/** Two turns, then three continues: to T1 (A), back to T2 (B), to T1 again (C). */
async function threeActions(h: Harness) {
  await h.sendAndWait('add TIMEOUT = 30 to config.py')
  await h.sendAndWait('also remove DEBUG and create utils.py')
  const [t1, t2] = (await h.value<SessionGraph>('session:graph')).nodes.map((n) => n.id) as [
    string,
    string
  ]
  for (const nodeId of [t1, t2, t1]) await h.value('continue:apply', { nodeId })
  const [a, b, c] = (await entries(h)).map((e) => e.id) as [string, string, string]
  return { t1, t2, a, b, c }
}

describe('the timeline walks to an entry', () => {
  it('names the node each action went to', async () => {
    const h = await harness()
    const { t1, t2 } = await threeActions(h)
    expect((await entries(h)).map((e) => [e.label, e.nodeId])).toEqual([
      ['Continue from "add TIMEOUT = 30 to config.py"', t1],
      ['Continue from "also remove DEBUG and create utils.py"', t2],
      ['Continue from "add TIMEOUT = 30 to config.py"', t1]
    ])
  })

  it('undoes back to an earlier entry and redoes forward to a later one, files with it', async () => {
    const h = await harness()
    const { a, b, c, t1 } = await threeActions(h)
    expect(disk(h)).toEqual(AT_T1)

    const back = await h.value<{ restored: string[]; deleted: string[] }>('timeline:walkTo', {
      id: a
    })
    expect((await entries(h)).map((e) => e.state)).toEqual(['done', 'undone', 'undone'])
    expect(disk(h)).toEqual(AT_T1)
    // Two steps: C undone (back to T2's files), then B undone (T1's again).
    expect(back.restored).toEqual(['config.py', 'config.py'])

    await h.value('timeline:walkTo', { id: b })
    expect((await entries(h)).map((e) => e.state)).toEqual(['done', 'done', 'undone'])
    expect(disk(h)).toEqual(AT_T2)

    await h.value('timeline:walkTo', { id: c })
    expect((await entries(h)).map((e) => e.state)).toEqual(['done', 'done', 'done'])
    expect(disk(h)).toEqual(AT_T1)
    expect(
      (await h.value<SessionGraph>('session:graph')).nodes.find((n) => n.id === t1)
    ).toMatchObject({
      onActivePath: true
    })

    // Where it stands already: nothing to do, nothing changed.
    expect(await h.value('timeline:walkTo', { id: c })).toEqual({
      restored: [],
      deleted: [],
      recreated: [],
      prefill: null
    })
  })

  it('stops with a typed error where a step cannot be taken, and for an unknown entry', async () => {
    const h = await harness()
    const { a, c } = await threeActions(h)
    await h.value('timeline:walkTo', { id: a })
    // A prompt sent since: the undone actions are out of redo's reach.
    await h.sendAndWait('only create utils.py and keep DEBUG')
    const before = disk(h)
    expect(await h.call('timeline:walkTo', { id: c })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/^Nothing was changed/) }
    })
    expect(disk(h)).toEqual(before)
    expect(await h.call('timeline:walkTo', { id: 'no-such-action' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
  })
})

describe('summaries the user asks for are timeline actions', () => {
  it('Undo takes Summarize up to / from here back, Redo brings the summary back, files untouched', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const graph = await h.value<SessionGraph>('session:graph')
    const second = graph.nodes[1]?.id as string
    const leafBefore = graph.leafUuid
    const upTo = await h.value<{ summaryUuid: string }>('summary:upToHere', { nodeId: second })
    const from = await h.value<{ summaryUuid: string }>('summary:fromHere', { nodeId: second })
    const listed = await entries(h)
    expect(listed.map((e) => [e.kind, e.label, e.state])).toEqual([
      ['summary', 'Summarize up to "also remove DEBUG and create utils.py"', 'done'],
      ['summary', 'Summarize from "also remove DEBUG and create utils.py"', 'done']
    ])
    expect((await h.value<SessionGraph>('session:graph')).undo?.label).toBe(listed[1]?.label)

    // Undo the "from here": the conversation is back on the compaction, at the branch's end.
    expect(await h.value('timeline:undo')).toMatchObject({ restored: [], deleted: [] })
    expect((await h.value<SessionGraph>('session:graph')).leafUuid).toBe(upTo.summaryUuid)
    await h.value('timeline:undo')
    const undone = await h.value<SessionGraph>('session:graph')
    expect(undone.leafUuid).toBe(leafBefore)
    expect(undone.nodes.find((n) => n.id === upTo.summaryUuid)?.onActivePath).toBe(false)
    expect(disk(h)).toEqual(AT_T2)

    await h.value('timeline:walkTo', { id: listed[1]?.id })
    expect((await h.value<SessionGraph>('session:graph')).leafUuid).toBe(from.summaryUuid)
    expect(disk(h)).toEqual(AT_T2)
  })
})
