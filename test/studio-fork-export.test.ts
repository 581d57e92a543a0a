// session:fork, session:forkPreview and session:export through the contract's handlers, as both
// transports call them, on the demo's scripted turns.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GraphUpdate } from '../src/shared/graph-encoding'
import { ExportModel } from '../src/core/export/export-model'
import { SessionStore } from '../src/core/session/store'
import type { AppInfo, ExportedFile, RewindPreview, SessionGraph } from '../src/shared/views'
import { studioHarnesses } from './support/studio-harness'

const { harness } = studioHarnesses()
const config = (workspace: string) => readFileSync(join(workspace, 'config.py'), 'utf8')

async function twoTurns() {
  const h = await harness()
  await h.sendAndWait('add TIMEOUT = 30 to config.py')
  await h.sendAndWait('also remove DEBUG and create utils.py')
  const graph = await h.value<SessionGraph>('session:graph')
  const [first, second] = graph.nodes.map((n) => n.id) as [string, string]
  const info = await h.value<AppInfo>('app:info')
  return { h, first, second, origin: info }
}

describe('studio fork', () => {
  it('forks at a node and opens the fork at once, leaving the files; the origin is unchanged', async () => {
    const { h, first, origin } = await twoTurns()
    const originLog = readFileSync(origin.sessionFile)
    const files = config(h.workspace)
    const info = await h.value<AppInfo>('session:fork', { nodeId: first })
    expect(info.sessionId).not.toBe(origin.sessionId)
    expect(config(h.workspace)).toBe(files)
    expect(readFileSync(origin.sessionFile)).toEqual(originLog)
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.sessionId).toBe(info.sessionId)
    expect(graph.nodes.map((n) => [n.id, n.title])).toEqual([
      [first, 'add TIMEOUT = 30 to config.py']
    ])
    expect(
      h.events.some(
        (e) =>
          e.event === 'session:graphUpdate' &&
          (e.payload as GraphUpdate).sessionId === info.sessionId
      )
    ).toBe(true)
    // The conversation goes on in the fork, after the node.
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    const store = SessionStore.open(info.sessionFile, { readOnly: true })
    expect(store.header.forkedFrom).toMatchObject({
      sessionId: origin.sessionId,
      file: origin.sessionFile
    })
    expect(store.tree().checkpoints()).toHaveLength(2)
    store.close()
  })

  it('previews restoring a node’s files, then forks with them restored; undo in the fork puts them back', async () => {
    const { h, first } = await twoTurns()
    const before = config(h.workspace)
    const preview = await h.value<RewindPreview>('session:forkPreview', { nodeId: first })
    expect(preview.restore.map((f) => f.path)).toEqual(['config.py'])
    expect(preview.delete.map((f) => f.path)).toEqual(['utils.py'])
    expect(config(h.workspace)).toBe(before)
    await h.value<AppInfo>('session:fork', { nodeId: first, restoreFiles: true })
    expect(config(h.workspace)).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.canUndo).toBe(true)
    await h.value('rewind:undo')
    expect(config(h.workspace)).toBe(before)
  })

  it('answers not_found for an unknown node and busy while the agent runs', async () => {
    const { h } = await twoTurns()
    expect(await h.call('session:fork', { nodeId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(await h.call('session:forkPreview', { nodeId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(await h.call('session:fork', { nodeId: 'x', restoreFiles: 'yes' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' }
    })
    const { sessionId } = await h.value<AppInfo>('app:info')
    const first = (await h.value<SessionGraph>('session:graph')).nodes[0]?.id
    // The agent is running from the moment agent:send answers.
    await h.value('agent:send', { prompt: 'add TIMEOUT = 30 to config.py' })
    expect(await h.call('session:fork', { nodeId: first })).toMatchObject({
      ok: false,
      error: { code: 'busy' }
    })
    expect((await h.value<AppInfo>('app:info')).sessionId).toBe(sessionId)
  })
})

describe('studio export', () => {
  it('answers the whole tree as HTML or JSON and a branch as Markdown, labels and all', async () => {
    const { h, first, second } = await twoTurns()
    await h.value('session:label', { nodeId: first, label: 'works' })
    const md = await h.value<ExportedFile>('session:export', { format: 'md', scope: 'branch' })
    expect(md.fileName).toMatch(/^rewind-studio-[\w-]+-branch\.md$/)
    expect(md.mimeType).toContain('text/markdown')
    expect(md.content).toContain('## 1. add TIMEOUT = 30 to config.py — label: works')
    expect(md.content).toContain('## 2. also remove DEBUG and create utils.py')
    const html = await h.value<ExportedFile>('session:export', { format: 'html', scope: 'all' })
    expect(html.content).toMatch(/^<!doctype html>/)
    const json = await h.value<ExportedFile>('session:export', {
      format: 'json',
      scope: 'branch',
      nodeId: second
    })
    const model = ExportModel.parse(JSON.parse(json.content))
    expect(model.nodes.map((n) => n.id)).toEqual([first, second])
    expect(await h.call('session:export', { format: 'pdf', scope: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' }
    })
    expect(
      await h.call('session:export', { format: 'md', scope: 'branch', nodeId: 'nope' })
    ).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})
