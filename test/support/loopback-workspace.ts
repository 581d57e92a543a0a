// A real workspace session (file history, rewind engine, agent) whose model is the real SDK
// posting to the loopback Messages server, as the tests of summaries and rewinds through the SDK
// use it. The servers started and sessions opened here are closed by closeLoopback (a test
// file's afterEach).
import type { SessionStore } from '../../src/core/session/store'
import { WorkspaceSession } from '../../src/core/workspace/workspace-session'
import { apiModel } from './agent-harness'
import { type MessagesServer, type ServerStep, startMessagesServer } from './messages-server'

const opened: WorkspaceSession[] = []
const servers: MessagesServer[] = []

export async function startLoopbackServer(steps: ServerStep[]): Promise<MessagesServer> {
  const server = await startMessagesServer(steps)
  servers.push(server)
  return server
}

export async function openLoopbackSession(
  home: string,
  store: SessionStore,
  serverUrl: string
): Promise<WorkspaceSession> {
  const work = await WorkspaceSession.open({
    home,
    store,
    model: apiModel(serverUrl, 0),
    permissionMode: 'bypassPermissions',
    checkpointTools: false,
    bashSandbox: false,
    askPermission: async () => true,
    onEvent: () => undefined
  })
  opened.push(work)
  return work
}

/** Closes a session opened here before the test ends (a resume), so it is not closed twice. */
export async function closeLoopbackSession(work: WorkspaceSession): Promise<void> {
  opened.splice(opened.indexOf(work), 1)
  await work.close()
}

/** Closes the sessions, then the servers they post to. */
export async function closeLoopback(): Promise<void> {
  for (const work of opened.splice(0)) await work.close()
  for (const server of servers.splice(0)) await server.close()
}
