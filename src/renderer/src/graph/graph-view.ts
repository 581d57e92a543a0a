// Everything the explorer derives from one SessionGraph: which nodes are shown (a collapsed node
// hides what is under it), the layout of those (kept when their shape is the same), the keyboard
// index, each node's facts (prompt number, hidden count, markers), the branches (the outline and
// the zoomed-out cards) and React Flow's nodes and edges (reusing unchanged objects).
import type { Edge } from '@xyflow/react'
import { promptNumbers } from '../../../shared/prompt-numbers'
import type { GraphNode, SessionGraph } from '../../../shared/views'
import { branchNodes, findBranches, noBranches, foldsIntoParent, type Branches } from './branches'
import {
  reuseUnchangedNodes,
  type SideLines,
  toFlowEdges,
  toFlowNodes,
  type FlowNode,
  type NodeFacts
} from './flow-model'
import { layoutTree, sameShape, type Point } from './layout'
import { indexTree, type TreeIndex } from './tree-index'

export interface GraphView {
  graph: SessionGraph | null
  /** Every node of the graph, parents first. */
  nodes: readonly GraphNode[]
  nodesById: ReadonlyMap<string, GraphNode>
  /** Parent and child links of every node, shown or not. */
  fullIndex: TreeIndex
  /** The shown nodes: those under no collapsed node. */
  visible: readonly GraphNode[]
  /** Parent and child links of the shown nodes (the keyboard moves through these). */
  index: TreeIndex
  positions: ReadonlyMap<string, Point>
  facts: ReadonlyMap<string, NodeFacts>
  flowNodes: FlowNode[]
  flowEdges: Edge[]
  /** Every branch of the whole tree, folded or not, in outline order. */
  branches: Branches
}

/** The user's collapse and expand choices, by node id; a node not in it takes its default. */
export type CollapseChoices = ReadonlyMap<string, boolean>

export const emptyGraphView: GraphView = {
  graph: null,
  nodes: [],
  nodesById: new Map(),
  fullIndex: indexTree([]),
  visible: [],
  index: indexTree([]),
  positions: new Map(),
  facts: new Map(),
  flowNodes: [],
  flowEdges: [],
  branches: noBranches
}

/**
 * The choice that folds the side lines leaving a node (the sub-agent runs a turn started, the
 * exploration under an agent's report) into it, apart from the rest of its branch: the node's
 * own line stays shown, and its badge ("2 agents") opens them.
 */
export const sideLinesFoldKey = (parentId: string) => `side lines of ${parentId}`

/**
 * Side lines start folded into their node, but an exploration the conversation went on into:
 * the conversation's tip is never folded away at first.
 */
function sideLineFoldedByDefault(first: GraphNode): boolean {
  return first.kind === 'subagent' || !first.onActivePath
}

export function isCollapsed(node: GraphNode, choices: CollapseChoices): boolean {
  return choices.get(node.id) ?? false
}

/**
 * Where the conversation stands: the deepest node on the active path (parents come first). A
 * sub-agent's run sits on its turn's path but is no point of the conversation.
 */
export function activeTip(nodes: readonly GraphNode[]): string | null {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!
    if (node.onActivePath && node.kind !== 'subagent') return node.id
  }
  return null
}

/**
 * The shown nodes, how many nodes each collapsed one hides, and the side lines leaving each
 * shown node that is not collapsed.
 */
function foldTree(
  nodes: readonly GraphNode[],
  index: TreeIndex,
  choices: CollapseChoices
): { visible: GraphNode[]; hiddenBelow: Map<string, number>; sideLines: Map<string, SideLines> } {
  // Parents come first: a node is hidden when its parent is hidden or collapsed, or it starts a
  // side line folded into its parent.
  const hidden = new Set<string>()
  const collapsed = new Set<string>()
  const visible: GraphNode[] = []
  const kindOf = new Map<string, GraphNode['kind']>()
  const sideLines = new Map<string, SideLines>()
  for (const node of nodes) {
    const parent = index.parentOf.get(node.id) ?? null
    kindOf.set(node.id, node.kind)
    if (parent !== null && (hidden.has(parent) || collapsed.has(parent))) {
      hidden.add(node.id)
      continue
    }
    if (parent !== null && foldsIntoParent(node, kindOf.get(parent))) {
      const folded = choices.get(sideLinesFoldKey(parent)) ?? sideLineFoldedByDefault(node)
      const lines = sideLines.get(parent) ?? { agents: 0, explorations: 0, folded: true }
      if (node.kind === 'subagent') lines.agents++
      else lines.explorations++
      lines.folded &&= folded
      sideLines.set(parent, lines)
      if (folded) {
        hidden.add(node.id)
        continue
      }
    }
    visible.push(node)
    if ((index.childrenOf.get(node.id)?.length ?? 0) > 0 && isCollapsed(node, choices)) {
      collapsed.add(node.id)
    }
  }
  const hiddenBelow = new Map<string, number>()
  for (const id of collapsed) hiddenBelow.set(id, countBelow(index, id))
  return { visible, hiddenBelow, sideLines }
}

function countBelow(index: TreeIndex, id: string): number {
  let count = 0
  const stack = [...(index.childrenOf.get(id) ?? [])]
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    count++
    stack.push(...(index.childrenOf.get(at) ?? []))
  }
  return count
}

/** The node a hidden node is shown through: its nearest shown ancestor (itself when shown). */
export function shownAncestor(
  index: TreeIndex,
  positions: ReadonlyMap<string, Point>,
  id: string | null
): string | null {
  let at = id
  while (at !== null && !positions.has(at)) at = index.parentOf.get(at) ?? null
  return at
}

export function nextGraphView(
  previous: GraphView,
  graph: SessionGraph,
  choices: CollapseChoices = new Map()
): GraphView {
  const nodes = reuseUnchangedNodes(previous.nodesById, graph.nodes)
  const nodesById = new Map(nodes.map((node) => [node.id, node]))
  const sameTree = previous.graph !== null && sameShape(previous.nodes, nodes)
  const fullIndex = sameTree ? previous.fullIndex : indexTree(nodes)
  const numbers = promptNumbers(nodes)
  const { visible, hiddenBelow, sideLines } = foldTree(nodes, fullIndex, choices)
  const sameVisible = previous.graph !== null && sameShape(previous.visible, visible)
  const positions = sameVisible ? previous.positions : layoutTree(branchNodes(visible))
  const index = sameVisible ? previous.index : indexTree(visible)
  const tip = activeTip(nodes)
  const conversationAt = shownAncestor(fullIndex, positions, tip)
  const filesAt = shownAncestor(fullIndex, positions, graph.filesAt.nodeId)
  const filesMarker = graph.filesAt.changedSince ? 'changed' : 'here'
  const facts = new Map<string, NodeFacts>()
  for (const node of visible) {
    facts.set(node.id, {
      promptNumber: node.kind === 'turn' ? (numbers.get(node.id) ?? null) : null,
      hiddenBelow: hiddenBelow.get(node.id) ?? 0,
      sideLines: sideLines.get(node.id) ?? null,
      canCollapse: (fullIndex.childrenOf.get(node.id)?.length ?? 0) > 0,
      conversationHere: node.id === conversationAt,
      files: node.id === filesAt ? filesMarker : null
    })
  }
  // Each node object is kept while it is unchanged (reuseUnchangedNodes): the same objects in the
  // same order, with the same summaries, name the same branches.
  const unchanged =
    previous.graph !== null &&
    previous.nodes.length === nodes.length &&
    previous.graph.summaryLinks === graph.summaryLinks &&
    nodes.every((node, i) => node === previous.nodes[i])
  const branches = unchanged
    ? previous.branches
    : findBranches(branchNodes(nodes), graph, numbers, tip, nodesById)
  return {
    graph,
    nodes,
    nodesById,
    fullIndex,
    visible,
    index,
    positions,
    facts,
    flowNodes: toFlowNodes(
      visible,
      positions,
      facts,
      new Map(previous.flowNodes.map((node) => [node.id, node]))
    ),
    flowEdges: toFlowEdges(
      {
        nodes: visible,
        checkpointLinks: graph.checkpointLinks,
        summaryLinks: graph.summaryLinks,
        mergeLinks: graph.mergeLinks
      },
      new Map(previous.flowEdges.map((edge) => [edge.id, edge]))
    ),
    branches
  }
}
