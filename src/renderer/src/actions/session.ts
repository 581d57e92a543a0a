// Loading the open session into the stores, following the selection, and switching sessions.
import { getBridge } from '../bridge'
import type { Direction } from '../graph/tree-index'
import { neighbor } from '../graph/tree-index'
import { useAppStore, type SidePanel } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import { useInspectorStore } from '../stores/inspector-store'
import { useTimelineStore } from '../stores/timeline-store'
import { useTranscriptStore } from '../stores/transcript-store'
import { attempt } from './report'

/** The branch whose transcript shows a node: the active one (null) or the node's deepest leaf. */
function branchLeafOf(nodeId: string | null): string | null {
  const node = nodeId === null ? undefined : useGraphStore.getState().nodesById.get(nodeId)
  return node === undefined || node.onActivePath ? null : node.branchLeafUuid
}

export async function refreshGraph(followTip = false): Promise<void> {
  const graph = await attempt('Loading the graph', () => getBridge().request('session:graph', {}))
  if (graph !== null) useGraphStore.getState().receiveGraph(graph, followTip)
}

export async function refreshTranscript(): Promise<void> {
  const branchLeaf = branchLeafOf(useGraphStore.getState().selectedId)
  const transcript = useTranscriptStore.getState()
  transcript.startLoading(branchLeaf)
  const entries = await attempt('Loading the transcript', () =>
    getBridge().request('session:transcript', { leafUuid: branchLeaf })
  )
  if (entries !== null) transcript.receiveEntries(branchLeaf, entries)
}

export async function refreshDetail(): Promise<void> {
  const nodeId = useGraphStore.getState().selectedId
  const inspector = useInspectorStore.getState()
  if (nodeId === null) {
    inspector.setDetail({ state: 'empty' })
    return
  }
  inspector.setDetail({ state: 'loading', nodeId })
  try {
    const detail = await getBridge().request('session:node', { nodeId })
    // Arrow keys move faster than answers come back: keep only the answer for the selection.
    if (useGraphStore.getState().selectedId === nodeId) {
      inspector.setDetail({ state: 'ready', nodeId, detail })
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (useGraphStore.getState().selectedId === nodeId) {
      inspector.setDetail({ state: 'failed', nodeId, message })
    }
  }
}

export async function refreshSessions(): Promise<void> {
  const sessions = await attempt('Listing sessions', () => getBridge().request('session:list', {}))
  if (sessions !== null) useAppStore.getState().setSessions(sessions)
}

/** Graph, transcript, inspector and timeline again, after anything that moved the branch. */
export async function refreshAll(followTip = false): Promise<void> {
  await refreshGraph(followTip)
  await Promise.all([
    refreshTranscript(),
    refreshDetailIfShown(),
    refreshTimelineIfShown(),
    refreshSessions()
  ])
}

export async function refreshTimeline(): Promise<void> {
  const entries = await attempt('Loading the timeline', () =>
    getBridge().request('timeline:list', {})
  )
  if (entries !== null) useTimelineStore.getState().setEntries(entries)
}

async function refreshTimelineIfShown(): Promise<void> {
  if (useAppStore.getState().panel === 'timeline') await refreshTimeline()
}

export async function refreshDetailIfShown(): Promise<void> {
  if (useAppStore.getState().panel === 'inspector') await refreshDetail()
}

/** Follows the selection: the transcript of its branch, and the inspector when it shows. */
export function onSelectionChanged(): void {
  const branchLeaf = branchLeafOf(useGraphStore.getState().selectedId)
  const transcript = useTranscriptStore.getState()
  if (transcript.branchLeaf !== branchLeaf) void refreshTranscript()
  void refreshDetailIfShown()
}

export function selectNode(id: string): void {
  useGraphStore.getState().select(id)
}

/** Enter on a node: select it and show what it holds. */
export function openNode(id: string): void {
  const app = useAppStore.getState()
  useGraphStore.getState().select(id)
  if (app.panel !== 'inspector') {
    app.showPanel('inspector')
    void refreshDetail()
  }
}

export function showPanel(panel: SidePanel): void {
  useAppStore.getState().showPanel(panel)
  if (panel === 'inspector') void refreshDetail()
  if (panel === 'timeline') void refreshTimeline()
}

/** Folds the node's branch away (or shows it again); the selection stays on the node. */
export function setCollapsed(id: string, collapsed: boolean): void {
  const graph = useGraphStore.getState()
  const facts = graph.facts.get(id)
  if (facts === undefined || !facts.canCollapse) return
  if (facts.hiddenBelow > 0 !== collapsed) graph.toggleCollapsed(id)
}

/** Arrow keys: the selection moves one step through the tree; returns the node it moved to. */
export function moveSelection(direction: Direction): string | null {
  const graph = useGraphStore.getState()
  if (graph.selectedId === null) return null
  const target = neighbor(
    graph.index,
    graph.selectedId,
    direction,
    (id) => graph.nodesById.get(id)?.onActivePath === true
  )
  if (target !== null) graph.select(target)
  return target
}

export async function loadSession(): Promise<void> {
  // Info and graph together: the first frame waits for one round trip, not two.
  const [info] = await Promise.all([
    attempt('Opening the session', () => getBridge().request('app:info', {})),
    refreshGraph()
  ])
  if (info === null) return
  const app = useAppStore.getState()
  app.setInfo(info)
  // The read-only reason has its own banner; the same words as a notice would say it twice.
  // Opening another session answers with the same warnings (no API key...): each shows once.
  for (const notice of info.notices) {
    if (notice !== info.readOnlyReason) app.announce('warning', notice)
  }
  await Promise.all([refreshTranscript(), refreshDetailIfShown(), refreshSessions()])
}

/** Opens the session `load` switched the main process to; false when it refused (reported). */
export async function switchSession(load: () => Promise<unknown>, what: string): Promise<boolean> {
  const info = await attempt(what, load)
  if (info === null) return false
  useGraphStore.getState().select(null)
  useAppStore.getState().dropStalePrefill()
  await loadSession()
  return true
}

/**
 * Another window moved the main process to another session or workspace (one studio serves every
 * window): this one loads what is open now instead of drawing what no longer is.
 */
export const followOtherWindow = () =>
  switchSession(() => getBridge().request('app:info', {}), 'Following the other window')

export const openSession = (sessionId: string) =>
  switchSession(() => getBridge().request('session:open', { sessionId }), 'Opening the session')

export const newSession = () =>
  switchSession(() => getBridge().request('session:new', {}), 'Starting a new session')
