// The session graph as the explorer draws it, plus the selection. Selection is a field of its own:
// moving it re-renders the two nodes whose `selected` flag flips, not the canvas. The user's
// collapse choices live here too: changing one recomputes what is shown and lays it out again.
import { create } from 'zustand'
import type { RunView } from '../../../shared/parallel-views'
import type { GraphNode, SessionGraph } from '../../../shared/views'
import type { FoldKind, NodeFold } from '../graph/flow-model'
import { withRuns } from '../graph/run-nodes'
import {
  activeTip,
  emptyGraphView,
  isCollapsed,
  nextGraphView,
  shownAncestor,
  foldKey,
  foldKindOf,
  type CollapseChoices,
  type GraphView
} from '../graph/graph-view'

interface GraphStore extends GraphView {
  /** The studio's name for the graph held (session:graphUpdate): deltas build on it. */
  version: number
  /** The graph as the studio sent it: what its deltas apply to (`graph` adds the runs). */
  served: SessionGraph | null
  /** The session's parallel runs (parallel:runs): those not yet joined are drawn as nodes. */
  runs: readonly RunView[]
  receiveRuns: (runs: readonly RunView[]) => void
  selectedId: string | null
  collapseChoices: CollapseChoices
  /** The node whose full card shows over the compact ones (hovered or focused). */
  peekId: string | null
  /** `followTip`: select where the conversation now stands (after a rewind moved it). */
  receiveGraph: (graph: SessionGraph, version: number, followTip?: boolean) => void
  select: (id: string | null) => void
  /** Folds the nodes under `id` away, or shows them again. */
  toggleCollapsed: (id: string) => void
  /** Folds the nodes of a kind into the node they leave, or shows them again; the rest stays. */
  toggleFold: (parentId: string, kind: FoldKind) => void
  /** Opens every collapsed node and every fold above `id`, so it is shown. */
  reveal: (id: string) => void
  setPeek: (id: string | null) => void
  /** The canvas draws one card per branch (zoomed out) instead of the turns. */
  showBranches: boolean
  setShowBranches: (show: boolean) => void
  /**
   * Asks the canvas to bring nodes into view together (a node and the side lines just opened
   * from it), at the zoom it is at or less; `n` makes each ask new.
   */
  frameRequest: { ids: readonly string[]; n: number } | null
  /** Asks the canvas to centre a node (a search result chosen); `n` makes each ask new. */
  centreRequest: { id: string; n: number } | null
  requestCentre: (id: string) => void
}

/** The view again with new collapse choices; a selection folded away moves to what folds it. */
function refold(state: GraphStore, choices: CollapseChoices): Partial<GraphStore> {
  if (state.served === null) return { collapseChoices: choices }
  const view = nextGraphView(state, withRuns(state.served, state.runs), choices)
  return {
    ...view,
    collapseChoices: choices,
    selectedId: shownAncestor(view.fullIndex, view.positions, state.selectedId)
  }
}

export const useGraphStore = create<GraphStore>()((set) => ({
  ...emptyGraphView,
  version: 0,
  served: null,
  runs: [],
  receiveRuns: (runs) =>
    set((state) => ({ runs, ...refold({ ...state, runs }, state.collapseChoices) })),
  selectedId: null,
  collapseChoices: new Map(),
  peekId: null,
  receiveGraph: (graph, version, followTip = false) =>
    set((state) => {
      // Another session's graph starts with its own defaults.
      const choices = state.graph?.sessionId === graph.sessionId ? state.collapseChoices : new Map()
      const view = nextGraphView(state, withRuns(graph, state.runs), choices)
      const tip = conversationTip(view)
      // A reader at the tip follows the conversation as it grows; one reading elsewhere stays.
      const wasAtTip = state.selectedId !== null && state.selectedId === conversationTip(state)
      const keep =
        !followTip && !wasAtTip && state.selectedId !== null && view.positions.has(state.selectedId)
      return {
        ...view,
        version,
        served: graph,
        collapseChoices: choices,
        showBranches: state.graph?.sessionId === graph.sessionId && state.showBranches,
        selectedId: keep ? state.selectedId : tip
      }
    }),
  select: (id) => set({ selectedId: id }),
  toggleCollapsed: (id) =>
    set((state) => {
      const node = state.nodesById.get(id)
      if (node === undefined) return {}
      const choices = new Map(state.collapseChoices)
      choices.set(id, !isCollapsed(node, state.collapseChoices))
      return refold(state, choices)
    }),
  toggleFold: (parentId, kind) =>
    set((state) => {
      const fold = state.facts.get(parentId)?.folds.find((f) => f.kind === kind)
      if (fold === undefined) return {}
      const choices = new Map(state.collapseChoices)
      choices.set(foldKey(parentId, kind), !fold.folded)
      const view = refold(state, choices)
      if (!fold.folded) return view
      const opened = (state.fullIndex.childrenOf.get(parentId) ?? []).filter(
        (id) => view.positions?.has(id) === true && !state.positions.has(id)
      )
      const frameRequest = { ids: [parentId, ...opened], n: (state.frameRequest?.n ?? 0) + 1 }
      return { ...view, frameRequest }
    }),
  reveal: (id) =>
    set((state) => {
      if (state.positions.has(id)) return {}
      const choices = new Map(state.collapseChoices)
      const { parentOf } = state.fullIndex
      for (let at = id, parent = parentOf.get(id) ?? null; parent !== null;) {
        const node = state.nodesById.get(at)
        const kind = node === undefined ? null : foldKindOf(node, state.nodesById.get(parent)?.kind)
        if (kind !== null) choices.set(foldKey(parent, kind), false)
        choices.set(parent, false)
        at = parent
        parent = parentOf.get(at) ?? null
      }
      return refold(state, choices)
    }),
  setPeek: (peekId) => set({ peekId }),
  showBranches: false,
  // Into the cards, a centring or a framing asked for before is done with: the turns' canvas
  // mounts again later and must not take the view back to it.
  setShowBranches: (showBranches) =>
    set(
      showBranches ? { showBranches, centreRequest: null, frameRequest: null } : { showBranches }
    ),
  frameRequest: null,
  centreRequest: null,
  requestCentre: (id) =>
    set((state) => ({ centreRequest: { id, n: (state.centreRequest?.n ?? 0) + 1 } }))
}))

type State = GraphStore

export const selectFlowNodes = (s: State) => s.flowNodes
export const selectFlowEdges = (s: State) => s.flowEdges
export const selectPositions = (s: State) => s.positions
export const selectHasNodes = (s: State) => s.nodes.length > 0
export const selectSessionId = (s: State) => s.graph?.sessionId ?? ''
export const selectShowBranches = (s: State) => s.showBranches
export const selectTimelineSteps = (s: State) => ({
  undo: s.graph?.undo ?? null,
  redo: s.graph?.redo ?? null
})
export const selectSelectedId = (s: State) => s.selectedId
export const selectSelectedNode = (s: State): GraphNode | null =>
  s.selectedId === null ? null : (s.nodesById.get(s.selectedId) ?? null)
export const selectIsSelected = (id: string) => (s: State) => s.selectedId === id
/** Whether node `id`'s turn is running now (the agent's, or another program's it follows). */
export const selectIsRunning = (id: string) => (s: State) =>
  s.nodesById.get(id)?.outcome === 'running'
/** The shown node where the conversation stands (the node folding it away when hidden). */
export const conversationTip = (s: GraphView): string | null =>
  shownAncestor(s.fullIndex, s.positions, activeTip(s.nodes))
export const selectCentreRequest = (s: State) => s.centreRequest
export const selectFrameRequest = (s: State) => s.frameRequest
export const selectIsPeeked = (id: string) => (s: State) => s.peekId === id
const NO_FOLDS: readonly NodeFold[] = []

/** What folds into the selected node, by kind (none while it is collapsed). */
export const selectSelectedFolds = (s: State): readonly NodeFold[] =>
  s.selectedId === null ? NO_FOLDS : (s.facts.get(s.selectedId)?.folds ?? NO_FOLDS)

/** Collapse state of the selected node: null when it has nothing under it. */
export const selectSelectedFold = (s: State): { collapsed: boolean; hidden: number } | null => {
  const facts = s.selectedId === null ? undefined : s.facts.get(s.selectedId)
  if (facts === undefined || !facts.canCollapse) return null
  return { collapsed: facts.hiddenBelow > 0, hidden: facts.hiddenBelow }
}
