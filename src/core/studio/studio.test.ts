// The studio through its contract handlers, as both transports call them: the real session store,
// file history, rewind engine and agent (scripted demo model) on a temp workspace.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent, SessionGraph } from '../../shared/views'
import { dispatch } from './dispatch'
import { createHandlers } from './handlers'
import { launchScriptedStudio } from '../../../test/support/scripted-studio'
import { SessionStore } from '../session/store'
import { type Harness, studioHarnesses } from '../../../test/support/studio-harness'

const { harness, open } = studioHarnesses()

const config = (workspace: string) => readFileSync(join(workspace, 'config.py'), 'utf8')

describe('studio', () => {
  it('answers app:info and an empty graph for a new workspace session', async () => {
    const h = await harness()
    const info = await h.value<{ workspace: string; demo: boolean; readOnlyReason: null }>(
      'app:info'
    )
    expect(info).toMatchObject({ workspace: h.workspace, demo: true, readOnlyReason: null })
    expect((await h.value<SessionGraph>('session:graph')).nodes).toEqual([])
  })

  it('runs turns, draws them, rewinds with a preview, undoes, and switches branches', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    await h.sendAndWait('also remove DEBUG and create utils.py')
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')

    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.nodes.map((n) => [n.title, n.filesChanged, n.onActivePath])).toEqual([
      ['add TIMEOUT = 30 to config.py', 1, true],
      ['also remove DEBUG and create utils.py', 2, true]
    ])
    const second = graph.nodes[1]?.id as string
    const pushed = h.events.filter((e) => e.event === 'session:graphUpdate')
    expect(pushed.length).toBeGreaterThan(0)

    const detail = await h.value<{ files: { path: string; diff: string }[] }>('session:node', {
      nodeId: second
    })
    expect(detail.files.map((f) => f.path).sort()).toEqual(['config.py', 'utils.py'])
    expect(detail.files.find((f) => f.path === 'config.py')?.diff).toContain('-DEBUG = True')

    const preview = await h.value<{
      restore: { path: string; diff: string | null }[]
      delete: { path: string }[]
    }>('rewind:preview', { checkpointUuid: second, mode: 'both' })
    expect(preview.restore.map((f) => f.path)).toEqual(['config.py'])
    expect(preview.delete.map((f) => f.path)).toEqual(['utils.py'])
    // A diff asked for one file of the preview (what the dialog does for one it was sent without).
    const asked = await h.value<{ diff: string }>('rewind:fileDiff', { path: 'config.py' })
    expect(asked.diff).toBe(preview.restore[0]?.diff)
    const notInIt = await h.call('rewind:fileDiff', { path: 'README.md' })
    expect(notInIt.ok ? null : notInIt.error.code).toBe('not_found')
    const result = await h.value<{ prefill: string }>('rewind:apply', {
      checkpointUuid: second,
      mode: 'both'
    })
    expect(result.prefill).toBe('also remove DEBUG and create utils.py')
    expect(config(h.workspace)).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    const afterRewind = await h.value<SessionGraph>('session:graph')
    expect(afterRewind.canUndo).toBe(true)
    expect(afterRewind.nodes.find((n) => n.id === second)?.onActivePath).toBe(false)

    await h.value('rewind:undo')
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    expect((await h.value<SessionGraph>('session:graph')).nodes[1]?.onActivePath).toBe(true)

    // A new branch, then back to the abandoned one: its files come back with it.
    await h.value('rewind:apply', { checkpointUuid: second, mode: 'both' })
    await h.sendAndWait('only create utils.py and keep DEBUG')
    expect(config(h.workspace)).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    const branched = await h.value<SessionGraph>('session:graph')
    expect(branched.nodes).toHaveLength(3)
    const old = branched.nodes.find((n) => n.id === second)
    await h.value('branch:preview', { leafUuid: old?.branchLeafUuid })
    await h.value('branch:switch', { leafUuid: old?.branchLeafUuid })
    expect(config(h.workspace)).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
  })

  it('tells a page that connects mid-run that the agent runs and what it is waiting for', async () => {
    const h = await harness([], 'default')
    await h.value('agent:send', { prompt: 'add TIMEOUT = 30 to config.py' })
    await expect.poll(() => h.events.some((e) => e.event === 'agent:permission')).toBe(true)
    const info = await h.value<{ running: boolean; pendingPermissions: { requestId: string }[] }>(
      'app:info'
    )
    expect(info.running).toBe(true)
    expect(info.pendingPermissions).toHaveLength(1)
    expect(await h.call('agent:send', { prompt: 'again' })).toMatchObject({
      ok: false,
      error: { code: 'busy' }
    })
    await h.value('agent:answerPermission', {
      requestId: info.pendingPermissions[0]?.requestId,
      allow: true
    })
    await expect
      .poll(async () => (await h.value<{ running: boolean }>('app:info')).running)
      .toBe(false)
    expect(config(h.workspace)).toContain('TIMEOUT = 30')
  })

  it('tells every window when a permission question is answered or dropped by a stop', async () => {
    const h = await harness([], 'default')
    await h.value('agent:send', { prompt: 'add TIMEOUT = 30 to config.py' })
    const asked = () =>
      h.events
        .filter((e) => e.event === 'agent:permission')
        .map((e) => e.payload as { requestId: string })
    const resolved = () =>
      h.events
        .filter((e) => e.event === 'agent:permissionResolved')
        .map((e) => (e.payload as { requestId: string }).requestId)
    await expect.poll(() => asked().length).toBe(1)
    await h.value('agent:answerPermission', { requestId: asked()[0]?.requestId, allow: false })
    expect(resolved()).toEqual([asked()[0]?.requestId])

    await expect
      .poll(async () => (await h.value<{ running: boolean }>('app:info')).running)
      .toBe(false)
    await h.value('agent:send', { prompt: 'add TIMEOUT = 30 to config.py' })
    await expect.poll(() => asked().length).toBe(2)
    await h.value('agent:stop')
    expect(resolved()).toEqual(asked().map((request) => request.requestId))
  })

  it('labels a node, shows the label in the graph, and removes it', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const turn = (await h.value<SessionGraph>('session:graph')).nodes[0]?.id as string
    await h.value('session:label', { nodeId: turn, label: 'works' })
    expect((await h.value<SessionGraph>('session:graph')).nodes[0]?.label).toBe('works')
    await h.value('session:label', { nodeId: turn, label: null })
    expect((await h.value<SessionGraph>('session:graph')).nodes[0]?.label).toBeNull()
    expect(await h.call('session:label', { nodeId: 'nope', label: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(await h.call('session:label', { nodeId: turn, label: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' }
    })
  })

  it('refuses what it cannot do with typed errors and changes nothing', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const before = config(h.workspace)
    const missing = await h.call('rewind:apply', { checkpointUuid: 'no-such-turn', mode: 'both' })
    expect(missing).toMatchObject({ ok: false })
    const bad = await h.call('rewind:apply', { checkpointUuid: 'x', mode: 'both', extra: 1 })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_payload' } })
    expect(await h.call('session:node', { nodeId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(await h.call('agent:answerPermission', { requestId: 'r', allow: true })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(await h.call('rewind:fileDiff', { path: 'config.py' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(config(h.workspace)).toBe(before)
  })

  it('masks strings that look like API keys in a diff asked for from a preview', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const first = (await h.value<SessionGraph>('session:graph')).nodes[0]?.id
    // A key pasted by hand since the turn: the rewind's diff shows it going.
    const key = `sk-ant-api03-${'Xy7'.repeat(30)}AbCd`
    writeFileSync(join(h.workspace, 'config.py'), `${config(h.workspace)}API_KEY = "${key}"\n`)
    await h.value('rewind:preview', { checkpointUuid: first, mode: 'code' })
    const asked = await h.value<{ diff: string }>('rewind:fileDiff', { path: 'config.py' })
    expect(asked.diff).toContain('-API_KEY = "sk-ant-…(107 chars, masked)"')
    expect(asked.diff).not.toContain(key)
  })

  it('keeps settings, and offers the checkpoint tools once they are enabled', async () => {
    const h = await harness()
    expect(await h.value('settings:get')).toMatchObject({ checkpointEnabled: false })
    await h.value('settings:set', { checkpointEnabled: true, permissionMode: 'default' })
    expect(await h.value('settings:get')).toMatchObject({
      checkpointEnabled: true,
      permissionMode: 'default'
    })
    expect(JSON.parse(readFileSync(join(h.home, 'settings.json'), 'utf8'))).toMatchObject({
      checkpoint: { enabled: true },
      permissionMode: 'default'
    })
  })

  it('lists, creates and reopens sessions of the workspace', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const first = await h.value<{ sessionId: string }>('app:info')
    const second = await h.value<{ sessionId: string }>('session:new')
    expect(second.sessionId).not.toBe(first.sessionId)
    const list =
      await h.value<{ sessionId: string; prompts: number; current: boolean }[]>('session:list')
    expect(list.map((s) => [s.sessionId, s.prompts, s.current]).sort()).toEqual(
      [
        [first.sessionId, 1, false],
        [second.sessionId, 0, true]
      ].sort()
    )
    await h.value('session:open', { sessionId: first.sessionId })
    expect((await h.value<SessionGraph>('session:graph')).nodes).toHaveLength(1)
  })

  it('opens a session another process writes as read-only, and refuses to send or rewind', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const file = (await h.value<{ sessionFile: string }>('app:info')).sessionFile
    // A second studio in this process, like a second window: the lock is held.
    const other = await launchScriptedStudio({
      home: h.home,
      cwd: h.workspace,
      permissionMode: undefined
    })
    open.push(other)
    const handlers = createHandlers(other)
    const info = await dispatch(handlers, 'app:info', {})
    expect(info).toMatchObject({ ok: true, value: { sessionFile: file } })
    expect((info as { value: { readOnlyReason: string } }).value.readOnlyReason).toMatch(/\S/)
    expect(await dispatch(handlers, 'agent:send', { prompt: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'read_only' }
    })
    expect(SessionStore.list(h.home, h.workspace)).toHaveLength(1)
  })
})

/** A scripted model file in a temp dir: `rules` as the scripted model reads them. */
function scriptFile(rules: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  writeFileSync(file, JSON.stringify({ rules }))
  return `scripted:${file}`
}

const agentEvents = (h: Harness): AgentEvent[] =>
  h.events.flatMap((e) => (e.event === 'agent:event' ? [e.payload as AgentEvent] : []))

describe('studio under concurrent requests', () => {
  it('refuses a send, a second rewind, an undo, a new session and a settings change while a rewind is applied', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const first = (await h.value<SessionGraph>('session:graph')).nodes[0]?.id as string
    const rewinding = h.call('rewind:apply', { checkpointUuid: first, mode: 'both' })
    const racing = await Promise.all([
      h.call('agent:send', { prompt: 'add TIMEOUT = 30 to config.py' }),
      h.call('rewind:apply', { checkpointUuid: first, mode: 'both' }),
      h.call('rewind:undo'),
      h.call('session:new'),
      h.call('settings:set', { permissionMode: 'default' })
    ])
    for (const reply of racing) expect(reply).toMatchObject({ ok: false, error: { code: 'busy' } })
    expect(await rewinding).toMatchObject({ ok: true })
    expect(config(h.workspace)).toBe('DEBUG = True\nHOST = "localhost"\n')
    expect(SessionStore.list(h.home, h.workspace)).toHaveLength(1)
    expect(existsSync(join(h.home, 'settings.json'))).toBe(false)
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.nodes.map((n) => n.onActivePath)).toEqual([false])
  })

  it('refuses rewinds, switches, sessions and settings while the agent runs', async () => {
    const h = await harness()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const first = (await h.value<SessionGraph>('session:graph')).nodes[0]?.id as string
    const session = (await h.value<{ sessionId: string }>('app:info')).sessionId
    await h.value('settings:set', { permissionMode: 'default' })
    await h.value('agent:send', { prompt: 'also remove DEBUG and create utils.py' })
    await expect.poll(() => h.events.some((e) => e.event === 'agent:permission')).toBe(true)
    const replies = await Promise.all([
      h.call('rewind:apply', { checkpointUuid: first, mode: 'both' }),
      h.call('rewind:undo'),
      h.call('branch:switch', { leafUuid: first }),
      h.call('session:open', { sessionId: session }),
      h.call('session:new'),
      h.call('settings:set', { checkpointEnabled: true })
    ])
    for (const reply of replies) expect(reply).toMatchObject({ ok: false, error: { code: 'busy' } })
    await h.value('agent:stop')
  })

  it('takes a new prompt right after a stop, even while a stopped command is still dying', async () => {
    const model = scriptFile([
      {
        match: 'sleep',
        responses: [[{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 30' } }]]
      },
      { match: '', responses: [[{ type: 'text', text: 'fine' }]] }
    ])
    const h = await harness([], 'acceptEdits', model)
    await h.value('settings:set', { permissionMode: 'bypassPermissions' })
    await h.value('agent:send', { prompt: 'sleep a while' })
    await expect
      .poll(() => agentEvents(h).some((e) => e.type === 'tool_start' && e.name === 'Bash'))
      .toBe(true)
    await h.value('agent:stop')
    const seen = h.events.length
    expect(await h.call('agent:send', { prompt: 'and now?' })).toMatchObject({ ok: true })
    await expect
      .poll(() =>
        h.events
          .slice(seen)
          .some(
            (e) => e.event === 'agent:event' && JSON.stringify(e.payload).includes('"text":"fine"')
          )
      )
      .toBe(true)
    // Every call is answered in the log: the stopped Bash call has its (interrupted) result.
    const path = h.studio.info().sessionFile
    const log = readFileSync(path, 'utf8')
    expect(log).toContain('"tool_result"')
  })

  it('is harmless to stop when nothing runs', async () => {
    const h = await harness()
    expect(await h.call('agent:stop')).toMatchObject({ ok: true })
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    expect(config(h.workspace)).toContain('TIMEOUT = 30')
  })

  it('refuses a blank prompt with a typed error instead of a late notice', async () => {
    const h = await harness()
    expect(await h.call('agent:send', { prompt: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' }
    })
    expect(agentEvents(h).filter((e) => e.type === 'notice')).toEqual([])
  })

  it('tells the user once, not twice, that a turn ended with its checkpoint open', async () => {
    const model = scriptFile([
      {
        match: 'explore',
        responses: [
          [{ type: 'tool_use', name: 'checkpoint', input: { goal: 'look around' } }],
          [{ type: 'text', text: 'done 1' }],
          [{ type: 'text', text: 'done 2' }],
          [{ type: 'text', text: 'done 3' }],
          [{ type: 'text', text: 'done 4' }]
        ]
      }
    ])
    const h = await harness(['checkpoint.enabled=true'], 'acceptEdits', model)
    await h.sendAndWait('explore please')
    const warnings = agentEvents(h).filter((e) => e.type === 'notice' && e.level === 'warning')
    expect(warnings).toHaveLength(1)
  })

  it('refuses a model it cannot load, keeping the settings and a working studio', async () => {
    const h = await harness()
    const reply = await h.call('settings:set', { model: 'scripted:/no/such/script.json' })
    expect(reply).toMatchObject({ ok: false })
    expect((reply as { error: { message: string } }).error.message).toContain(
      '/no/such/script.json'
    )
    expect(existsSync(join(h.home, 'settings.json'))).toBe(false)
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    expect(config(h.workspace)).toContain('TIMEOUT = 30')
  })

  it('keeps the session writable when the page reopens the session it is on', async () => {
    const h = await harness()
    const { sessionId } = await h.value<{ sessionId: string }>('app:info')
    const info = await h.value<{ readOnlyReason: string | null }>('session:open', { sessionId })
    expect(info.readOnlyReason).toBeNull()
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    expect(config(h.workspace)).toContain('TIMEOUT = 30')
  })
})
