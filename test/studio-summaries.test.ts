// Summaries and compaction through the studio's contract handlers (the same handlers both
// transports call), with the scripted demo model on a temp workspace: leaving a branch with a
// summary (undone cleanly), the remembered choice, summarize from / up to here, busy while the
// agent runs, the context's size, automatic compaction drawn in the graph.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  AgentEvent,
  AppInfo,
  NodeDetail,
  SessionGraph,
  Settings,
  TranscriptEntry
} from '../src/shared/views'
import { startMessagesServer, withServerEnv } from './support/messages-server'
import { type Harness, studioHarnesses } from './support/studio-harness'

const { harness } = studioHarnesses()

const config = (workspace: string) => readFileSync(join(workspace, 'config.py'), 'utf8')

const agentEvents = (h: Harness): AgentEvent[] =>
  h.events.flatMap((e) => (e.event === 'agent:event' ? [e.payload as AgentEvent] : []))

describe('studio summaries and compaction', () => {
  it('leaves a branch with a summary: on the new position, linked in the graph, undone cleanly', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const [, second] = (await h.value<SessionGraph>('session:graph')).nodes
    const result = await h.value<{ summaryUuid: string; prefill: string }>('rewind:apply', {
      checkpointUuid: second?.id,
      mode: 'both',
      summary: { mode: 'summarize', instructions: 'mention utils.py' }
    })
    expect(result.prefill).toBe('also remove DEBUG and create utils.py')
    const graph = await h.value<SessionGraph>('session:graph')
    const summary = graph.nodes.find((n) => n.id === result.summaryUuid)
    expect(summary).toMatchObject({ kind: 'branch_summary', onActivePath: true })
    expect(summary?.title).toBe('Change config.py as the user asked.')
    expect(graph.summaryLinks).toEqual([{ from: second?.id, to: result.summaryUuid }])
    expect(graph.leafUuid).toBe(result.summaryUuid)
    expect(graph.filesAt).toEqual({ nodeId: result.summaryUuid, changedSince: false })
    const detail = await h.value<NodeDetail>('session:node', { nodeId: result.summaryUuid })
    expect(detail.summary).toMatchObject({
      readFiles: [],
      modifiedFiles: ['config.py', 'utils.py']
    })
    expect(detail.summary?.text).toContain('Modified: config.py, utils.py')

    // Undo: the files and the leaf go back to the branch left; the summary stays in the log.
    expect(graph.canUndo).toBe(true)
    await h.value('rewind:undo')
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    const after = await h.value<SessionGraph>('session:graph')
    expect(after.nodes.find((n) => n.id === result.summaryUuid)?.onActivePath).toBe(false)
    expect(after.leafUuid).not.toBe(result.summaryUuid)
  })

  it('remembers the choice in settings: a switch without one follows summary.onLeave', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const [first, second] = (await h.value<SessionGraph>('session:graph')).nodes
    // Without a choice and with the default ("ask": the app asks), no summary.
    const plain = await h.value<{ summaryUuid: string | null }>('rewind:apply', {
      checkpointUuid: second?.id,
      mode: 'conversation'
    })
    expect(plain.summaryUuid).toBeNull()
    await h.value('settings:set', { summaryOnLeave: 'summarize' })
    expect(await h.value<Settings>('settings:get')).toMatchObject({ summaryOnLeave: 'summarize' })
    expect(JSON.parse(readFileSync(join(h.home, 'settings.json'), 'utf8'))).toMatchObject({
      summary: { onLeave: 'summarize' }
    })
    const switched = await h.value<{ summaryUuid: string | null }>('branch:switch', {
      leafUuid: second?.branchLeafUuid
    })
    // The switch left the branch that ended on the first turn: nothing past the common point.
    expect(switched.summaryUuid).toBeNull()
    const back = await h.value<{ summaryUuid: string | null }>('rewind:apply', {
      checkpointUuid: first?.id,
      mode: 'conversation'
    })
    expect(back.summaryUuid).toEqual(expect.any(String))
  })

  it('summarizes up to here (a compaction node) and from here (the prompt comes back)', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const [, second] = (await h.value<SessionGraph>('session:graph')).nodes
    const upTo = await h.value<{ summaryUuid: string }>('summary:upToHere', {
      nodeId: second?.id,
      instructions: 'short'
    })
    let graph = await h.value<SessionGraph>('session:graph')
    expect(graph.nodes.find((n) => n.id === upTo.summaryUuid)).toMatchObject({
      kind: 'compaction',
      parentId: second?.id,
      onActivePath: true
    })
    const transcript = await h.value<TranscriptEntry[]>('session:transcript', { leafUuid: null })
    expect(transcript.at(-1)).toMatchObject({ role: 'summary', uuid: upTo.summaryUuid })
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')

    const from = await h.value<{ summaryUuid: string; prefill: string }>('summary:fromHere', {
      nodeId: second?.id
    })
    expect(from.prefill).toBe('also remove DEBUG and create utils.py')
    graph = await h.value<SessionGraph>('session:graph')
    expect(graph.leafUuid).toBe(from.summaryUuid)
    expect(graph.nodes.find((n) => n.id === second?.id)?.onActivePath).toBe(false)
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    // A prompt that is not on the active branch any more is refused, naming why.
    expect(await h.call('summary:upToHere', { nodeId: second?.id })).toMatchObject({
      ok: false,
      error: {
        code: 'not_found',
        message: expect.stringContaining('not a prompt on the active branch')
      }
    })
  })

  it('refuses a summary while the agent runs, and shows the context’s size', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const first = (await h.value<SessionGraph>('session:graph')).nodes[0]?.id as string
    expect((await h.value<AppInfo>('app:info')).contextUsage).toMatchObject({
      window: 200_000,
      estimated: true
    })
    await h.value('settings:set', { permissionMode: 'default' })
    await h.value('agent:send', { prompt: 'also remove DEBUG and create utils.py' })
    await expect.poll(() => h.events.some((e) => e.event === 'agent:permission')).toBe(true)
    for (const [channel, args] of [
      ['summary:upToHere', { nodeId: first }],
      ['summary:fromHere', { nodeId: first }],
      ['summary:compact', {}]
    ] as const) {
      expect(await h.call(channel, args)).toMatchObject({
        ok: false,
        error: { code: 'busy', message: 'The agent is working: stop it first.' }
      })
    }
    await h.value('agent:stop')
    expect(agentEvents(h).some((e) => e.type === 'context_usage')).toBe(true)
  })

  it('compacts with --setting compaction.contextWindow: the graph draws the compaction', async () => {
    const h = await harness(['compaction.contextWindow=3000', 'compaction.threshold=0.5'])
    expect(await h.value<Settings>('settings:get')).toMatchObject({
      contextWindow: 3000,
      compactionThreshold: 0.5
    })
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.nodes.some((n) => n.kind === 'compaction')).toBe(true)
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
  })
})

describe('continue from here with a summary', () => {
  it('summarizes the branch continue leaves; timeline undo and redo walk around the summary', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const [first, second] = (await h.value<SessionGraph>('session:graph')).nodes
    const result = await h.value<{ summaryUuid: string }>('continue:apply', {
      nodeId: first?.id,
      summary: { mode: 'summarize' }
    })
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.nodes.find((n) => n.id === result.summaryUuid)).toMatchObject({
      kind: 'branch_summary',
      parentId: first?.id,
      onActivePath: true
    })
    expect(graph.summaryLinks).toEqual([{ from: second?.id, to: result.summaryUuid }])
    // The summary changes no file: both markers on it (the UI sweep of stop 46 found the files'
    // on the turn above).
    expect(graph.filesAt).toEqual({ nodeId: result.summaryUuid, changedSince: false })
    expect(config(h.workspace)).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    expect(graph.undo).not.toBeNull()
    await h.value('timeline:undo')
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    const undone = await h.value<SessionGraph>('session:graph')
    expect(undone.nodes.find((n) => n.id === second?.id)?.onActivePath).toBe(true)
    expect(undone.nodes.find((n) => n.id === result.summaryUuid)?.onActivePath).toBe(false)
    // Redo makes the move again; the summary is not made twice.
    await h.value('timeline:redo')
    expect(config(h.workspace)).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    const redone = await h.value<SessionGraph>('session:graph')
    expect(redone.nodes.filter((n) => n.kind === 'branch_summary')).toHaveLength(1)
  })

  // The UI sweep (stop 46): a switch with a summary, undone, then the same switch again went to
  // the end of that branch, the first summary now, and put a second one after it: the model was
  // sent two summaries of the one branch left.
  it('a switch back to where an undone switch left its summary does not summarize the branch again', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const [first] = (await h.value<SessionGraph>('session:graph')).nodes
    const { summaryUuid } = await h.value<{ summaryUuid: string }>('continue:apply', {
      nodeId: first?.id,
      summary: { mode: 'summarize' }
    })
    await h.value('timeline:undo')
    const undone = await h.value<SessionGraph>('session:graph')
    const end = undone.nodes.find((n) => n.id === first?.id)?.branchLeafUuid
    expect(end).toBe(summaryUuid)
    const again = await h.value<{ summaryUuid: string | null }>('branch:switch', {
      leafUuid: end,
      summary: { mode: 'summarize' }
    })
    expect(again.summaryUuid).toBe(summaryUuid)
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.nodes.filter((n) => n.kind === 'branch_summary').map((n) => n.id)).toEqual([
      summaryUuid
    ])
    expect(graph.leafUuid).toBe(summaryUuid)
    expect(graph.filesAt).toEqual({ nodeId: summaryUuid, changedSince: false })
  })

  it('a redo of a continue that summarized the branch left lands on the summary: the next prompt goes on after it', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    const [first, second] = (await h.value<SessionGraph>('session:graph')).nodes
    const { summaryUuid } = await h.value<{ summaryUuid: string }>('continue:apply', {
      nodeId: first?.id,
      summary: { mode: 'summarize' }
    })
    await h.value('timeline:undo')
    await h.value('timeline:redo')
    const redone = await h.value<SessionGraph>('session:graph')
    expect(redone.nodes.find((n) => n.id === summaryUuid)?.onActivePath).toBe(true)
    // Undo and redo still walk it from there.
    expect(redone.undo).not.toBeNull()
    await h.value('timeline:undo')
    expect(
      (await h.value<SessionGraph>('session:graph')).nodes.find((n) => n.id === second?.id)
        ?.onActivePath
    ).toBe(true)
    await h.value('timeline:redo')
    await h.sendAndWait('only create utils.py and keep DEBUG')
    const after = await h.value<SessionGraph>('session:graph')
    const next = after.nodes.find((n) => n.title === 'only create utils.py and keep DEBUG')
    expect(next?.parentId).toBe(summaryUuid)
    expect(after.nodes.find((n) => n.id === summaryUuid)?.onActivePath).toBe(true)
  })
})

describe('tokens in the inspector and the header, through the real SDK', () => {
  it('gives each turn the usage its answers carry, and the context from the last one', async () => {
    const server = await startMessagesServer(
      [
        {
          kind: 'message',
          content: [
            { type: 'tool_use', id: 'tu_1', name: 'Read', input: { file_path: 'config.py' } }
          ]
        },
        { kind: 'message', content: [{ type: 'text', text: 'It has DEBUG and HOST.' }] }
      ],
      { usage: 'body-size' }
    )
    await withServerEnv(server, async () => {
      const h = await harness([], 'acceptEdits', 'claude-test')
      await h.sendAndWait('what is in config.py?')
      const [turn] = (await h.value<SessionGraph>('session:graph')).nodes
      const detail = await h.value<NodeDetail>('session:node', { nodeId: turn?.id })
      const sizes = server.requests.map((r) => Math.ceil(r.raw.length / 4))
      expect(detail.usage).toEqual({
        requests: 2,
        inputTokens: (sizes[0] ?? 0) + (sizes[1] ?? 0),
        outputTokens: 10,
        cacheReadTokens: 0,
        cacheCreationTokens: 0,
        contextTokens: (sizes[1] ?? 0) + 5
      })
      const info = await h.value<AppInfo>('app:info')
      expect(info.contextUsage).toEqual({
        tokens: (sizes[1] ?? 0) + 5,
        window: 200_000,
        estimated: false
      })
      const pushed = agentEvents(h).filter((e) => e.type === 'context_usage')
      expect(pushed.at(-1)).toEqual({ type: 'context_usage', usage: info.contextUsage })
    })
  })
})
