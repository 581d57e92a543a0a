// Sharing through git from the page: Share…'s preview and push of the session shown, and the
// Shared sessions list: the sessions the remote holds, one pulled and opened read-only. The work
// is the main process's (core/share); a failure is a notice in its words.
import { getBridge } from '../bridge'
import type { SharePreview, SharedList } from '../../../shared/share-views'
import { useAppStore } from '../stores/app-store'
import { formatBytes } from '../../../shared/prompt-limit'
import { attempt } from './report'
import { switchSession } from './session'

export interface ShareChoice {
  scope: 'all' | 'branch'
  /** The branch through this node (the active branch without it). */
  nodeId: string | null
  remote: string | null
}

const request = (choice: ShareChoice) => ({
  scope: choice.scope,
  ...(choice.scope === 'branch' && choice.nodeId !== null ? { nodeId: choice.nodeId } : {}),
  ...(choice.remote !== null ? { remote: choice.remote } : {})
})

export type SharePreviewState =
  | { state: 'loading' }
  | { state: 'ready'; preview: SharePreview }
  | { state: 'failed'; message: string }

/** What a push would send; its failure is the state, shown in the dialog. */
export async function loadSharePreview(choice: ShareChoice): Promise<SharePreviewState> {
  try {
    return { state: 'ready', preview: await getBridge().request('share:preview', request(choice)) }
  } catch (error) {
    return { state: 'failed', message: (error as Error).message }
  }
}

/** Pushes; false when the main process refused (reported). */
export async function pushShare(choice: ShareChoice): Promise<boolean> {
  const result = await attempt('Sharing', () => getBridge().request('share:push', request(choice)))
  if (result === null) return false
  useAppStore
    .getState()
    .setStatus(
      `Shared to ${result.remote}: ${result.sent.objects} objects, ${formatBytes(result.sent.bytes)} sent`
    )
  return true
}

export type SharedListState =
  { state: 'loading' } | { state: 'ready'; list: SharedList } | { state: 'failed'; message: string }

export async function loadShared(remote: string | null): Promise<SharedListState> {
  try {
    const list = await getBridge().request('share:list', remote === null ? {} : { remote })
    return { state: 'ready', list }
  } catch (error) {
    return { state: 'failed', message: (error as Error).message }
  }
}

/** Pulls a shared session and shows it read-only. */
export const openShared = (sessionId: string, remote: string) =>
  switchSession(
    () => getBridge().request('share:open', { sessionId, remote }),
    'Opening the shared session'
  )
