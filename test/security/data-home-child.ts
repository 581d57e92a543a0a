// A separate process for data-home-private.test.ts, under umask 0 (nothing taken away from any
// mode a folder or file is created with): opens the studio on WORKSPACE with HOME as the data
// home, runs one turn of SCRIPT (a Read, a Write, a Bash command), rewinds it, saves a setting,
// closes, then runs gc as if two days had passed, so 16 idle blobs are packed (the rest stay
// loose).
// Usage: data-home-child.ts HOME WORKSPACE SCRIPT
import { collectGarbage, DEFAULT_RETENTION } from '../../src/core/rewind/retention'
import { workspaceFolder } from '../../src/core/session/paths'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import { launchScriptedStudio } from '../support/scripted-studio'
import type { AgentEvent, SessionGraph } from '../../src/shared/views'

const [home, cwd, script] = process.argv.slice(2)
if (home === undefined || cwd === undefined || script === undefined) {
  console.error('usage: data-home-child.ts HOME WORKSPACE SCRIPT')
  process.exit(2)
}
process.umask(0)

let turnEnded: () => void = () => undefined
const ended = new Promise<void>((resolve) => (turnEnded = resolve))
const studio = await launchScriptedStudio({
  home,
  cwd,
  model: `scripted:${script}`,
  permissionMode: 'bypassPermissions',
  session: { kind: 'new' },
  appRoot: process.cwd(),
  emit: (event, payload) => {
    const e = payload as AgentEvent
    if (event === 'agent:event' && e.type === 'status' && !e.running) turnEnded()
  }
})
const handlers = createHandlers(studio)
const call = async <T>(channel: string, args: unknown = {}): Promise<T> => {
  const reply = await dispatch(handlers, channel, args, () => undefined)
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.message}`)
  return reply.value as T
}
await call('agent:send', { prompt: 'rotate the token' })
await ended
const graph = await call<SessionGraph>('session:graph')
await call('rewind:apply', { checkpointUuid: graph.nodes[0]?.id, mode: 'both' })
await call('settings:set', { permissionMode: 'acceptEdits' })
await studio.close()
const report = await collectGarbage(home, workspaceFolder(cwd), DEFAULT_RETENTION, {
  now: Date.now() + 2 * 86_400_000,
  packLimit: 16
})
console.log(`DONE packed ${report.packedBlobs}`)
