// Bookmarks: a label on a node, kept in the session log. The graph and an open inspector are
// read back at once, so the new label shows everywhere without waiting for an event.
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { attempt } from './report'
import { refreshDetailIfShown, refreshGraph } from './session'

export async function labelNode(nodeId: string, label: string | null): Promise<boolean> {
  const done = await attempt(label === null ? 'Removing the label' : 'Saving the label', () =>
    getBridge().request('session:label', { nodeId, label })
  )
  if (done === null) return false
  useAppStore.getState().setStatus(label === null ? 'Label removed' : `Labelled "${label}"`)
  await refreshGraph()
  await refreshDetailIfShown()
  return true
}
