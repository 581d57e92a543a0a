// The contract's request handlers over a studio: one line each. Both hosts serve these same
// handlers; dispatch() has validated every argument before a handler runs.
import type { Handlers, WorkspaceChannel } from '../../shared/contract'
import { DismissedNotices } from './dismissed-notices'
import { mergeHandlers } from './merge-handlers'
import { parallelHandlers } from './parallel-handlers'
import { StudioError } from './studio-error'
import { shareHandlers } from './share-handlers'
import type { Studio } from './studio'

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
    'session:list': async () => studio.listSessions(),
    'projects:list': async () => studio.listProjects(),
    'session:open': ({ sessionId }) => studio.openSession(sessionId),
    'session:new': () => studio.newSession(),
    'session:openFile': ({ file }) => studio.openFile(file),
    'session:continueForeign': ({ nodeId }) => studio.continueForeign(nodeId),
    'rescue:preview': ({ nodeId }) => studio.previewRescue(nodeId),
    'rescue:apply': ({ nodeId }) => studio.applyRescue(nodeId),
    'session:graph': () => studio.graph(),
    'session:transcript': async ({ leafUuid }) => studio.transcript(leafUuid),
    'session:graphUpdate': ({ since }) => studio.graphUpdate(since),
    'session:transcriptRange': async ({ leafUuid, anchor, before, after }) =>
      studio.transcriptRange(leafUuid, anchor, before, after),
    'session:node': ({ nodeId }) => studio.node(nodeId),
    'session:searchIndex': async () => studio.searchIndex(),
    'session:label': async ({ nodeId, label }) => (studio.label(nodeId, label), ok),
    'session:fork': ({ nodeId, restoreFiles }) => studio.fork(nodeId, restoreFiles === true),
    'session:forkPreview': ({ nodeId }) => studio.previewFork(nodeId),
    'session:export': async ({ format, scope, nodeId }) => studio.export(format, scope, nodeId),
    'agent:send': async ({ prompt }) => (studio.send(prompt), ok),
    'agent:stop': async () => (await studio.stop(), ok),
    'agent:answerPermission': async ({ requestId, allow }) => (
      studio.answerPermission(requestId, allow),
      ok
    ),
    'rewind:preview': ({ checkpointUuid, mode }) => studio.previewRewind(checkpointUuid, mode),
    'rewind:apply': ({ checkpointUuid, mode, summary }) =>
      studio.rewind(checkpointUuid, mode, summary),
    'rewind:undo': () => studio.undo(),
    'branch:preview': ({ leafUuid }) => studio.previewSwitch(leafUuid),
    'rewind:fileDiff': async ({ path }) => studio.previewFileDiff(path),
    'branch:switch': ({ leafUuid, summary }) => studio.switchBranch(leafUuid, summary),
    'summary:fromHere': ({ nodeId, instructions }) =>
      studio.summarizeFromHere(nodeId, instructions),
    'summary:upToHere': ({ nodeId, instructions }) =>
      studio.summarizeUpToHere(nodeId, instructions),
    'summary:compact': ({ instructions }) => studio.compact(instructions),
    'session:checkpoints': async ({ leafUuid }) => studio.checkpoints(leafUuid),
    'continue:preview': ({ nodeId }) => studio.previewContinue(nodeId),
    'continue:apply': ({ nodeId, summary }) => studio.continueFrom(nodeId, summary),
    'timeline:list': () => studio.timeline(),
    'timeline:undo': () => studio.undo(),
    'timeline:redo': () => studio.redo(),
    compare: ({ a, b }) => studio.compare(a, b),
    'compare:file': ({ a, b, path }) => studio.compareFile(a, b, path),
    ...shareHandlers(studio),
    ...mergeHandlers(studio),
    ...parallelHandlers(() => studio.parallel()),
    'settings:get': async () => studio.settings(),
    'settings:set': (update) => studio.updateSettings(update)
  }
}
