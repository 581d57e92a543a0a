// Point-and-click rewind, switching to another branch, continuing from any node, and walking the
// timeline back and forth (Undo / Redo). The dialog shows the preview the main process computes;
// its confirm button applies exactly that request, then the explorer reloads so the active path
// and the markers move at once.
import { getBridge } from '../bridge'
import type { RewindMode } from '../../../shared/messages'
import type {
  CheckpointView,
  LeaveChoice,
  RewindPreview,
  RewindResult,
  TimelineEntry
} from '../../../shared/views'
import { keepFocus } from '../focus'
import { activeTip } from '../graph/graph-view'
import { useAppStore } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import {
  NO_SUMMARY,
  useRewindStore,
  type LeaveState,
  type MoveKind,
  type PreviewState
} from '../stores/rewind-store'
import { restoreEnded } from '../stores/work-store'
import { attempt } from './report'
import { refreshAll } from './session'
import { refreshRuns } from './parallel'
import { saveSettings } from './settings'

/** After the page redraws, the focus stays usable: see focus.ts. */
function refocusFrom(from: Element | null): void {
  keepFocus(from, () => useGraphStore.getState().selectedId)
}

function describeResult(verb: string, result: RewindResult): string {
  const files = [
    result.restored.length > 0 ? `${result.restored.length} restored` : '',
    result.deleted.length > 0 ? `${result.deleted.length} deleted` : '',
    result.recreated.length > 0 ? `${result.recreated.length} recreated` : ''
  ].filter((part) => part !== '')
  const summary = result.summaryUuid ? ' The branch left is summarized.' : ''
  return `${verb}. Files: ${files.length > 0 ? files.join(', ') : 'none changed'}.${summary}`
}

/**
 * The remembered choice for the branch a move leaves (setting summary.onLeave), put into the
 * dialog unless the user chose already: "summarize" preselects Summarize; "ask" and "none" No
 * summary.
 */
async function preselectLeave(): Promise<void> {
  const settings = await attempt('Loading settings', () => getBridge().request('settings:get', {}))
  if (settings?.summaryOnLeave !== 'summarize') return
  useRewindStore
    .getState()
    .update((dialog) =>
      dialog.kind !== 'closed' && dialog.leave === NO_SUMMARY
        ? { ...dialog, leave: { ...NO_SUMMARY, choice: 'summarize' } }
        : dialog
    )
}

export function chooseLeave(change: Partial<LeaveState>): void {
  useRewindStore
    .getState()
    .update((dialog) =>
      dialog.kind === 'closed' ? dialog : { ...dialog, leave: { ...dialog.leave, ...change } }
    )
}

/** The request's choice for the branch left; with "remember", saved as the setting first. */
async function leaveRequest(leave: LeaveState): Promise<LeaveChoice> {
  if (leave.remember) {
    await saveSettings({ summaryOnLeave: leave.choice === 'none' ? 'none' : 'summarize' })
  }
  if (leave.choice === 'none') return { mode: 'none' }
  const instructions = leave.choice === 'instructions' ? leave.instructions.trim() : ''
  return { mode: 'summarize', ...(instructions !== '' ? { instructions } : {}) }
}

/** A preview request as the dialogs show it: loaded, or why there is none. */
export async function previewOf(load: () => Promise<RewindPreview>): Promise<PreviewState> {
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

/**
 * The prompts of the target's branch, numbered along it (the branch the graph draws through the
 * target when it is off the active path), for the picker's list.
 */
async function loadRewindChoices(targetId: string): Promise<void> {
  const node = useGraphStore.getState().nodesById.get(targetId)
  const leafUuid = node === undefined || node.onActivePath ? null : node.branchLeafUuid
  const choices = await attempt('Listing the prompts of the branch', () =>
    getBridge().request('session:checkpoints', { leafUuid })
  )
  if (choices === null) return
  useRewindStore
    .getState()
    .update((current) => (current.kind === 'rewind' ? { ...current, choices } : current))
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
    choices: [] as CheckpointView[],
    preview: { state: 'loading' },
    leave: NO_SUMMARY,
    applying: false
  })
  void loadRewindChoices(targetId)
  void loadRewindPreview()
  void preselectLeave()
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
  // Code only leaves no branch: the conversation stays where it is.
  const summary = dialog.mode === 'code' ? undefined : await leaveRequest(dialog.leave)
  const result = await attempt('Rewinding', () =>
    getBridge().request('rewind:apply', {
      checkpointUuid: dialog.targetId,
      mode: dialog.mode,
      ...(summary !== undefined ? { summary } : {})
    })
  )
  restoreEnded()
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

/**
 * Undo or Redo the timeline's next action; the button is named after it (graph.undo / redo). One
 * at a time: a second click (a double click) while one runs is ignored, both buttons disabled
 * until it is done and the page shows where it left things, so it never meets "Still busy".
 */
export async function walkTimeline(direction: 'undo' | 'redo'): Promise<void> {
  const app = useAppStore.getState()
  if (app.walkingTimeline) return
  const from = document.activeElement
  const step = useGraphStore.getState().graph?.[direction]
  app.setWalkingTimeline(true)
  try {
    const result = await attempt(direction === 'undo' ? 'Undoing' : 'Redoing', () =>
      getBridge().request(direction === 'undo' ? 'timeline:undo' : 'timeline:redo', {})
    )
    restoreEnded()
    if (result !== null) {
      app.dropStalePrefill()
      const done = direction === 'undo' ? 'Undone' : 'Redone'
      app.setStatus(describeResult(step ? `${done}: ${step.label}` : done, result))
      await refreshAll(true)
    }
  } finally {
    useAppStore.getState().setWalkingTimeline(false)
  }
  refocusFrom(from)
}

/**
 * Undo or Redo, step after step, until the timeline stands right after `entry` (its own
 * button in the timeline's list); one at a time, as walkTimeline.
 */
export async function walkTimelineTo(entry: TimelineEntry): Promise<void> {
  const app = useAppStore.getState()
  if (app.walkingTimeline) return
  const from = document.activeElement
  const direction = entry.state === 'undone' ? 'Redone' : 'Undone'
  app.setWalkingTimeline(true)
  try {
    const result = await attempt(`Walking the timeline to ${entry.label}`, () =>
      getBridge().request('timeline:walkTo', { id: entry.id })
    )
    restoreEnded()
    if (result !== null) {
      app.dropStalePrefill()
      app.setStatus(describeResult(`${direction} up to: ${entry.label}`, result))
    } else app.setStatus('')
    // Read back either way: a walk refused partway (its notice says after how many steps) has
    // taken the steps before it, which the timeline, the graph and the files now show.
    await refreshAll(true)
  } finally {
    useAppStore.getState().setWalkingTimeline(false)
  }
  refocusFrom(from)
}

/** What each move asks of the main process: Switch goes to a branch's end, Continue to a node. */
const MOVES: Record<
  MoveKind,
  {
    what: string
    done: string
    preview: (nodeId: string, leafUuid: string) => Promise<RewindPreview>
    apply: (nodeId: string, leafUuid: string, summary: LeaveChoice) => Promise<RewindResult>
  }
> = {
  switch: {
    what: 'Switching branch',
    done: 'Switched branch',
    preview: (_nodeId, leafUuid) => getBridge().request('branch:preview', { leafUuid }),
    apply: (_nodeId, leafUuid, summary) =>
      getBridge().request('branch:switch', { leafUuid, summary })
  },
  continue: {
    what: 'Continuing from here',
    done: 'Continuing from the chosen node',
    preview: (nodeId) => getBridge().request('continue:preview', { nodeId }),
    apply: (nodeId, _leafUuid, summary) =>
      getBridge().request('continue:apply', { nodeId, summary })
  },
  // An adopt's target is the run (its id): a continue to its end, its workspace removed after.
  adopt: {
    what: 'Adopting the run',
    done: 'Adopted the run: the conversation goes on at its end',
    preview: (_nodeId, runId) => getBridge().request('parallel:adoptPreview', { runId }),
    apply: (_nodeId, runId, summary) => getBridge().request('parallel:adopt', { runId, summary })
  }
}

/**
 * Opens the preview of moving the conversation and the files: to a branch's end, a node, or a
 * parallel run's end (`target`: the run's id).
 */
export function openMove(move: MoveKind, nodeId: string, target?: string): void {
  const node = useGraphStore.getState().nodesById.get(nodeId)
  if (node === undefined) return
  const leafUuid = target ?? node.branchLeafUuid
  useRewindStore.getState().open({
    kind: 'move',
    move,
    nodeId,
    leafUuid,
    preview: { state: 'loading' },
    leave: NO_SUMMARY,
    applying: false
  })
  void preselectLeave()
  void previewOf(() => MOVES[move].preview(nodeId, leafUuid)).then((preview) =>
    useRewindStore
      .getState()
      .update((current) =>
        current.kind === 'move' && current.move === move && current.nodeId === nodeId
          ? { ...current, preview }
          : current
      )
  )
}

export async function applyMove(): Promise<void> {
  const dialog = useRewindStore.getState().dialog
  if (dialog.kind !== 'move' || dialog.applying) return
  const from = document.activeElement
  const move = MOVES[dialog.move]
  setApplying(true)
  const summary = await leaveRequest(dialog.leave)
  const result = await attempt(move.what, () => move.apply(dialog.nodeId, dialog.leafUuid, summary))
  restoreEnded()
  if (dialog.move === 'adopt') void refreshRuns()
  if (result === null) {
    setApplying(false)
    return
  }
  useRewindStore.getState().close()
  const app = useAppStore.getState()
  app.dropStalePrefill()
  app.setStatus(describeResult(move.done, result))
  // The selection follows the conversation to where it now stands.
  await refreshAll(true)
  refocusFrom(from)
}
