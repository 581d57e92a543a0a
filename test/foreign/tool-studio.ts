// A studio over a workspace holding another tool's sessions (tool-homes.ts, cc-fixtures.ts),
// called through the contract's handlers as both transports call them, with the tool's home in
// the environment as the hosts find it, and the events it pushes kept. Every studio opened is
// closed, and the environment put back, after each test.
import { afterEach } from 'vitest'
import type { EventChannel, Reply } from '../../src/shared/contract'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import type { Studio } from '../../src/core/studio/studio'
import { launchScriptedStudio } from '../support/scripted-studio'

const opened: Studio[] = []
const saved: Record<string, string | undefined> = {}
afterEach(async () => {
  for (const studio of opened.splice(0)) await studio.close()
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
    delete saved[key]
  }
})

/** `tool`: our data home and the workspace; `env`: where the tool's home is. */
export async function studioOver(
  tool: { home: string; workspace: string },
  env: Record<string, string>
) {
  for (const [key, value] of Object.entries(env)) {
    if (!(key in saved)) saved[key] = process.env[key]
    process.env[key] = value
  }
  const events: { event: EventChannel; payload: unknown }[] = []
  const studio = await launchScriptedStudio({
    home: tool.home,
    cwd: tool.workspace,
    emit: (event, payload) => events.push({ event, payload })
  })
  opened.push(studio)
  const handlers = createHandlers(studio)
  const call = (channel: string, args: unknown = {}): Promise<Reply> =>
    dispatch(handlers, channel, args, () => {})
  const value = async <T>(channel: string, args: unknown = {}): Promise<T> => {
    const reply = await call(channel, args)
    if (!reply.ok) throw new Error(`${channel}: ${reply.error.code} ${reply.error.message}`)
    return reply.value as T
  }
  return { studio, events, call, value }
}
