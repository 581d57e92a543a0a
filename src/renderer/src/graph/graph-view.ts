// Everything the explorer derives from one SessionGraph: which nodes are shown (a collapsed node
// hides what is under it), the layout of those (kept when their shape is the same), the keyboard
// index, each node's facts (prompt number, hidden count, markers), the branches (the outline and
// the zoomed-out cards) and React Flow's nodes and edges (reusing unchanged objects).
import type { Edge } from '@xyflow/react'
import { promptNumbers } from '../../../shared/prompt-numbers'
import type { GraphNode, SessionGraph } from '../../../shared/views'
import { branchNodes, findBranches, noBranches, startsSideLine, type Branches } from './branches'
import {
  reuseUnchangedNodes,
  type FoldKind,
  type NodeFold,
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
 * The choice that folds the nodes of one kind into the node they leave, apart from the rest of
 * its branch: the sub-agent runs a turn started, the exploration under an agent's report, a
 * compaction (drawn through its turn: what comes after it hangs from the turn). The node's own
 * line stays shown, and its badge ("2 agents", "1 compaction") opens them.
 */
export const foldKey = (parentId: string, kind: FoldKind) => `${kind} folded into ${parentId}`

/**
 * What the node folds into its parent as (its parent's kind `parentKind`), or null: a
 * sub-agent's run (one node each: a run under a run is that run's own sub-agent, drawn on in
 * its column but folded into it all the same), the start of an exploration, a compaction.
 */
export function foldKindOf(
  node: GraphNode,
  parentKind: GraphNode['kind'] | undefined
): FoldKind | null {
  if (node.kind === 'subagent' || node.kind === 'compaction') return node.kind
  return startsSideLine(node, parentKind) ? 'exploration' : null
}

/**
 * Folds start folded, but where the conversation stands: an exploration it went on into, a
 * compaction it stands at. The conversation's tip is never folded away at first.
 */
function foldedByDefault(node: GraphNode, kind: FoldKind, tip: string | null): boolean {
  if (kind === 'exploration') return !node.onActivePath
  return kind === 'subagent' || node.id !== tip
}

/**
 * The same object for the same node drawn from the same parent, fold after fold: a node after a
 * folded compaction is drawn from the compaction's parent (the layout, the keys and the edges
 * read its parentId), and the view keeps what is drawn while its nodes are the same objects.
 */
const drawnFrom = new WeakMap<GraphNode, GraphNode>()

function reparented(node: GraphNode, parentId: string): GraphNode {
  const known = drawnFrom.get(node)
  if (known?.parentId === parentId) return known
  const drawn = { ...node, parentId }
  drawnFrom.set(node, drawn)
  return drawn
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
 * The shown nodes (those after a folded compaction drawn from its parent), how many nodes each
 * collapsed one hides, and what folds into each shown node that is not collapsed.
 */
function foldTree(
  nodes: readonly GraphNode[],
  index: TreeIndex,
  choices: CollapseChoices,
  tip: string | null
): {
  visible: GraphNode[]
  hiddenBelow: Map<string, number>
  folds: Map<string, NodeFold[]>
  /** Each folded compaction → the node it is drawn through. */
  passedInto: Map<string, string>
} {
  // Parents come first: a node is hidden when its parent is hidden or collapsed, or it is folded
  // into its parent; a folded compaction is passed through, what follows it drawn from the node
  // it folds into.
  const hidden = new Set<string>()
  const collapsed = new Set<string>()
  const passedInto = new Map<string, string>()
  const visible: GraphNode[] = []
  const kindOf = new Map<string, GraphNode['kind']>()
  const folds = new Map<string, NodeFold[]>()
  for (const node of nodes) {
    const parent = index.parentOf.get(node.id) ?? null
    kindOf.set(node.id, node.kind)
    if (parent !== null && (hidden.has(parent) || collapsed.has(parent))) {
      hidden.add(node.id)
      continue
    }
    const drawnParent = parent === null ? null : (passedInto.get(parent) ?? parent)
    const kind = parent === null ? null : foldKindOf(node, kindOf.get(parent))
    if (drawnParent !== null && kind !== null) {
      const folded = choices.get(foldKey(drawnParent, kind)) ?? foldedByDefault(node, kind, tip)
      const into = folds.get(drawnParent) ?? []
      const fold = into.find((f) => f.kind === kind)
      if (fold === undefined) into.push({ kind, count: 1, folded })
      else {
        fold.count++
        fold.folded &&= folded
      }
      folds.set(drawnParent, into)
      if (folded && kind === 'compaction') {
        passedInto.set(node.id, drawnParent)
        continue
      }
      if (folded) {
        hidden.add(node.id)
        continue
      }
    }
    visible.push(drawnParent === parent ? node : reparented(node, drawnParent as string))
    if ((index.childrenOf.get(node.id)?.length ?? 0) > 0 && isCollapsed(node, choices)) {
      collapsed.add(node.id)
    }
  }
  const hiddenBelow = new Map<string, number>()
  for (const id of collapsed) hiddenBelow.set(id, countBelow(index, id))
  return { visible, hiddenBelow, folds, passedInto }
}

interface Link {
  from: string
  to: string
}

/**
 * Links drawn from the nodes they are drawn through: a summary of a branch left at a compaction
 * folded into its turn is linked from the turn. The same list where none moves.
 */
function drawnLinks<L extends Link>(links: L[], passedInto: ReadonlyMap<string, string>): L[] {
  if (passedInto.size === 0 || !links.some((l) => passedInto.has(l.from) || passedInto.has(l.to))) {
    return links
  }
  return links.map((link) => ({
    ...link,
    from: passedInto.get(link.from) ?? link.from,
    to: passedInto.get(link.to) ?? link.to
  }))
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
  const tip = activeTip(nodes)
  const { visible, hiddenBelow, folds, passedInto } = foldTree(nodes, fullIndex, choices, tip)
  const sameVisible = previous.graph !== null && sameShape(previous.visible, visible)
  const positions = sameVisible ? previous.positions : layoutTree(branchNodes(visible))
  const index = sameVisible ? previous.index : indexTree(visible)
  const conversationAt = shownAncestor(fullIndex, positions, tip)
  const filesAt = shownAncestor(fullIndex, positions, graph.filesAt.nodeId)
  const filesMarker = graph.filesAt.changedSince ? 'changed' : 'here'
  const facts = new Map<string, NodeFacts>()
  for (const node of visible) {
    facts.set(node.id, {
      promptNumber: node.kind === 'turn' ? (numbers.get(node.id) ?? null) : null,
      hiddenBelow: hiddenBelow.get(node.id) ?? 0,
      folds: folds.get(node.id) ?? [],
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
        checkpointLinks: drawnLinks(graph.checkpointLinks, passedInto),
        summaryLinks: drawnLinks(graph.summaryLinks, passedInto),
        mergeLinks: drawnLinks(graph.mergeLinks ?? [], passedInto)
      },
      new Map(previous.flowEdges.map((edge) => [edge.id, edge]))
    ),
    branches
  }
}
