// Loading the open session into the stores, following the selection, and switching sessions.
import type { RequestArgs } from '../../../shared/contract'
import { getBridge } from '../bridge'
import { BridgeError } from '../bridge/bridge-error'
import type { SessionSummary } from '../../../shared/views'
import { applyGraphUpdate, type GraphUpdate } from '../../../shared/graph-encoding'
import type { Direction } from '../graph/tree-index'
import { neighbor } from '../graph/tree-index'
import { useAppStore, type SidePanel } from '../stores/app-store'
import { isRunNode } from '../graph/run-nodes'
import { useGraphStore } from '../stores/graph-store'
import { useInspectorStore } from '../stores/inspector-store'
import { useTimelineStore } from '../stores/timeline-store'
import { holdsNode, selectLaterCount, useTranscriptStore } from '../stores/transcript-store'
import { refreshRuns } from './parallel'
import { attempt, reportFailure } from './report'

/**
 * The branch whose transcript shows a node: the active one (null), the node's deepest leaf, or
 * a sub-agent's node itself (its own transcript, kept apart from the conversation's).
 */
function branchLeafOf(nodeId: string | null): string | null {
  const node = nodeId === null ? undefined : useGraphStore.getState().nodesById.get(nodeId)
  if (node?.kind === 'subagent') return node.id
  // A run still going has no messages in the session yet: the conversation's stay shown.
  return node === undefined || node.onActivePath || isRunNode(node.id) ? null : node.branchLeafUuid
}

/** The graph again: a delta from the version held (the whole graph the first time, or `whole`). */
export async function refreshGraph(followTip = false, whole = false): Promise<void> {
  const { graph, version } = useGraphStore.getState()
  const update = await attempt('Loading the graph', () =>
    getBridge().request('session:graphUpdate', graph === null || whole ? {} : { since: version })
  )
  if (update !== null) await receiveGraphUpdate(update, followTip)
}

/**
 * A graph update pushed or fetched. A delta from another version than the one held (a push
 * crossing a fetch) asks for a delta from the one held; one from the version held that still
 * does not fit brings the whole graph, so the page never asks the same question twice.
 */
export async function receiveGraphUpdate(update: GraphUpdate, followTip = false): Promise<void> {
  const store = useGraphStore.getState()
  const held = store.served === null ? null : { graph: store.served, version: store.version }
  const next = applyGraphUpdate(held, update)
  if (next !== null) store.receiveGraph(next.graph, next.version, followTip)
  else await refreshGraph(followTip, update.kind === 'delta' && update.base === store.version)
}

/** Messages fetched at a time: a screenful or two around what is shown. */
const PAGE = 100

const range = (
  branchLeaf: string | null,
  anchor: TranscriptAnchor,
  before: number,
  after: number
) => getBridge().request('session:transcriptRange', { leafUuid: branchLeaf, anchor, before, after })

type TranscriptAnchor = RequestArgs<'session:transcriptRange'>['anchor']

/**
 * The selected node's branch again. What is held stays when the session still has it (its last
 * message is where it was: a path to a record is one path): then only the messages after it
 * come, a turn's worth after a turn. Anything else loads a window around the selection.
 */
export async function refreshTranscript(): Promise<void> {
  const branchLeaf = branchLeafOf(useGraphStore.getState().selectedId)
  const held = useTranscriptStore.getState()
  if (held.branchLeaf === branchLeaf && held.loaded > 0) {
    const last = held.start + held.loaded - 1
    const atEnd = held.start + held.loaded >= held.total
    const window = await attempt('Loading the transcript', () =>
      range(branchLeaf, last, 0, atEnd ? PAGE : 1)
    )
    if (window === null) return
    const now = useTranscriptStore.getState()
    if (window.start === last && window.entries[0]?.uuid === now.order[last - now.start]) {
      // Still at the end: the new messages; elsewhere, the window stays (and learns the length).
      now.receiveLater(branchLeaf, atEnd ? window : { ...window, entries: [], start: last + 1 })
      return
    }
  }
  await loadTranscriptAround(branchLeaf)
}

/** A window of the selected node's branch around it (its end when nothing is selected). */
async function loadTranscriptAround(branchLeaf: string | null): Promise<void> {
  const selectedId = useGraphStore.getState().selectedId
  // The same window asked for twice (the first load, and the selection it makes) is fetched once.
  const key = JSON.stringify([branchLeaf, selectedId])
  if (loadingAround === key) return
  loadingAround = key
  const transcript = useTranscriptStore.getState()
  transcript.startLoading(branchLeaf)
  const anchor: TranscriptAnchor = selectedId === null ? 'end' : { nodeId: selectedId }
  const window = await attempt('Loading the transcript', () =>
    range(branchLeaf, anchor, PAGE / 2, PAGE)
  )
  if (loadingAround === key) loadingAround = null
  if (window !== null) transcript.receiveWindow(branchLeaf, window)
}

let loadingAround: string | null = null

/** The active branch's last messages (before a prompt: the stream goes after them). */
export async function loadTranscriptEnd(): Promise<void> {
  const transcript = useTranscriptStore.getState()
  transcript.startLoading(null)
  const window = await attempt('Loading the transcript', () => range(null, 'end', PAGE, 0))
  if (window !== null) transcript.receiveWindow(null, window)
}

let fetchingMore = false

/** Which side of the held window the reader needs more of now, if any. */
export type TranscriptWant = () => 'earlier' | 'later' | null

/**
 * More of the branch, for a reader near the held window's start or end. One request at a time:
 * a scroll made while it is out is not lost, as `want` is asked again when the answer lands (and
 * the panel asks again whenever the window changed). An answer from before a window replaced the
 * held one (another branch or session), or for a side the reader has left, is dropped, not joined
 * (the latter would let go of the messages they scrolled to), and what they need now is asked.
 */
export async function loadMoreTranscript(want: TranscriptWant): Promise<void> {
  const held = useTranscriptStore.getState()
  const side = want()
  if (held.loading || fetchingMore || side === null) return
  const { branchLeaf, start, loaded, generation } = held
  fetchingMore = true
  const window = await attempt('Loading the transcript', () =>
    side === 'earlier'
      ? range(branchLeaf, start, PAGE, 0)
      : range(branchLeaf, start + loaded, 0, PAGE)
  )
  fetchingMore = false
  if (window === null) return
  const now = useTranscriptStore.getState()
  if (now.generation !== generation || want() !== side) return loadMoreTranscript(want)
  if (side === 'earlier') now.receiveEarlier(branchLeaf, window)
  else now.receiveLater(branchLeaf, window)
}

export async function refreshDetail(): Promise<void> {
  const nodeId = useGraphStore.getState().selectedId
  const inspector = useInspectorStore.getState()
  if (nodeId === null) {
    inspector.setDetail({ state: 'empty' })
    return
  }
  if (isRunNode(nodeId)) {
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
  let sessions: readonly SessionSummary[]
  try {
    sessions = await getBridge().request('session:list', {})
  } catch (error) {
    // A cold build stopped because its workspace closed: the page loads the one open now.
    if (!(error instanceof BridgeError && error.code === 'stopped'))
      reportFailure('Listing sessions', error)
    return
  }
  useAppStore.getState().setSessions(sessions)
}

let listing: Promise<void> | null = null
let listAgain = false

/**
 * The list again while another tool appends to the session shown (its prompt count moves), one
 * listing at a time: appends that come while one runs make one more, not one each.
 */
export function refreshSessionsSoon(): void {
  if (listing !== null) {
    listAgain = true
    return
  }
  listing = refreshSessions().finally(() => {
    listing = null
    if (listAgain) {
      listAgain = false
      refreshSessionsSoon()
    }
  })
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
  const selectedId = useGraphStore.getState().selectedId
  // While the agent runs, the selection follows a turn whose messages are still streaming in.
  const streamedHere =
    useAppStore.getState().running && branchLeaf === null && selectLaterCount(transcript) === 0
  if (
    transcript.branchLeaf !== branchLeaf ||
    (selectedId !== null && !streamedHere && !holdsNode(transcript, selectedId))
  ) {
    void loadTranscriptAround(branchLeaf)
  }
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
  // Info and graph together: the first frame waits for one round trip, not two. A run that
  // started meanwhile (a prompt sent while the graph loaded) is the events' to say.
  const askedAt = useAppStore.getState().statusEvents
  const [info] = await Promise.all([
    attempt('Opening the session', () => getBridge().request('app:info', {})),
    refreshGraph()
  ])
  if (info === null) return
  const app = useAppStore.getState()
  app.setInfo(info, askedAt)
  // The read-only reason has its own banner; the same words as a notice would say it twice.
  // Opening another session answers with the same warnings (no API key...): each shows once.
  for (const notice of info.notices) {
    if (notice !== info.readOnlyReason) app.announce('warning', notice)
  }
  await Promise.all([refreshTranscript(), refreshDetailIfShown(), refreshSessions(), refreshRuns()])
}

/**
 * Opens the session `load` switched the main process to; false when it refused, reported as a
 * notice or to `refused` (a dialog that shows it in place).
 */
export async function switchSession(
  load: () => Promise<unknown>,
  what: string,
  refused?: (message: string) => void
): Promise<boolean> {
  try {
    await load()
  } catch (error) {
    if (refused === undefined) reportFailure(what, error)
    else refused(error instanceof Error ? error.message : String(error))
    return false
  }
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
