// "Bring into this branch…" (core/merge): the preview of bringing a node of another branch into
// the branch the conversation is on (its files, its conclusions), and the merge once the user
// has confirmed the whole preview with a choice for every conflict. The explorer reloads so the
// merge node and its edge show at once; Undo takes the merge back.
import type { MergePreview, MergeResolution } from '../../../shared/merge-views'
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { restoreEnded } from '../stores/work-store'
import { attempt } from './report'
import { refreshAll } from './session'

export type MergePreviewState =
  | { state: 'loading' }
  | { state: 'ready'; preview: MergePreview }
  | { state: 'failed'; message: string }

export interface MergeAskState {
  nodeId: string
  files: boolean
  turn: boolean
}

export async function loadMergePreview(ask: MergeAskState): Promise<MergePreviewState> {
  try {
    return { state: 'ready', preview: await getBridge().request('merge:preview', ask) }
  } catch (error) {
    return { state: 'failed', message: error instanceof Error ? error.message : String(error) }
  }
}

/** Resolves true once the merge is made (the dialog then closes). */
export async function bringIn(
  ask: MergeAskState,
  conversation: { instructions: string } | null,
  resolutions: MergeResolution[]
): Promise<boolean> {
  const given = conversation?.instructions.trim() ?? ''
  const result = await attempt('Bringing it into this branch', () =>
    getBridge().request('merge:apply', {
      ...ask,
      ...(conversation === null
        ? {}
        : { conversation: given === '' ? {} : { instructions: given } }),
      resolutions
    })
  )
  restoreEnded()
  if (result === null) return false
  useAppStore
    .getState()
    .setStatus(
      `Brought into this branch: ${result.written} file${result.written === 1 ? '' : 's'} written. Undo takes it back.`
    )
  await refreshAll(true)
  return true
}
