// From the session graph the main process sends to React Flow's nodes and edges. Pure, and it
// hands back the previous object wherever nothing changed: React Flow and the memoized node
// components compare by identity, so a graph event that only moves the active path re-renders the
// nodes whose state changed, not all ten thousand.
import { Position, type BuiltInEdge, type Edge, type Node, type NodeHandle } from '@xyflow/react'
import { sameGraphNode } from '../../../shared/graph-encoding'
import type { GraphNode, GraphNodeKind, SessionGraph } from '../../../shared/views'
import { startsRun } from './branches'
import { NODE_HEIGHT, NODE_WIDTH, type Point } from './layout'
import { counted } from '../../../shared/counted'

/** What folds into the node it leaves (graph-view.ts), each kind under a badge of its own. */
export type FoldKind = 'subagent' | 'exploration' | 'compaction'

/**
 * The nodes of one kind folded into a node: the sub-agent runs a turn started, the exploration
 * under an agent's report, the compaction a turn made. Its badge counts and opens them.
 */
export interface NodeFold {
  kind: FoldKind
  count: number
  /** None of them is shown. */
  folded: boolean
}

/** What the explorer knows of a node beyond the main process's GraphNode (core/views/session-graph.ts). */
export interface NodeFacts {
  /** A turn's prompt number along its branch (1 for the first prompt); null for other kinds. */
  promptNumber: number | null
  /** Nodes hidden under this one while it is collapsed; 0 when it is open or has no children. */
  hiddenBelow: number
  /** What folds into it, by kind (none while it is collapsed: its count says it all). */
  folds: readonly NodeFold[]
  /** It has nodes under it: it can be collapsed. */
  canCollapse: boolean
  /** The conversation stands here: the leaf's node, or the shown node folding it away. */
  conversationHere: boolean
  /**
   * The workspace's files hold this node's state (`here`), or did until something else changed
   * a file the session touched (`changed`); null elsewhere.
   */
  files: 'here' | 'changed' | null
}

export type FlowNodeData = { node: GraphNode; facts: NodeFacts }
export type FlowNode = Node<FlowNodeData, GraphNodeKind>

const NO_FACTS: NodeFacts = {
  promptNumber: null,
  hiddenBelow: 0,
  folds: [],
  canCollapse: false,
  conversationHere: false,
  files: null
}

function sameFolds(a: readonly NodeFold[], b: readonly NodeFold[]): boolean {
  return (
    a.length === b.length &&
    a.every((fold, i) => {
      const other = b[i]!
      return fold.kind === other.kind && fold.count === other.count && fold.folded === other.folded
    })
  )
}

function sameFacts(a: NodeFacts, b: NodeFacts): boolean {
  return (
    a.promptNumber === b.promptNumber &&
    a.hiddenBelow === b.hiddenBelow &&
    sameFolds(a.folds, b.folds) &&
    a.canCollapse === b.canCollapse &&
    a.conversationHere === b.conversationHere &&
    a.files === b.files
  )
}

const KIND_NAMES: Record<GraphNodeKind, string> = {
  turn: 'Turn',
  branch_summary: 'Branch summary',
  rewind_report: 'Rewind report',
  compaction: 'Compaction',
  exploration: 'Exploration',
  subagent: 'Sub-agent',
  merge: 'Brought in'
}

/**
 * Checkpoint → report links leave and enter on the right: drawn from the bottom like tree edges,
 * they would hide under the edges of the turns in between.
 */
export const REPORT_HANDLE = 'report'

/** A summary of a branch left takes its link on the left, beside the branch it summarizes. */
export const SUMMARY_HANDLE = 'summarized'

/**
 * Where every node's handles sit, declared instead of measured. React Flow mounts each node whose
 * handles it has not measured, visible or not: without this, a 5,000-turn session would mount
 * 5,000 nodes once before onlyRenderVisibleElements could cull them.
 */
/**
 * A sub-agent's run is linked from its turn's right side into its own left: the runs of a turn
 * stack in one column beside it (layout.ts), and an edge from the turn's foot to the third of
 * them would run over the two above it.
 */
export const RUN_HANDLE = 'run'

const HANDLES: NodeHandle[] = [
  { type: 'target', position: Position.Top, x: NODE_WIDTH / 2, y: 0 },
  { type: 'source', position: Position.Bottom, x: NODE_WIDTH / 2, y: NODE_HEIGHT },
  {
    id: REPORT_HANDLE,
    type: 'target',
    position: Position.Right,
    x: NODE_WIDTH,
    y: NODE_HEIGHT / 2
  },
  {
    id: REPORT_HANDLE,
    type: 'source',
    position: Position.Right,
    x: NODE_WIDTH,
    y: NODE_HEIGHT / 2
  },
  { id: SUMMARY_HANDLE, type: 'target', position: Position.Left, x: 0, y: NODE_HEIGHT / 2 },
  { id: RUN_HANDLE, type: 'source', position: Position.Right, x: NODE_WIDTH, y: NODE_HEIGHT / 2 },
  { id: RUN_HANDLE, type: 'target', position: Position.Left, x: 0, y: NODE_HEIGHT / 2 }
]

const MEASURED = { width: NODE_WIDTH, height: NODE_HEIGHT }

export function kindName(node: GraphNode): string {
  return KIND_NAMES[node.kind]
}

/** The files marker's words, on the node and in its name. */
export const FILES_MARKERS: Record<NonNullable<NodeFacts['files']>, string> = {
  here: 'files here',
  changed: 'files changed since'
}

/** What a turn's outcome badge says; null for a finished turn (no badge). */
export const OUTCOME_BADGES: Record<GraphNode['outcome'], string | null> = {
  done: null,
  running: 'running',
  queued: 'queued',
  stopped: 'stopped',
  failed: 'failed'
}

const FOLD_NOUNS: Record<FoldKind, string> = {
  subagent: 'agent',
  exploration: 'exploration',
  compaction: 'compaction'
}

/** What a fold's badge says (and its button's name): "2 agents", "1 exploration". */
export function foldText(fold: NodeFold): string {
  return counted(fold.count, FOLD_NOUNS[fold.kind])
}

/**
 * The node's accessible name: what it is, its title, and where it stands. Tests and screen
 * readers find a node by it; docs/ui.md lists its parts.
 */
export function nodeAccessibleName(node: GraphNode, facts: NodeFacts = NO_FACTS): string {
  const number = facts.promptNumber === null ? '' : ` ${facts.promptNumber}`
  const parts = [`${KIND_NAMES[node.kind]}${number}: ${node.title || '(empty)'}`]
  if (node.label !== null) parts.push(`labelled ${node.label}`)
  if (node.filesChanged > 0) {
    parts.push(`${node.filesChanged} file${node.filesChanged === 1 ? '' : 's'} changed`)
  }
  const outcome = OUTCOME_BADGES[node.outcome]
  if (outcome !== null) parts.push(outcome)
  if (facts.hiddenBelow > 0) parts.push(`${facts.hiddenBelow} hidden below`)
  for (const fold of facts.folds) if (fold.folded) parts.push(`${foldText(fold)} folded`)
  if (facts.conversationHere) parts.push('conversation here')
  if (facts.files !== null) parts.push(FILES_MARKERS[facts.files])
  parts.push(node.onActivePath ? 'active path' : 'abandoned branch')
  return parts.join(', ')
}

/** The new graph's nodes, with each unchanged one replaced by the previous object. */
export function reuseUnchangedNodes(
  previous: ReadonlyMap<string, GraphNode>,
  next: readonly GraphNode[]
): GraphNode[] {
  return next.map((node) => {
    const old = previous.get(node.id)
    return old !== undefined && sameGraphNode(old, node) ? old : node
  })
}

export function toFlowNodes(
  nodes: readonly GraphNode[],
  positions: ReadonlyMap<string, Point>,
  allFacts: ReadonlyMap<string, NodeFacts>,
  previous: ReadonlyMap<string, FlowNode>
): FlowNode[] {
  return nodes.map((node) => {
    const position = positions.get(node.id) ?? { x: 0, y: 0 }
    const facts = allFacts.get(node.id) ?? NO_FACTS
    const old = previous.get(node.id)
    if (
      old !== undefined &&
      old.data.node === node &&
      sameFacts(old.data.facts, facts) &&
      old.position.x === position.x &&
      old.position.y === position.y
    ) {
      return old
    }
    return {
      id: node.id,
      type: node.kind,
      position,
      data: { node, facts },
      // Known size up front (the CSS fixes it): React Flow culls and fits view over nodes it has
      // never mounted, which it only does for nodes whose size counts as measured.
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      measured: MEASURED,
      handles: HANDLES,
      ariaLabel: nodeAccessibleName(node, facts),
      // Named for assistive tech whether or not it is the graph's one tab stop (BranchGraph).
      ariaRole: 'group',
      className: node.onActivePath
        ? 'flow-node flow-node--active'
        : 'flow-node flow-node--abandoned'
    }
  })
}

/**
 * Parent → child edges (highlighted along the active path), checkpoint → report links, links
 * from the end of a branch left to the summary of it, and from a node brought in to its merge.
 */
export function toFlowEdges(
  graph: Pick<SessionGraph, 'checkpointLinks' | 'summaryLinks' | 'mergeLinks'> & {
    nodes: readonly GraphNode[]
  },
  previous: ReadonlyMap<string, Edge>
): Edge[] {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]))
  const edges: Edge[] = []
  const keep = (edge: Edge): void => {
    const old = previous.get(edge.id)
    edges.push(old !== undefined && old.className === edge.className ? old : edge)
  }
  for (const node of graph.nodes) {
    const parent = node.parentId === null ? undefined : byId.get(node.parentId)
    if (parent === undefined) continue
    const active = parent.onActivePath && node.onActivePath
    const tree: Edge = {
      id: `tree:${parent.id}->${node.id}`,
      source: parent.id,
      target: node.id,
      className: active ? 'flow-edge flow-edge--active' : 'flow-edge',
      focusable: false,
      // Ten thousand "edge from a to b" images would drown a screen reader; the nodes say it all.
      domAttributes: { 'aria-hidden': true }
    }
    if (!startsRun(node, parent.kind)) {
      keep(tree)
      continue
    }
    const run: BuiltInEdge = {
      ...tree,
      sourceHandle: RUN_HANDLE,
      targetHandle: RUN_HANDLE,
      // One trunk down the gap between the columns (36 px; offsets over half of it zigzag).
      type: 'smoothstep',
      pathOptions: { offset: 10, borderRadius: 8 }
    }
    keep(run)
  }
  for (const link of graph.checkpointLinks) {
    if (!byId.has(link.from) || !byId.has(link.to)) continue
    const bracket: BuiltInEdge = {
      id: `checkpoint:${link.from}->${link.to}`,
      source: link.from,
      target: link.to,
      sourceHandle: REPORT_HANDLE,
      targetHandle: REPORT_HANDLE,
      // A bracket out to the right and back: visible beside the tree edges it runs along.
      type: 'smoothstep',
      pathOptions: { offset: 28, borderRadius: 14 },
      className: 'flow-edge flow-edge--checkpoint',
      ariaLabel: 'Agent checkpoint to its report',
      focusable: false
    }
    keep(bracket)
  }
  for (const link of graph.summaryLinks) {
    if (!byId.has(link.from) || !byId.has(link.to)) continue
    const summarized: BuiltInEdge = {
      id: `summary:${link.from}->${link.to}`,
      source: link.from,
      target: link.to,
      sourceHandle: REPORT_HANDLE,
      targetHandle: SUMMARY_HANDLE,
      type: 'smoothstep',
      pathOptions: { offset: 20, borderRadius: 12 },
      // No label: siblings sit close, and the dotted summary colour says it.
      className: 'flow-edge flow-edge--summary',
      ariaLabel: 'Branch left to its summary',
      focusable: false
    }
    keep(summarized)
  }
  for (const link of graph.mergeLinks ?? []) {
    if (!byId.has(link.from) || !byId.has(link.to)) continue
    const merged: BuiltInEdge = {
      id: `merge:${link.from}->${link.to}`,
      source: link.from,
      target: link.to,
      sourceHandle: REPORT_HANDLE,
      targetHandle: SUMMARY_HANDLE,
      type: 'smoothstep',
      pathOptions: { offset: 24, borderRadius: 12 },
      className: 'flow-edge flow-edge--merge',
      ariaLabel: 'Brought into this branch',
      focusable: false
    }
    keep(merged)
  }
  return edges
}
