// Fork to new session: the conversation up to a node, in a new session the app opens at once.
// The files stay as they are unless the user also asks for that node's files (previewed first,
// then restored in the fork, where Undo puts them back; the restore's progress bar goes when the
// fork returns).
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import type { PreviewState } from '../stores/rewind-store'
import { restoreEnded } from '../stores/work-store'
import { previewOf } from './rewind'
import { switchSession } from './session'

/** What bringing the files to the node's state would change. */
export function loadForkPreview(nodeId: string): Promise<PreviewState> {
  return previewOf(() => getBridge().request('session:forkPreview', { nodeId }))
}

/** Forks at the node and opens the fork; false when the main process refused (reported). */
export async function forkNode(nodeId: string, restoreFiles: boolean): Promise<boolean> {
  const done = await switchSession(
    () => getBridge().request('session:fork', { nodeId, restoreFiles }),
    'Forking'
  ).finally(restoreEnded)
  if (done) {
    useAppStore
      .getState()
      .setStatus(
        restoreFiles
          ? 'Forked into a new session, with the files of that point'
          : 'Forked into a new session; the files are as they were'
      )
  }
  return done
}
