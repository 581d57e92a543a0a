// The contract's request handlers over a studio. Each section of the studio brings the handlers of
// its channels from its own module (tree, agent, rewinds, summaries, sessions, another tool's
// sessions, share, merge): a new capability joins with a module of its own and one line here. Both
// hosts serve these same handlers; dispatch() has validated every argument before a handler runs.
// The spread is typed as the whole contract: a channel no section answers is a compile error.
import type { Handlers, WorkspaceChannel } from '../../shared/contract'
import { agentHandlers } from './agent-handlers'
import { DismissedNotices } from './dismissed-notices'
import { foreignHandlers } from './foreign-handlers'
import { mergeHandlers } from './merge-handlers'
import { rewindHandlers } from './rewind-handlers'
import { sessionHandlers } from './session-handlers'
import { StudioError } from './studio-error'
import { shareHandlers } from './share-handlers'
import type { Studio } from './studio'
import { summaryHandlers } from './summary-handlers'
import { treeHandlers } from './tree-handlers'

const ok = { ok: true as const }

/** What a host answers itself (workspace-host.ts): which folder is open. */
export type WorkspaceHandlers = Pick<Handlers, WorkspaceChannel>

const noWorkspaceSwitch = async (): Promise<never> => {
  throw new StudioError('unavailable', 'This host opens one workspace: restart it on another.')
}

/** A studio on its own, without a WorkspaceHost (the tests' harness). */
const oneWorkspace: WorkspaceHandlers = {
  'workspace:open': noWorkspaceSwitch,
  'workspace:recent': noWorkspaceSwitch,
  'workspace:pick': noWorkspaceSwitch,
  'fs:complete': noWorkspaceSwitch
}

/**
 * `dismissed`: the warnings a page dismissed, kept by the host across its studios (a WorkspaceHost
 * holds one), so no page of it shows them again.
 */
export function createHandlers(
  studio: Studio,
  workspaces: WorkspaceHandlers = oneWorkspace,
  dismissed: DismissedNotices = new DismissedNotices()
): Handlers {
  return {
    ...workspaces,
    'app:info': async () => dismissed.shown(studio.info()),
    'notice:dismiss': async ({ message }) => (dismissed.dismiss(message, studio.info()), ok),
    ...treeHandlers(studio.tree),
    ...agentHandlers(studio.agent),
    ...rewindHandlers(studio, studio.foreign),
    ...summaryHandlers(studio),
    ...sessionHandlers(studio),
    ...foreignHandlers(studio.foreign),
    ...shareHandlers(studio),
    ...mergeHandlers(studio)
  }
}
