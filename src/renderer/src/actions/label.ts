// Bookmarks: a label on a node, kept in the session log; the graph redraws from the main
// process's next session:graph event.
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { attempt } from './report'

export async function labelNode(nodeId: string, label: string | null): Promise<boolean> {
  const done = await attempt(label === null ? 'Removing the label' : 'Saving the label', () =>
    getBridge().request('session:label', { nodeId, label })
  )
  if (done !== null)
    useAppStore.getState().setStatus(label === null ? 'Label removed' : `Labelled "${label}"`)
  return done !== null
}
