// The explorer's channels (issue 12) through the contract, as both transports call them, on a
// three-branch session the scripted model writes: continue from a node of an abandoned branch
// and send a prompt, rewind on a prompt of an abandoned branch, the timeline's undo and redo,
// the two markers, the rewind picker's prompts, compare; and the typed refusals. Files are
// checked on disk after each step.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  CheckpointView,
  CompareView,
  RewindResult,
  SessionGraph,
  TimelineEntry
} from '../src/shared/views'
import { dispatch } from '../src/core/studio/dispatch'
import { createHandlers } from '../src/core/studio/handlers'
import { launchScriptedStudio } from './support/scripted-studio'
import { type Harness, studioHarnesses } from './support/studio-harness'

const { harness, open } = studioHarnesses()

const WITH_DEBUG = 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
const WITHOUT_DEBUG = 'TIMEOUT = 30\nHOST = "localhost"\n'

function disk(h: Harness) {
  const read = (rel: string) =>
    existsSync(join(h.workspace, rel)) ? readFileSync(join(h.workspace, rel), 'utf8') : null
  return { config: read('config.py'), utils: read('utils.py') !== null }
}

const graphOf = (h: Harness) => h.value<SessionGraph>('session:graph')

/**
 *   T1 add TIMEOUT ─┬─ T2 remove DEBUG + utils.py      abandoned
 *                   └─ T3 only utils.py, keep DEBUG     the leaf
 */
async function threeTurns(h: Harness) {
  await h.sendAndWait('add TIMEOUT = 30 to config.py')
  await h.sendAndWait('also remove DEBUG and create utils.py')
  const [t1, t2] = (await graphOf(h)).nodes.map((n) => n.id) as [string, string]
  await h.value('rewind:apply', { checkpointUuid: t2, mode: 'both' })
  await h.sendAndWait('only create utils.py and keep DEBUG')
  const t3 = (await graphOf(h)).nodes.find((n) => n.id !== t1 && n.id !== t2)?.id as string
  return { t1, t2, t3 }
}

describe('explorer: acting on any node', () => {
  it('continues from a node of an abandoned branch; the next prompt is its child, the files as it left them', async () => {
    const h = await harness()
    const { t2 } = await threeTurns(h)
    expect(disk(h)).toEqual({ config: WITH_DEBUG, utils: true })

    const preview = await h.value<{ restore: { path: string }[] }>('continue:preview', {
      nodeId: t2
    })
    expect(preview.restore.map((f) => f.path)).toEqual(['config.py'])
    const result = await h.value<RewindResult>('continue:apply', { nodeId: t2 })
    expect(result.restored).toEqual(['config.py'])
    expect(disk(h)).toEqual({ config: WITHOUT_DEBUG, utils: true })
    const moved = await graphOf(h)
    expect(moved.nodes.find((n) => n.id === t2)?.onActivePath).toBe(true)
    expect(moved.filesAt).toEqual({ nodeId: t2, changedSince: false })
    expect(moved.undo?.label).toBe('Continue from "also remove DEBUG and create utils.py"')

    await h.sendAndWait('hello there')
    const after = await graphOf(h)
    const newest = after.nodes.find((n) => n.title === 'hello there')
    expect(newest?.parentId).toBe(t2)
    expect(newest?.onActivePath).toBe(true)
    expect(disk(h)).toEqual({ config: WITHOUT_DEBUG, utils: true })
  })

  it('rewinds to before a prompt of an abandoned branch, in each mode', async () => {
    const h = await harness()
    const { t1, t2, t3 } = await threeTurns(h)
    await h.value('continue:apply', { nodeId: t2 })
    // T3 is now the abandoned one.
    const both = await h.value<RewindResult>('rewind:apply', { checkpointUuid: t3, mode: 'both' })
    expect(both.prefill).toBe('only create utils.py and keep DEBUG')
    expect(disk(h)).toEqual({ config: WITH_DEBUG, utils: false })
    const graph = await graphOf(h)
    expect(graph.nodes.filter((n) => n.onActivePath).map((n) => n.id)).toEqual([t1])
    expect(graph.filesAt.nodeId).toBe(t1)
    await h.value('timeline:undo')
    expect(disk(h)).toEqual({ config: WITHOUT_DEBUG, utils: true })

    const conversation = await h.value<RewindResult>('rewind:apply', {
      checkpointUuid: t3,
      mode: 'conversation'
    })
    expect(conversation.prefill).toBe('only create utils.py and keep DEBUG')
    expect(disk(h)).toEqual({ config: WITHOUT_DEBUG, utils: true })
    const parted = await graphOf(h)
    // The two markers part: the conversation is at T1, the files still at T2.
    expect(parted.nodes.filter((n) => n.onActivePath).map((n) => n.id)).toEqual([t1])
    expect(parted.filesAt).toEqual({ nodeId: t2, changedSince: false })
    await h.value('timeline:undo')

    const code = await h.value<RewindResult>('rewind:apply', { checkpointUuid: t3, mode: 'code' })
    expect(code.prefill).toBeNull()
    expect(disk(h)).toEqual({ config: WITH_DEBUG, utils: false })
    const codeOnly = await graphOf(h)
    expect(codeOnly.nodes.find((n) => n.id === t2)?.onActivePath).toBe(true)
    expect(codeOnly.filesAt.nodeId).toBe(t1)
  })

  it('lists the prompts of any branch for the rewind picker, by number and text', async () => {
    const h = await harness()
    const { t1, t2 } = await threeTurns(h)
    const abandoned = (await graphOf(h)).nodes.find((n) => n.id === t2)?.branchLeafUuid
    const prompts = await h.value<CheckpointView[]>('session:checkpoints', {
      leafUuid: abandoned
    })
    expect(prompts.map((p) => [p.index, p.uuid, p.prompt, p.filesChanged])).toEqual([
      [1, t1, 'add TIMEOUT = 30 to config.py', 1],
      [2, t2, 'also remove DEBUG and create utils.py', 2]
    ])
    const active = await h.value<CheckpointView[]>('session:checkpoints', { leafUuid: null })
    expect(active.map((p) => p.prompt)).toEqual([
      'add TIMEOUT = 30 to config.py',
      'only create utils.py and keep DEBUG'
    ])
  })
})

describe('explorer: the timeline', () => {
  it('undoes twice and redoes once, with the files on disk after each step and a hand edit brought back', async () => {
    const h = await harness()
    const { t1, t2 } = await threeTurns(h)
    await h.value('continue:apply', { nodeId: t2 })
    writeFileSync(join(h.workspace, 'config.py'), 'edited by hand\n')
    expect((await graphOf(h)).filesAt).toEqual({ nodeId: t2, changedSince: true })
    await h.value('continue:apply', { nodeId: t1 })
    expect(disk(h)).toEqual({
      config: 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n',
      utils: false
    })

    const entries = await h.value<TimelineEntry[]>('timeline:list')
    expect(entries.map((e) => [e.kind, e.label, e.state])).toEqual([
      [
        'rewind',
        'Rewind to before prompt 2 "also remove DEBUG and create utils.py" (code and conversation)',
        'done'
      ],
      ['continue', 'Continue from "also remove DEBUG and create utils.py"', 'done'],
      ['continue', 'Continue from "add TIMEOUT = 30 to config.py"', 'done']
    ])

    await h.value('timeline:undo')
    expect(disk(h)).toEqual({ config: 'edited by hand\n', utils: true })
    await h.value('rewind:undo')
    expect(disk(h)).toEqual({ config: WITH_DEBUG, utils: true })
    const twiceUndone = await graphOf(h)
    // The rewind before them was followed by a prompt: it is out of undo's reach.
    expect(twiceUndone.undo).toBeNull()
    expect(twiceUndone.canUndo).toBe(false)
    expect(twiceUndone.redo?.label).toBe('Continue from "also remove DEBUG and create utils.py"')

    await h.value('timeline:redo')
    expect(disk(h)).toEqual({ config: WITHOUT_DEBUG, utils: true })
    const states = await h.value<TimelineEntry[]>('timeline:list')
    expect(states.map((e) => e.state)).toEqual(['done', 'done', 'undone'])
    expect((await graphOf(h)).redo?.label).toBe('Continue from "add TIMEOUT = 30 to config.py"')
  })
})

describe('explorer: compare', () => {
  it('compares two nodes: the files that differ with diffs, the conversations from where they part', async () => {
    const h = await harness()
    const { t1, t2, t3 } = await threeTurns(h)
    const view = await h.value<CompareView>('compare', { a: t2, b: t3 })
    expect(view.a).toEqual({ ref: t2, title: 'also remove DEBUG and create utils.py' })
    expect(view.files.map((f) => [f.path, f.change])).toEqual([['config.py', 'modified']])
    expect(view.files[0]?.diff).toContain('+DEBUG = True')
    expect(view.conversation.ancestorId).toBe(t1)
    expect(view.conversation.a[0]).toMatchObject({ nodeId: t2, isPrompt: true })
    expect(view.conversation.b[0]).toMatchObject({ nodeId: t3, isPrompt: true })

    const before = await h.value<CompareView>('compare', { a: t1, b: t3 })
    expect(before.files.map((f) => [f.path, f.change])).toEqual([['utils.py', 'added']])
    const one = await h.value<{ diff: string }>('compare:file', { a: t1, b: t3, path: 'utils.py' })
    expect(one.diff).toContain('+def clamp')
  })

  it('compares a node with the current files, a hand edit included', async () => {
    const h = await harness()
    const { t3 } = await threeTurns(h)
    writeFileSync(join(h.workspace, 'config.py'), 'edited by hand\n')
    const view = await h.value<CompareView>('compare', { a: t3, b: 'current' })
    expect(view.b.title).toBe('Current files')
    expect(view.files.map((f) => [f.path, f.change])).toEqual([['config.py', 'modified']])
    expect(view.files[0]?.diff).toContain('+edited by hand')
    expect(view.conversation.a).toEqual([])
    expect(view.conversation.b).toEqual([])
  })
})

describe('explorer: refusals', () => {
  it('answers not_found for an unknown node, and nothing to undo or redo, changing nothing', async () => {
    const h = await harness()
    await threeTurns(h)
    const before = disk(h)
    for (const [channel, args] of [
      ['continue:preview', { nodeId: 'no-such-node' }],
      ['continue:apply', { nodeId: 'no-such-node' }],
      ['rewind:apply', { checkpointUuid: 'no-such-node', mode: 'both' }],
      ['compare', { a: 'no-such-node', b: 'current' }],
      ['session:checkpoints', { leafUuid: 'no-such-node' }],
      ['timeline:redo', {}]
    ] as const) {
      expect(await h.call(channel, args)).toMatchObject({ ok: false, error: { code: 'not_found' } })
    }
    expect(disk(h)).toEqual(before)
  })

  it('refuses to move while the agent runs (busy) and in a read-only window (read_only)', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const [t1] = (await graphOf(h)).nodes.map((n) => n.id) as [string]
    await h.value('settings:set', { permissionMode: 'default' })
    await h.value('agent:send', { prompt: 'also remove DEBUG and create utils.py' })
    await expect.poll(() => h.events.some((e) => e.event === 'agent:permission')).toBe(true)
    for (const [channel, args] of [
      ['continue:apply', { nodeId: t1 }],
      ['rewind:apply', { checkpointUuid: t1, mode: 'code' }],
      ['timeline:undo', {}],
      ['timeline:redo', {}]
    ] as const) {
      expect(await h.call(channel, args)).toMatchObject({ ok: false, error: { code: 'busy' } })
    }
    await h.value('agent:stop')

    const other = await launchScriptedStudio({
      home: h.home,
      cwd: h.workspace,
      permissionMode: undefined
    })
    open.push(other)
    const readOnly = createHandlers(other)
    for (const [channel, args] of [
      ['continue:apply', { nodeId: t1 }],
      ['timeline:undo', {}],
      ['timeline:redo', {}]
    ] as const) {
      expect(await dispatch(readOnly, channel, args)).toMatchObject({
        ok: false,
        error: { code: 'read_only' }
      })
    }
  })
})
