// Issue 26, item 9: "A FIFO where a session file is expected freezes the host: as a sub-agent
// transcript (…/subagents/agent-x.jsonl), as <session>.jsonl.lock, or as the newest *.jsonl
// (then `serve` never starts); SIGTERM does not end it. Every reader opens regular files only,
// without blocking."
//
// Each case is the real `serve` with a real FIFO (mkfifo) where it reads: it must come up, answer
// while the FIFO is there, leave the FIFO as it was, and end on SIGTERM. A blocked open froze the
// main thread, so the SIGTERM handler never ran either.
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { lockPath } from '../../src/core/session/lock'
import { sessionFileName, workspaceFolder } from '../../src/core/session/paths'
import type { GraphUpdate } from '../../src/shared/graph-encoding'
import type { AppInfo, SessionSummary } from '../../src/shared/views'
import { serve, type ServedApp } from '../../e2e/support/serve'
import { copyFixture, readLines, relocateToWorkspace, writeLines } from '../foreign/cc-fixtures'
import { connectStudio, type StudioSocket } from '../support/studio-socket'

let app: ServedApp | null = null
afterEach(() => {
  // A host that froze would never end on SIGTERM: it goes with SIGKILL.
  if (app?.alive() === true) process.kill(app.pid, 'SIGKILL')
  app = null
})

const mkfifo = (path: string) => execFileSync('mkfifo', [path])
const isFifo = (path: string) => lstatSync(path).isFIFO()

async function value<T>(studio: StudioSocket, channel: string, args?: unknown): Promise<T> {
  const reply = await studio.call(channel, args)
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.code}: ${reply.error.message}`)
  return reply.value as T
}

/** SIGTERM ends it (the host's own handler runs: nothing holds its main thread). */
async function endsOnSigterm(served: ServedApp): Promise<void> {
  await served.stop()
  expect(served.alive()).toBe(false)
}

describe('a FIFO where the host expects a session file', () => {
  it('as the newest *.jsonl of the workspace: serve starts on a session of its own, and ends on SIGTERM', async () => {
    let fifo = ''
    app = await serve({
      before: ({ workspace, home }) => {
        const folder = join(home, 'sessions', workspaceFolder(workspace))
        mkdirSync(folder, { recursive: true })
        fifo = join(
          folder,
          sessionFileName('2099-01-01T00:00:00.000Z', '01990000-0000-7000-8000-000000000000')
        )
        mkfifo(fifo)
      }
    })
    const studio = await connectStudio(app.url)
    // Only files are sessions: the FIFO is not listed, and the host writes a new session.
    const sessions = await value<SessionSummary[]>(studio, 'session:list')
    expect(sessions.map((s) => s.file)).not.toContain(fifo)
    const info = await value<AppInfo>(studio, 'app:info')
    expect(info.readOnlyReason).toBeNull()
    expect(info.sessionFile).not.toBe(fifo)
    expect(isFifo(fifo)).toBe(true)
    studio.close()
    await endsOnSigterm(app)
  }, 90_000)

  it('as the session’s writer lock: the session opens read-only, saying why, the FIFO untouched', async () => {
    const id = '01990000-0000-7000-8000-000000000001'
    let lock = ''
    app = await serve({
      before: ({ workspace, home }) => {
        const folder = join(home, 'sessions', workspaceFolder(workspace))
        mkdirSync(folder, { recursive: true })
        const file = join(folder, sessionFileName('2026-01-01T00:00:00.000Z', id))
        writeFileSync(
          file,
          `${JSON.stringify({
            type: 'session',
            uuid: id,
            parentUuid: null,
            timestamp: '2026-01-01T00:00:00.000Z',
            version: 1,
            sessionId: id,
            cwd: workspace
          })}\n`
        )
        lock = lockPath(file)
        mkfifo(lock)
      }
    })
    const studio = await connectStudio(app.url)
    const info = await value<AppInfo>(studio, 'app:info')
    expect(info.sessionId).toBe(id)
    expect(info.readOnlyReason).toBe(
      `${lock} is a FIFO (named pipe), not a writer lock; opened read-only: nothing will be appended`
    )
    // Opened again from the list: refused the same way, never waited on.
    expect(await studio.call('session:open', { sessionId: id })).toMatchObject({ ok: true })
    expect(isFifo(lock)).toBe(true)
    studio.close()
    await endsOnSigterm(app)
    expect(isFifo(lock)).toBe(true)
  }, 90_000)

  it('as a sub-agent transcript: the session opens without that run, and the host answers', async () => {
    const cc = relocateToWorkspace(copyFixture('compact-subagents'))
    const subagents = join(cc.file.replace(/\.jsonl$/, ''), 'subagents')
    const transcript = join(subagents, 'agent-a722bad0ba90f9261.jsonl')
    rmSync(transcript)
    mkfifo(transcript)
    app = await serve({
      workspace: cc.workspace,
      home: cc.home,
      env: { ...cc.env, REWIND_STUDIO_CLAUDE_HOME: cc.claudeHome }
    })
    const studio = await connectStudio(app.url)
    const opened = await value<AppInfo>(studio, 'session:openFile', { file: cc.file })
    expect(opened.foreign?.file).toBe(cc.file)
    const graph = await value<{ nodes: { kind: string }[] }>(studio, 'session:graph')
    // The fixture's two runs, less the one whose transcript is a FIFO.
    expect(graph.nodes.filter((n) => n.kind === 'subagent')).toHaveLength(1)
    expect(await value<AppInfo>(studio, 'app:info')).toMatchObject({ foreign: { file: cc.file } })
    expect(isFifo(transcript)).toBe(true)
    studio.close()
    await endsOnSigterm(app)
  }, 90_000)

  it('swapped in for a followed session file: the view stays, and follows the file once it is back', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    app = await serve({
      workspace: cc.workspace,
      home: cc.home,
      env: { ...cc.env, REWIND_STUDIO_CLAUDE_HOME: cc.claudeHome }
    })
    const studio = await connectStudio(app.url)
    await value<AppInfo>(studio, 'session:openFile', { file: cc.file })
    const nodes = async () => (await value<{ nodes: unknown[] }>(studio, 'session:graph')).nodes
    const shown = (await nodes()).length
    const lines = readLines(cc.file)
    const fifo = `${cc.file}.fifo`
    mkfifo(fifo)
    renameSync(fifo, cc.file)
    // The tail looks every 250 ms: four looks at the FIFO.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await value<AppInfo>(studio, 'app:info')).toMatchObject({ foreign: { file: cc.file } })
    // What was read stays shown: a FIFO is no new file to read from the start (it was, and the
    // view went empty).
    expect(await nodes()).toHaveLength(shown)
    // A file again, one prompt longer, as a writer replacing it would leave it.
    const last = lines.filter((l) => typeof l.uuid === 'string').at(-1)
    const prompt = lines.find((l) => l.type === 'user' && typeof l.message === 'object')
    const uuid = '0b3c52a4-1d5e-4c8e-9a51-5f3a5d0c7e12'
    const pushed = studio.events.length
    writeLines(`${cc.file}.new`, [
      ...lines,
      { ...prompt, uuid, parentUuid: last?.uuid, message: { role: 'user', content: 'back' } }
    ])
    renameSync(`${cc.file}.new`, cc.file)
    await studio.nextEvent(
      (event, payload) =>
        event === 'session:graphUpdate' &&
        studio.events.findIndex((e) => e.payload === payload) >= pushed &&
        JSON.stringify(payload as GraphUpdate).includes(uuid)
    )
    studio.close()
    await endsOnSigterm(app)
  }, 90_000)
})
