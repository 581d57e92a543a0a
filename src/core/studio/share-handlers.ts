// The contract's share channels over a studio (core/share does the work): Share… previews and
// pushes the session shown, Shared sessions lists the remote's and opens one, pulled, read-only.
// Only a session of ours is shared: another tool's (shown read-only) and a pulled one (someone
// else's, already on the remote) are refused.
import { existsSync } from 'node:fs'
import type { Handlers } from '../../shared/contract'
import type { SharePreview } from '../../shared/share-views'
import type { AppInfo } from '../../shared/views'
import { pulledFile, pulledIds } from '../share/pulled'
import { listShared } from '../share/list'
import { pullSession } from '../share/pull'
import { type PushOptions, previewPush, pushSession } from '../share/push'
import { ShareError } from '../share/git'
import { StudioError } from './studio-error'
import { openPulled } from './session-handlers'
import type { StudioContext } from './studio-context'

type ShareChannel = 'share:preview' | 'share:push' | 'share:list' | 'share:open'

export function shareHandlers(studio: StudioContext): Pick<Handlers, ShareChannel> {
  return {
    'share:preview': async (request) => previewPush(await pushRequest(studio, request)),
    'share:push': async (request) => pushSession(await pushRequest(studio, request)),
    'share:list': ({ remote }) =>
      listShared({ home: studio.home, workspace: studio.info().workspace, remote }),
    'share:open': ({ sessionId, remote }) => openShared(studio, sessionId, remote)
  }
}

async function pushRequest(
  studio: StudioContext,
  request: {
    scope: SharePreview['scope']
    nodeId?: string | undefined
    remote?: string | undefined
  }
): Promise<PushOptions> {
  const info = studio.info()
  if (info.foreign !== null || info.shared != null) {
    throw new StudioError(
      'read_only',
      info.foreign !== null
        ? `This is a ${info.foreign.format} session: only sessions of Rewind Studio are shared. Continue it in Rewind Studio first.`
        : 'This session was pulled from a remote: it is shared there already. Fork it to share a session of your own.'
    )
  }
  // A new session's log is written with its first prompt: until then there is nothing to send.
  if (!existsSync(info.sessionFile)) {
    throw new StudioError(
      'conflict',
      'Nothing to share yet: this session has no prompt. Send one, then share it.'
    )
  }
  let leafUuid: string | null = null
  if (request.scope === 'branch' && request.nodeId !== undefined) {
    const node = (await studio.graph()).nodes.find((n) => n.id === request.nodeId)
    if (node === undefined)
      throw new StudioError('not_found', `No node ${request.nodeId} in this graph.`)
    if (!node.onActivePath) leafUuid = node.branchLeafUuid
  }
  return {
    home: studio.home,
    file: info.sessionFile,
    workspace: info.workspace,
    remote: request.remote,
    // The active branch: its leaf is read with the log, at the push.
    scope: request.scope === 'all' ? { kind: 'all' } : { kind: 'branch', leafUuid }
  }
}

/**
 * Pulls the session and shows it. Offline (or the remote gone), a copy pulled before still opens,
 * saying it could not be brought up to date.
 */
async function openShared(
  studio: StudioContext,
  id: string,
  remote: string | undefined
): Promise<AppInfo> {
  const info = studio.info()
  if (info.running) throw new StudioError('busy', 'The agent is working: stop it first.')
  const notices: string[] = []
  let file: string
  try {
    const pulled = await pullSession({
      home: studio.home,
      workspace: info.workspace,
      remote,
      sessionId: id
    })
    file = pulled.file
    notices.push(
      ...pulled.problems.slice(0, 5).map((problem) => `From the shared session: ${problem}`)
    )
  } catch (error) {
    const unreachable = error instanceof ShareError && error.code === 'unavailable'
    if (!unreachable || !pulledIds(studio.home, info.workspace).includes(id)) throw error
    file = pulledFile(studio.home, info.workspace, id)
    notices.push(
      `Could not bring it up to date (${error.message}): this is the copy pulled before.`
    )
  }
  return openPulled(studio, file, notices)
}
