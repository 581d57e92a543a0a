// Point-and-click rewind, its undo, and switching to another branch. The dialog shows the preview
// the main process computes; Restore applies exactly that request, then the explorer reloads so
// the active path moves at once.
import { getBridge } from '../bridge'
import type { RewindMode } from '../../../shared/messages'
import type { RewindPreview, RewindResult } from '../../../shared/views'
import { activeTip } from '../graph/graph-view'
import { useAppStore } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import { useRewindStore, type PreviewState } from '../stores/rewind-store'
import { attempt } from './report'
import { refreshAll } from './session'

function describeResult(verb: string, result: RewindResult): string {
  const files = [
    result.restored.length > 0 ? `${result.restored.length} restored` : '',
    result.deleted.length > 0 ? `${result.deleted.length} deleted` : '',
    result.recreated.length > 0 ? `${result.recreated.length} recreated` : ''
  ].filter((part) => part !== '')
  return `${verb}. Files: ${files.length > 0 ? files.join(', ') : 'none changed'}.`
}

async function previewOf(load: () => Promise<RewindPreview>): Promise<PreviewState> {
  try {
    return { state: 'ready', preview: await load() }
  } catch (error) {
    return { state: 'failed', message: error instanceof Error ? error.message : String(error) }
  }
}

/** The turn a rewind picker opens on: the selected turn, else the active path's last turn. */
function defaultTarget(): string | null {
  const graph = useGraphStore.getState()
  const selected = graph.selectedId === null ? undefined : graph.nodesById.get(graph.selectedId)
  if (selected?.kind === 'turn') return selected.id
  const turns = graph.nodes.filter((node) => node.kind === 'turn')
  return activeTip(turns)
}

async function loadRewindPreview(): Promise<void> {
  const dialog = useRewindStore.getState().dialog
  if (dialog.kind !== 'rewind') return
  const { targetId, mode } = dialog
  const preview = await previewOf(() =>
    getBridge().request('rewind:preview', { checkpointUuid: targetId, mode })
  )
  useRewindStore
    .getState()
    .update((current) =>
      current.kind === 'rewind' && current.targetId === targetId && current.mode === mode
        ? { ...current, preview }
        : current
    )
}

/** A diff the preview left out (a big rewind lists its files without them). */
export async function loadPreviewDiff(path: string): Promise<string> {
  return (await getBridge().request('rewind:fileDiff', { path })).diff
}

export function openRewindPicker(targetId: string | null = defaultTarget()): void {
  if (targetId === null) {
    useAppStore.getState().notify('info', 'There is no turn to rewind to yet.')
    return
  }
  useRewindStore.getState().open({
    kind: 'rewind',
    targetId,
    mode: 'both',
    preview: { state: 'loading' },
    applying: false
  })
  void loadRewindPreview()
}

export function chooseRewind(change: { targetId?: string; mode?: RewindMode }): void {
  useRewindStore
    .getState()
    .update((dialog) =>
      dialog.kind === 'rewind' ? { ...dialog, ...change, preview: { state: 'loading' } } : dialog
    )
  void loadRewindPreview()
}

function setApplying(applying: boolean): void {
  useRewindStore
    .getState()
    .update((dialog) => (dialog.kind === 'closed' ? dialog : { ...dialog, applying }))
}

export async function applyRewind(): Promise<void> {
  const dialog = useRewindStore.getState().dialog
  if (dialog.kind !== 'rewind' || dialog.applying) return
  setApplying(true)
  const result = await attempt('Rewinding', () =>
    getBridge().request('rewind:apply', { checkpointUuid: dialog.targetId, mode: dialog.mode })
  )
  if (result === null) {
    setApplying(false)
    return
  }
  useRewindStore.getState().close()
  const app = useAppStore.getState()
  // The rewound prompt comes back to edit, with the focus on it.
  if (result.prefill !== null) app.prefillDraft(result.prefill)
  app.setStatus(describeResult('Rewound', result))
  await refreshAll(true)
}

export async function undoRewind(): Promise<void> {
  const result = await attempt('Undoing the rewind', () => getBridge().request('rewind:undo', {}))
  if (result === null) return
  const app = useAppStore.getState()
  app.dropStalePrefill()
  app.setStatus(describeResult('Rewind undone', result))
  await refreshAll()
}

export function openBranchSwitch(nodeId: string): void {
  const node = useGraphStore.getState().nodesById.get(nodeId)
  if (node === undefined) return
  const leafUuid = node.branchLeafUuid
  useRewindStore.getState().open({
    kind: 'switch',
    nodeId,
    leafUuid,
    preview: { state: 'loading' },
    applying: false
  })
  void previewOf(() => getBridge().request('branch:preview', { leafUuid })).then((preview) =>
    useRewindStore
      .getState()
      .update((current) =>
        current.kind === 'switch' && current.leafUuid === leafUuid
          ? { ...current, preview }
          : current
      )
  )
}

export async function applyBranchSwitch(): Promise<void> {
  const dialog = useRewindStore.getState().dialog
  if (dialog.kind !== 'switch' || dialog.applying) return
  setApplying(true)
  const result = await attempt('Switching branch', () =>
    getBridge().request('branch:switch', { leafUuid: dialog.leafUuid })
  )
  if (result === null) {
    setApplying(false)
    return
  }
  useRewindStore.getState().close()
  const app = useAppStore.getState()
  app.dropStalePrefill()
  app.setStatus(describeResult('Switched branch', result))
  await refreshAll()
}
