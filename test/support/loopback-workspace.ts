// A real workspace session (file history, rewind engine, agent) whose model is the real SDK
// posting to the loopback Messages server, as the tests of summaries and rewinds through the SDK
// use it. Each session opened is closed by closeLoopbackSessions (a test file's afterEach).
import type { SessionStore } from '../../src/core/session/store'
import { WorkspaceSession } from '../../src/core/workspace/workspace-session'
import { apiModel } from './agent-harness'

const opened: WorkspaceSession[] = []

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

export async function closeLoopbackSessions(): Promise<void> {
  for (const work of opened.splice(0)) await work.close()
}
