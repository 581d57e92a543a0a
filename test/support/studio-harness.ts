// The studio through its contract handlers, as both transports call them: the real session store,
// file history, rewind engine and agent (scripted demo model) on a temp workspace.
import { join } from 'node:path'
import { afterEach, expect } from 'vitest'
import type { EventChannel, Handlers, Reply } from '../../src/shared/contract'
import type { PermissionMode } from '../../src/shared/messages'
import type { AgentEvent } from '../../src/shared/views'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import { launchScriptedStudio } from './scripted-studio'
import type { Studio } from '../../src/core/studio/studio'
import { repoRoot, seedWorkspace } from './cli'

export interface Harness {
  studio: Studio
  handlers: Handlers
  workspace: string
  home: string
  events: { event: EventChannel; payload: unknown }[]
  call: (channel: string, args?: unknown) => Promise<Reply>
  value: <T>(channel: string, args?: unknown) => Promise<T>
  sendAndWait: (prompt: string) => Promise<void>
}

/**
 * For one test file: `harness()` opens a studio on a fresh seed workspace (each closed after its
 * test); `open` holds the studios to close, so a test can add one it launched itself.
 */
export function studioHarnesses(): {
  harness: (
    settingOverrides?: string[],
    permissionMode?: PermissionMode,
    model?: string,
    /** A workspace and data home of the test's own (default: a fresh seed workspace). */
    at?: { workspace: string; home: string }
  ) => Promise<Harness>
  open: Studio[]
} {
  const open: Studio[] = []
  afterEach(async () => {
    for (const studio of open.splice(0)) await studio.close()
  })
  return {
    harness: (settingOverrides, permissionMode, model, at) =>
      harness(open, settingOverrides, permissionMode, model, at),
    open
  }
}

async function harness(
  open: Studio[],
  settingOverrides: string[] = [],
  permissionMode: PermissionMode = 'acceptEdits',
  model = `scripted:${join(repoRoot, 'demo/scripted-model.json')}`,
  at: { workspace: string; home: string } = seedWorkspace()
): Promise<Harness> {
  const { workspace, home } = at
  const events: Harness['events'] = []
  const studio = await launchScriptedStudio({
    home,
    cwd: workspace,
    model,
    permissionMode,
    settingOverrides,
    emit: (event, payload) => events.push({ event, payload })
  })
  open.push(studio)
  const handlers = createHandlers(studio)
  const call = (channel: string, args: unknown = {}) => dispatch(handlers, channel, args, () => {})
  const value = async <T>(channel: string, args: unknown = {}) => {
    const reply = await call(channel, args)
    if (!reply.ok) throw new Error(`${channel}: ${reply.error.code} ${reply.error.message}`)
    return reply.value as T
  }
  const sendAndWait = async (prompt: string) => {
    const seen = events.length
    await value('agent:send', { prompt })
    // A turn takes well under a second, but on a loaded 2-core machine more than poll's default.
    await expect
      .poll(
        () =>
          events
            .slice(seen)
            .some(
              (e) =>
                e.event === 'agent:event' &&
                (e.payload as AgentEvent).type === 'status' &&
                !(e.payload as { running: boolean }).running
            ),
        { timeout: 20_000 }
      )
      .toBe(true)
  }
  return { studio, handlers, workspace, home, events, call, value, sendAndWait }
}
