// The session graph as it travels to the page: columns instead of one object per node (no key
// repeated 5,000 times), a parent as the index of an earlier node, each branch leaf once in a
// table, kinds, outcomes and the active-path flag as one character per node. After a turn the
// page gets a delta against the version it holds: the new and changed nodes only, and the branch
// leaves renamed (a turn moves its branch's leaf, which every node of that branch names).
// SessionGraph (views.ts) stays the one shape both sides compute with; this is only its wire form.
import * as z from 'zod'
import { GraphNodeKind, SessionGraph, TurnOutcome, type GraphNode } from './views'

const KINDS = GraphNodeKind.options
const OUTCOMES = TurnOutcome.options

/** Nodes by column, in order. Every column has one value per id. */
export const CompactNodes = z.object({
  id: z.array(z.string()),
  /** The index of the parent in `id` (always earlier), an id not in this list (a delta's), or null. */
  parent: z.array(z.union([z.number().int().min(0), z.string(), z.null()])),
  /** One digit per node: its index in GraphNodeKind. */
  kind: z.string().regex(/^[0-9]*$/),
  /** One digit per node: its index in TurnOutcome. */
  outcome: z.string().regex(/^[0-9]*$/),
  /** One character per node: 1 on the active path, 0 off it. */
  active: z.string().regex(/^[01]*$/),
  title: z.array(z.string()),
  /**
   * A canonical ISO time as milliseconds after the previous node's (the first: since the epoch);
   * any other text as it is.
   */
  time: z.array(z.union([z.number().int(), z.string()])),
  files: z.array(z.number().int()),
  /** Each node's branch leaf, as an index into `leaves`. */
  leaf: z.array(z.number().int().min(0)),
  leaves: z.array(z.string()),
  /** [node index, label] for the nodes that have one. */
  labels: z.array(z.tuple([z.number().int().min(0), z.string()]))
})
export type CompactNodes = z.infer<typeof CompactNodes>

const GraphHeader = SessionGraph.omit({ nodes: true })
export type GraphHeader = z.infer<typeof GraphHeader>

/** The whole graph, `version` naming it for later deltas. */
export const FullGraph = GraphHeader.extend({
  kind: z.literal('full'),
  version: z.number().int(),
  nodes: CompactNodes
})

/** From version `base` to `version`: applyGraphUpdate gives the same graph as a full fetch. */
export const GraphDelta = GraphHeader.extend({
  kind: z.literal('delta'),
  base: z.number().int(),
  version: z.number().int(),
  /** [old leaf, new leaf]: every node whose branch leaf was the old one now has the new one. */
  renames: z.array(z.tuple([z.string(), z.string()])),
  /** Nodes new or changed (after the renames), each with its index in the new graph's order. */
  nodes: CompactNodes,
  at: z.array(z.number().int().min(0)),
  removed: z.array(z.string())
})

export const GraphUpdate = z.discriminatedUnion('kind', [FullGraph, GraphDelta])
export type GraphUpdate = z.infer<typeof GraphUpdate>
export type GraphDelta = z.infer<typeof GraphDelta>

/** Parses a canonical ISO time (what our records hold); anything else stays text. */
function isoMillis(text: string): number | null {
  const ms = Date.parse(text)
  return Number.isFinite(ms) && new Date(ms).toISOString() === text ? ms : null
}

export function encodeNodes(nodes: readonly GraphNode[]): CompactNodes {
  const position = new Map<string, number>()
  nodes.forEach((node, i) => position.set(node.id, i))
  const leafIndex = new Map<string, number>()
  const out: CompactNodes = {
    id: [],
    parent: [],
    kind: '',
    outcome: '',
    active: '',
    title: [],
    time: [],
    files: [],
    leaf: [],
    leaves: [],
    labels: []
  }
  let kinds = ''
  let outcomes = ''
  let active = ''
  let previousMs = 0
  nodes.forEach((node, i) => {
    out.id.push(node.id)
    const parentAt = node.parentId === null ? undefined : position.get(node.parentId)
    out.parent.push(parentAt !== undefined && parentAt < i ? parentAt : node.parentId)
    kinds += KINDS.indexOf(node.kind)
    outcomes += OUTCOMES.indexOf(node.outcome)
    active += node.onActivePath ? '1' : '0'
    out.title.push(node.title)
    const ms = isoMillis(node.timestamp)
    out.time.push(ms === null ? node.timestamp : ms - previousMs)
    if (ms !== null) previousMs = ms
    out.files.push(node.filesChanged)
    let leaf = leafIndex.get(node.branchLeafUuid)
    if (leaf === undefined) {
      leaf = out.leaves.length
      leafIndex.set(node.branchLeafUuid, leaf)
      out.leaves.push(node.branchLeafUuid)
    }
    out.leaf.push(leaf)
    if (node.label !== null) out.labels.push([i, node.label])
  })
  return { ...out, kind: kinds, outcome: outcomes, active }
}

/** The nodes again; throws on columns of different lengths or an index out of range. */
export function decodeNodes(c: CompactNodes): GraphNode[] {
  const n = c.id.length
  for (const column of [c.parent, c.kind, c.outcome, c.active, c.title, c.time, c.files, c.leaf]) {
    if (column.length !== n) throw new Error('A graph column has the wrong length.')
  }
  const labels = new Map(c.labels)
  const nodes: GraphNode[] = []
  let previousMs = 0
  for (let i = 0; i < n; i++) {
    const parent = c.parent[i] as number | string | null
    const kind = KINDS[Number(c.kind[i])]
    const outcome = OUTCOMES[Number(c.outcome[i])]
    const leaf = c.leaves[c.leaf[i] as number]
    const parentNode = typeof parent === 'number' ? nodes[parent] : undefined
    if (kind === undefined || outcome === undefined || leaf === undefined) {
      throw new Error(`Graph node ${i} names a kind, outcome or leaf that does not exist.`)
    }
    if (typeof parent === 'number' && (parentNode === undefined || parent >= i)) {
      throw new Error(`Graph node ${i} names a parent that does not come before it.`)
    }
    const time = c.time[i] as number | string
    let timestamp = time
    if (typeof time === 'number') {
      previousMs += time
      timestamp = new Date(previousMs).toISOString()
    }
    nodes.push({
      id: c.id[i] as string,
      parentId: parentNode?.id ?? (parent as string | null),
      kind,
      title: c.title[i] as string,
      timestamp: timestamp as string,
      filesChanged: c.files[i] as number,
      onActivePath: c.active[i] === '1',
      branchLeafUuid: leaf,
      label: labels.get(i) ?? null,
      outcome
    })
  }
  return nodes
}

function headerOf(graph: SessionGraph): GraphHeader {
  const { nodes: _nodes, ...header } = graph
  return header
}

export function encodeGraph(graph: SessionGraph, version: number): GraphUpdate {
  return { ...headerOf(graph), kind: 'full', version, nodes: encodeNodes(graph.nodes) }
}

/** Two graph nodes that say the same in every field (the delta's test and the renderer's reuse). */
export function sameGraphNode(a: GraphNode, b: GraphNode): boolean {
  return (
    a.id === b.id &&
    a.parentId === b.parentId &&
    a.kind === b.kind &&
    a.title === b.title &&
    a.timestamp === b.timestamp &&
    a.filesChanged === b.filesChanged &&
    a.onActivePath === b.onActivePath &&
    a.branchLeafUuid === b.branchLeafUuid &&
    a.label === b.label &&
    a.outcome === b.outcome
  )
}

/**
 * What turns `base` into `next`, or null when a delta cannot say it (another session, or nodes
 * that kept their place in the tree but changed their order): the caller sends the whole graph.
 */
export function graphDelta(
  base: SessionGraph,
  baseVersion: number,
  next: SessionGraph,
  version: number
): GraphDelta | null {
  if (base.sessionId !== next.sessionId) return null
  const before = new Map(base.nodes.map((node) => [node.id, node]))
  const nextIds = new Set(next.nodes.map((node) => node.id))
  const removed = base.nodes.filter((node) => !nextIds.has(node.id)).map((node) => node.id)
  // The nodes both hold must keep their order: applying only inserts and replaces.
  const kept = base.nodes.filter((node) => nextIds.has(node.id))
  const keptInNext = next.nodes.filter((node) => before.has(node.id))
  if (kept.some((node, i) => keptInNext[i]?.id !== node.id)) return null

  // A leaf is renamed when every node that named it names one same other leaf now.
  const leafMoves = new Map<string, string | null>()
  for (const node of keptInNext) {
    const old = (before.get(node.id) as GraphNode).branchLeafUuid
    const seen = leafMoves.get(old)
    if (seen === undefined) leafMoves.set(old, node.branchLeafUuid)
    else if (seen !== node.branchLeafUuid) leafMoves.set(old, null)
  }
  const renames: [string, string][] = []
  for (const [from, to] of leafMoves) if (to !== null && to !== from) renames.push([from, to])
  const renamed = new Map(renames)

  const changed: GraphNode[] = []
  const at: number[] = []
  next.nodes.forEach((node, i) => {
    const old = before.get(node.id)
    const oldLeaf = old === undefined ? '' : (renamed.get(old.branchLeafUuid) ?? old.branchLeafUuid)
    if (old !== undefined && sameGraphNode({ ...old, branchLeafUuid: oldLeaf }, node)) return
    changed.push(node)
    at.push(i)
  })
  return {
    ...headerOf(next),
    kind: 'delta',
    base: baseVersion,
    version,
    renames,
    nodes: encodeNodes(changed),
    at,
    removed
  }
}

/** The graph after an update, or null when it is a delta from a version other than `current`'s. */
export function applyGraphUpdate(
  current: { graph: SessionGraph; version: number } | null,
  update: GraphUpdate
): { graph: SessionGraph; version: number } | null {
  const { nodes: compact, ...rest } = update
  if (update.kind === 'full') {
    const { kind: _kind, version, ...header } = rest as Omit<typeof update, 'nodes'>
    return { graph: { ...header, nodes: decodeNodes(compact) }, version }
  }
  if (current === null || current.version !== update.base) return null
  if (current.graph.sessionId !== update.sessionId) return null
  const {
    kind: _kind,
    base: _base,
    version,
    renames,
    at,
    removed,
    ...header
  } = rest as Omit<GraphDelta, 'nodes'>
  const renamed = new Map(renames)
  const gone = new Set(removed)
  const updates = decodeNodes(compact)
  const replacing = new Map<string, GraphNode>()
  const inserts: [number, GraphNode][] = []
  const held = new Set(current.graph.nodes.map((node) => node.id))
  updates.forEach((node, i) => {
    if (held.has(node.id) && !gone.has(node.id)) replacing.set(node.id, node)
    else inserts.push([at[i] as number, node])
  })
  const nodes: GraphNode[] = []
  for (const node of current.graph.nodes) {
    if (gone.has(node.id)) continue
    const leaf = renamed.get(node.branchLeafUuid)
    nodes.push(
      replacing.get(node.id) ?? (leaf === undefined ? node : { ...node, branchLeafUuid: leaf })
    )
  }
  // Inserted in ascending order of their final places, each lands where it belongs.
  for (const [place, node] of inserts) nodes.splice(place, 0, node)
  return { graph: { ...header, nodes }, version }
}
