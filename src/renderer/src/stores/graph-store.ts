// The session graph as the explorer draws it, plus the selection. Selection is a field of its own:
// moving it re-renders the two nodes whose `selected` flag flips, not the canvas.
import { create } from 'zustand'
import type { GraphNode, SessionGraph } from '../../../shared/views'
import { activeTip, emptyGraphView, nextGraphView, type GraphView } from '../graph/graph-view'

interface GraphStore extends GraphView {
  selectedId: string | null
  /** `followTip`: select where the conversation now stands (after a rewind moved it). */
  receiveGraph: (graph: SessionGraph, followTip?: boolean) => void
  select: (id: string | null) => void
}

export const useGraphStore = create<GraphStore>()((set) => ({
  ...emptyGraphView,
  selectedId: null,
  receiveGraph: (graph, followTip = false) =>
    set((state) => {
      const view = nextGraphView(state, graph)
      // A reader at the tip follows the conversation as it grows; one reading elsewhere stays.
      const wasAtTip = state.selectedId !== null && state.selectedId === activeTip(state.nodes)
      const keep =
        !followTip && !wasAtTip && state.selectedId !== null && view.nodesById.has(state.selectedId)
      return { ...view, selectedId: keep ? state.selectedId : activeTip(view.nodes) }
    }),
  select: (id) => set({ selectedId: id })
}))

type State = GraphStore

export const selectFlowNodes = (s: State) => s.flowNodes
export const selectFlowEdges = (s: State) => s.flowEdges
export const selectHasNodes = (s: State) => s.nodes.length > 0
export const selectSessionId = (s: State) => s.graph?.sessionId ?? ''
export const selectCanUndo = (s: State) => s.graph?.canUndo ?? false
export const selectSelectedId = (s: State) => s.selectedId
export const selectSelectedNode = (s: State): GraphNode | null =>
  s.selectedId === null ? null : (s.nodesById.get(s.selectedId) ?? null)
export const selectIsSelected = (id: string) => (s: State) => s.selectedId === id
