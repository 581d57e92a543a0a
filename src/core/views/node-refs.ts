// How people name a node of the graph outside the app: by number (`fork --at 3`, `/label 3 works`,
// `/tree` then 7) or by id (a whole uuid, or the short id `inspect` and `/tree` print). One
// numbering for the CLI and the chat: the turns of the active path are numbered 1, 2, 3… as
// /rewind numbers its checkpoints, then the turns of the other branches continue the count in
// listing order (the order /tree prints). Summaries and reports have no number: named by id.
//
// Also here: the listing order itself (the active branch first, a fork's other branches after
// it), and where a node ends on its branch (a fork or a move "to this node" goes to its end).
import type { GraphNode, SessionGraph } from '../../shared/views'
import { NotFoundError } from '../../shared/coded-error'
import type { SessionTree } from '../session/tree'
import type { TurnIndex } from './session-graph'

export interface ListedNode {
  node: GraphNode
  /** How many forks deep it is drawn: a chain stays at one depth, each other branch indents. */
  depth: number
  /** It opens a branch that is not its parent's first child (drawn with └). */
  fork: boolean
  /** Its turn number (null for summaries and reports). */
  number: number | null
}

/**
 * The graph's nodes in listing order with their numbers: depth first, the child on the active
 * path before its siblings, so the active branch reads top to bottom as 1, 2, 3… and every
 * other branch follows the branch it leaves. Iterative: a 100k-deep chain cannot overflow.
 */
export function listNodes(graph: SessionGraph): ListedNode[] {
  const children = new Map<string | null, GraphNode[]>()
  for (const node of graph.nodes) {
    const siblings = children.get(node.parentId)
    if (siblings === undefined) children.set(node.parentId, [node])
    else siblings.push(node)
  }
  // Most nodes have one child: only a fork needs its children reordered.
  const activeFirst = (nodes: GraphNode[]) =>
    nodes.length < 2
      ? nodes
      : [...nodes.filter((n) => n.onActivePath), ...nodes.filter((n) => !n.onActivePath)]
  const out: ListedNode[] = []
  const stack: { node: GraphNode; depth: number; fork: boolean }[] = activeFirst(
    children.get(null) ?? []
  )
    .reverse()
    .map((node) => ({ node, depth: 0, fork: false }))
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number]
    out.push({ ...item, number: null })
    const below = activeFirst(children.get(item.node.id) ?? [])
    for (let i = below.length - 1; i >= 0; i--) {
      const child = below[i] as GraphNode
      stack.push(
        i === 0
          ? { node: child, depth: item.depth, fork: false }
          : { node: child, depth: item.depth + 1, fork: true }
      )
    }
  }
  // The active path's turns first, in path order (they lead the listing), then the others.
  let next = 1
  for (const listed of out) {
    if (listed.node.kind === 'turn' && listed.node.onActivePath) listed.number = next++
  }
  for (const listed of out) {
    if (listed.node.kind === 'turn' && !listed.node.onActivePath) listed.number = next++
  }
  return out
}

/** Shortest id prefix or suffix matched: shorter would match by chance. */
const MIN_ID_CHARS = 4

/**
 * The graph node `ref` names: a turn number, a node's id, any record's uuid (its node), or a
 * unique prefix or suffix of a node's id. Throws not_found saying what there is.
 */
export function resolveNode(
  tree: SessionTree,
  graph: SessionGraph,
  index: TurnIndex,
  ref: string
): GraphNode {
  const listed = listNodes(graph)
  const byId = new Map(graph.nodes.map((n) => [n.id, n]))
  if (/^\d+$/.test(ref)) {
    const found = listed.find((l) => l.number === Number(ref))
    if (found !== undefined) return found.node
    const turns = listed.filter((l) => l.number !== null).length
    throw new NotFoundError(
      turns === 0
        ? `No turn ${ref}: the session has no prompt yet.`
        : `No turn ${ref}: the turns are numbered 1 to ${turns} (see /tree or inspect).`
    )
  }
  const exact = byId.get(ref)
  if (exact !== undefined) return exact
  if (tree.get(ref) !== undefined) {
    const owner = index.owner.get(ref)
    const node = owner === null || owner === undefined ? undefined : byId.get(owner)
    if (node !== undefined) return node
    throw new NotFoundError(`${ref} comes before the first prompt: it belongs to no node.`)
  }
  if (ref.length >= MIN_ID_CHARS) {
    const matches = graph.nodes.filter((n) => n.id.startsWith(ref) || n.id.endsWith(ref))
    if (matches.length === 1) return matches[0] as GraphNode
    if (matches.length > 1) {
      throw new NotFoundError(
        `"${ref}" names ${matches.length} nodes: give more of the id (${matches
          .slice(0, 3)
          .map((n) => n.id)
          .join(', ')}${matches.length > 3 ? ', …' : ''}).`
      )
    }
  }
  throw new NotFoundError(
    `No node "${ref}": give a turn number or a node id (see /tree or inspect).`
  )
}

/**
 * The last record of a graph node on its branch: where a turn ends (its final answer) or the
 * record a summary or report node is. On the active path, the active branch's; elsewhere the
 * branch the graph draws through it (its newest leaf's).
 */
export function nodeEnd(tree: SessionTree, index: TurnIndex, node: GraphNode): string {
  const path = node.onActivePath ? tree.activePath() : tree.pathTo(node.branchLeafUuid)
  let at = path.findIndex((record) => record.uuid === node.id)
  if (at < 0) return node.id
  while (at + 1 < path.length && index.owner.get(path[at + 1]?.uuid ?? '') === node.id) at++
  return path[at]?.uuid ?? node.id
}

/** The last record of the branch through `node`: the active leaf on the active path. */
export function branchLeafOf(tree: SessionTree, node: GraphNode): string | null {
  return node.onActivePath ? tree.leafUuid : node.branchLeafUuid
}
