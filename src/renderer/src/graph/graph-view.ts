// Everything the explorer derives from one SessionGraph: the layout (kept when the shape is the
// same), the keyboard index, and React Flow's nodes and edges (reusing unchanged objects).
import type { Edge } from '@xyflow/react'
import type { GraphNode, SessionGraph } from '../../../shared/views'
import { reuseUnchangedNodes, toFlowEdges, toFlowNodes, type FlowNode } from './flow-model'
import { layoutTree, sameShape, type Point } from './layout'
import { indexTree, type TreeIndex } from './tree-index'

export interface GraphView {
  graph: SessionGraph | null
  nodes: readonly GraphNode[]
  nodesById: ReadonlyMap<string, GraphNode>
  index: TreeIndex
  positions: ReadonlyMap<string, Point>
  flowNodes: FlowNode[]
  flowEdges: Edge[]
}

export const emptyGraphView: GraphView = {
  graph: null,
  nodes: [],
  nodesById: new Map(),
  index: indexTree([]),
  positions: new Map(),
  flowNodes: [],
  flowEdges: []
}

export function nextGraphView(previous: GraphView, graph: SessionGraph): GraphView {
  const nodes = reuseUnchangedNodes(previous.nodesById, graph.nodes)
  const sameTree = previous.graph !== null && sameShape(previous.nodes, nodes)
  const positions = sameTree ? previous.positions : layoutTree(nodes)
  const index = sameTree ? previous.index : indexTree(nodes)
  return {
    graph,
    nodes,
    nodesById: new Map(nodes.map((node) => [node.id, node])),
    index,
    positions,
    flowNodes: toFlowNodes(
      nodes,
      positions,
      new Map(previous.flowNodes.map((node) => [node.id, node]))
    ),
    flowEdges: toFlowEdges(
      { nodes, checkpointLinks: graph.checkpointLinks },
      new Map(previous.flowEdges.map((edge) => [edge.id, edge]))
    )
  }
}

/** Where the conversation stands: the deepest node on the active path (parents come first). */
export function activeTip(nodes: readonly GraphNode[]): string | null {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!
    if (node.onActivePath) return node.id
  }
  return null
}
