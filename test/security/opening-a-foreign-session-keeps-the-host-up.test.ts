// Issue 26, item 8: "Opening a pi session kills the server (critical). With REWIND_STUDIO_PI_HOME
// holding the corpus pi file (its cwd set to the workspace), `npm start -- --cwd DIR`, click the
// pi session in the list: the process exits with an uncaught `RewindError: pi keeps no backups…`
// thrown from the session's timeline while the graph is built; every tab shows 'connection
// closed'. No request may take the host down."
//
// The graph of a session is built when it opens and pushed to every page; no request awaits the
// push, so its failure ended the process. Here the real `serve` opens each format in turn, as
// the page does, and must still answer afterwards, its graph pushed.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { companionDir } from '../../src/core/rewind/companion-log'
import type { GraphUpdate } from '../../src/shared/graph-encoding'
import { serve, type ServedApp } from '../../e2e/support/serve'
import { everyFormatHomes } from '../foreign/every-format-homes'
import { connectStudio } from '../support/studio-socket'

let app: ServedApp | null = null
afterEach(async () => {
  await app?.stop()
  app = null
})

describe('opening another tool’s session in the served app', () => {
  it('keeps the host up and pushes the graph, for Claude Code, pi and oh-my-pi alike', async () => {
    const homes = everyFormatHomes()
    app = await serve({ workspace: homes.workspace, home: homes.home, env: homes.env })
    const studio = await connectStudio(app.url)
    const listed = await studio.call('session:list')
    expect(listed.ok).toBe(true)
    for (const [format, file] of Object.entries(homes.files)) {
      const pushed = studio.events.length
      const opened = await studio.call('session:openFile', { file })
      expect(opened, format).toMatchObject({ ok: true, value: { foreign: { format, file } } })
      // The push that ended the host: the graph built for every page once the session opened.
      const update = (await studio.nextEvent(
        (event, payload) =>
          event === 'session:graphUpdate' &&
          studio.events.findIndex((e) => e.payload === payload) >= pushed
      )) as GraphUpdate
      expect(update, format).toBeDefined()
      const graph = await studio.call('session:graph')
      expect(graph.ok, `${format}: ${JSON.stringify(graph)}`).toBe(true)
      if (graph.ok)
        expect((graph.value as { nodes: unknown[] }).nodes.length, format).toBeGreaterThan(0)
      expect((await studio.call('timeline:list')).ok, format).toBe(true)
      expect(app.alive(), app.output()).toBe(true)
    }
    studio.close()
  }, 90_000)

  it('says so in a notice when the graph cannot be built, and goes on answering', async () => {
    const homes = everyFormatHomes()
    const file = homes.files['claude-code']
    // The log of its rescue restores, which the graph reads, damaged: a folder.
    mkdirSync(join(companionDir(homes.home, { file, format: 'claude-code' }), 'companion.jsonl'), {
      recursive: true
    })
    app = await serve({ workspace: homes.workspace, home: homes.home, env: homes.env })
    const studio = await connectStudio(app.url)
    expect(await studio.call('session:openFile', { file })).toMatchObject({ ok: true })
    const notice = (await studio.nextEvent(
      (event, payload) => event === 'agent:event' && (payload as { type: string }).type === 'notice'
    )) as { level: string; message: string }
    expect(notice.level).toBe('error')
    expect(notice.message).toMatch(/^The session's graph could not be drawn: .*companion\.jsonl/)
    expect(await studio.call('app:info')).toMatchObject({ ok: true, value: { foreign: { file } } })
    expect(app.alive(), app.output()).toBe(true)
    studio.close()
  }, 90_000)
})
