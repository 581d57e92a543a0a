// Claude Code's "Summarize from here" and "Summarize up to here" on a prompt of the active
// branch. From here: the prompt and what follows become one summary and the prompt comes back to
// the composer; up to here: what comes before it becomes one summary (a compaction node), the
// later turns stay. No file changes; the explorer reloads so the new node shows at once.
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { attempt } from './report'
import { refreshAll } from './session'

export type SummaryDirection = 'from' | 'upTo'

/** Resolves true once the summary is made (the dialog then closes). */
export async function summarizeAt(
  direction: SummaryDirection,
  nodeId: string,
  instructions: string
): Promise<boolean> {
  const given = instructions.trim()
  const args = { nodeId, ...(given !== '' ? { instructions: given } : {}) }
  const app = useAppStore.getState()
  if (direction === 'from') {
    const result = await attempt('Summarizing from here', () =>
      getBridge().request('summary:fromHere', args)
    )
    if (result === null) return false
    app.prefillDraft(result.prefill)
    app.setStatus('Summarized from here: the prompt is back in the composer.')
  } else {
    const result = await attempt('Summarizing up to here', () =>
      getBridge().request('summary:upToHere', args)
    )
    if (result === null) return false
    app.setStatus('Summarized up to here: the later turns stay as they were.')
  }
  await refreshAll(true)
  return true
}
