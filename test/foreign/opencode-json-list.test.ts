// The session list over OpenCode's older JSON storage (storage/session/<project>/<ses>.json, its
// messages and parts in files beside it), as another OpenCode writes it: the real sessions of
// test/fixtures/opencode (their exports, laid out as that storage), written message by message
// from a child process. The list is read again when the storage changes: a session's prompt
// count moves while its messages are written (the list of a followed session), and a session
// begun since appears; the same through the studio's session:list; and a session followed
// live shows what OpenCode writes again in place (a tool's part when the call completes).
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Sources } from '../../src/core/sources/discovery'
import { sourceHomes } from '../../src/core/sources/homes'
import { openCode } from '../../src/core/session/foreign/opencode'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import type { SessionSummary } from '../../src/shared/views'
import { launchScriptedStudio } from '../support/scripted-studio'
import { OPENCODE_FIRST, OPENCODE_FORK, codexHome, openCodeJsonHome } from './tool-homes'

/** The first step's `write` tool call (export-ses_dcbdb4ef9ffewnZlETLnMy6hQS.json). */
const WRITE_CALL = 'prt_23424db68001hHjRaF8g0WuzHt'

afterEach(() => {
  vi.unstubAllEnvs()
})

/** A workspace, our data home, and an OpenCode data home (JSON storage) with nothing in it yet. */
function homes() {
  const base = codexHome().base
  const openCodeHome = join(base, 'opencode')
  const env = { REWIND_STUDIO_OPENCODE_HOME: openCodeHome, REWIND_STUDIO_HOME: join(base, 'rs') }
  return { workspace: join(base, 'ws'), home: join(base, 'rs'), openCodeHome, env }
}

describe("the session list over OpenCode's JSON storage", () => {
  it('counts the prompts written since it was read, and lists a session begun since', () => {
    const h = homes()
    const first = openCodeJsonHome(h.workspace, h.openCodeHome)
    first.messages.slice(0, first.secondTurn).forEach(first.write)
    const sources = new Sources({
      home: h.home,
      homes: sourceHomes(h.home, h.env),
      persist: false
    })
    const listed = () =>
      sources
        .workspaceSessions(h.workspace)
        .filter((s) => s.source === 'opencode')
        .map((s) => [s.sessionId, s.summary.prompts])
    expect(listed()).toEqual([[OPENCODE_FIRST, 1]])
    // OpenCode goes on with the second prompt: its message files, no new session file.
    first.messages.slice(first.secondTurn).forEach(first.write)
    expect(listed()).toEqual([[OPENCODE_FIRST, 2]])
    // `opencode run --continue --fork`: a new session file, then its messages.
    const fork = openCodeJsonHome(h.workspace, h.openCodeHome, OPENCODE_FORK)
    expect(listed()).toContainEqual([OPENCODE_FORK, 0])
    fork.messages.forEach(fork.write)
    expect(listed()).toContainEqual([OPENCODE_FORK, 3])
    expect(listed()).toContainEqual([OPENCODE_FIRST, 2])
  })

  it('follows a tool call whose part OpenCode writes again in place when it completes', async () => {
    const h = homes()
    const first = openCodeJsonHome(h.workspace, h.openCodeHome)
    // The first step, as OpenCode has it while its `write` runs: the tool part's state "running".
    const step = first.messages[1]
    if (step === undefined) throw new Error('no first step')
    const running = {
      ...step,
      parts: step.parts.map((p) =>
        p.id === WRITE_CALL ? { ...p, state: { status: 'running', input: {}, time: {} } } : p
      )
    }
    first.write(first.messages[0] as typeof step)
    first.write(running)
    const session = new ViewedSession(first.sessionFile, openCode, {
      home: h.home,
      claudeHome: join(h.home, 'no-claude')
    })
    try {
      session.follow(() => undefined)
      expect(session.tree.has(`${WRITE_CALL}:result`)).toBe(false)
      first.write(step)
      await expect
        .poll(() => session.tree.has(`${WRITE_CALL}:result`), { timeout: 10_000 })
        .toBe(true)
    } finally {
      session.close()
    }
  })

  it("moves in the studio's session:list as OpenCode writes", async () => {
    const h = homes()
    for (const [name, value] of Object.entries(h.env)) vi.stubEnv(name, value)
    const first = openCodeJsonHome(h.workspace, h.openCodeHome)
    first.messages.slice(0, first.secondTurn).forEach(first.write)
    const studio = await launchScriptedStudio({ home: h.home, cwd: h.workspace })
    try {
      const handlers = createHandlers(studio)
      const list = async () => {
        const reply = await dispatch(handlers, 'session:list', {})
        if (!reply.ok) throw new Error(reply.error.message)
        return (reply.value as SessionSummary[])
          .filter((s) => s.source === 'opencode')
          .map((s) => s.prompts)
      }
      expect(await list()).toEqual([1])
      first.messages.slice(first.secondTurn).forEach(first.write)
      expect(await list()).toEqual([2])
      const fork = openCodeJsonHome(h.workspace, h.openCodeHome, OPENCODE_FORK)
      fork.messages.forEach(fork.write)
      expect((await list()).sort()).toEqual([2, 3])
    } finally {
      await studio.close()
    }
  })
})
