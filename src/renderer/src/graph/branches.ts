// The session's branches, as the explorer names them: the lines the layout draws as columns (a
// node's longest line of descendants goes on in its branch; every other child starts a branch of
// its own), each with a title a person can read, its counts and its state. The branch outline
// lists them, nested as they fork; the graph draws each as one card when zoomed out. Pure and
// linear in the nodes.
import type { GraphNode, SessionGraph } from '../../../shared/views'
import { treeLines, type TreeShapeNode } from './layout'
import { beginsParallelRun, isRunNode } from './run-nodes'

/** A node as the branches are found from: its shape (side lines marked) and the node itself. */
export interface BranchNode extends TreeShapeNode {
  readonly node: GraphNode
}

/** An agent's exploration or a sub-agent's run. */
const isSideKind = (node: GraphNode) => node.kind === 'exploration' || node.kind === 'subagent'

/**
 * Whether the node starts a sub-agent's run (its parent is of another kind): the runs a turn
 * started stack beside it (layout.ts), each linked from the turn's side (flow-model.ts).
 */
export const startsRun = (node: GraphNode, parentKind: GraphNode['kind'] | undefined): boolean =>
  node.kind === 'subagent' && parentKind !== 'subagent'

/** Whether the node starts a side line: an exploration or a sub-agent's run its parent is not. */
export const startsSideLine = (
  node: GraphNode,
  parentKind: GraphNode['kind'] | undefined
): boolean => isSideKind(node) && parentKind !== node.kind

/**
 * The nodes as their lines run: a side line (an exploration, a sub-agent's run) starts where its
 * parent is of another kind, and is never its parent's own line; its later nodes go on in it.
 * A sub-agent's run is stacked with its parent's other runs. The layout takes the same shapes.
 */
export function branchNodes(nodes: readonly GraphNode[]): BranchNode[] {
  const kindOf = new Map<string, GraphNode['kind']>()
  return nodes.map((node) => {
    const parentKind = node.parentId === null ? undefined : kindOf.get(node.parentId)
    kindOf.set(node.id, node.kind)
    if (!startsSideLine(node, parentKind)) return { id: node.id, parentId: node.parentId, node }
    return startsRun(node, parentKind)
      ? { id: node.id, parentId: node.parentId, side: true, stacked: true, node }
      : { id: node.id, parentId: node.parentId, side: true, node }
  })
}

/**
 * `active`: the conversation goes through it (its first node is on the active path);
 * `summarized`: left, with a summary of it; `abandoned`: left; `explored`: what an agent explored
 * before it rewound; `subagent`: a sub-agent's run; `run`: a parallel run, going or joined and not
 * adopted (its state is its outcome), never "abandoned".
 */
export type BranchState = 'active' | 'abandoned' | 'summarized' | 'explored' | 'subagent' | 'run'

export interface Branch {
  /** Its first node's id. */
  id: string
  /** The branch it leaves (null: a root). */
  parentId: string | null
  /** The node it leaves from, on the parent branch. */
  forkId: string | null
  /** Its nesting in the outline: 0 for a root. */
  depth: number
  /** Its nodes, top to bottom. */
  nodeIds: readonly string[]
  /** Its label, else its summary's first line, else its first prompt. */
  title: string
  turns: number
  /** File changes of its turns (a file changed in two turns counts twice). */
  fileChanges: number
  /** The newest timestamp of its nodes. */
  lastActivity: string
  state: BranchState
  /** The conversation stands in it. */
  holdsConversation: boolean
  /** The prompt numbers of its first and last turns, as the cards count them; null: no turn. */
  firstTurn: number | null
  lastTurn: number | null
  /** How its last node ended (stopped, failed, running). */
  outcome: GraphNode['outcome']
}

export interface Branches {
  /** In outline order: each branch, then the branches leaving it, top to bottom, nested. */
  list: readonly Branch[]
  byId: ReadonlyMap<string, Branch>
  /** Every drawn node → the branch holding it. */
  branchOf: ReadonlyMap<string, string>
}

export const noBranches: Branches = { list: [], byId: new Map(), branchOf: new Map() }

export function findBranches(
  drawn: readonly BranchNode[],
  links: Pick<SessionGraph, 'summaryLinks'>,
  promptNumbers: ReadonlyMap<string, number>,
  conversationAt: string | null,
  byId: ReadonlyMap<string, GraphNode>
): Branches {
  const lines = treeLines(drawn)
  const children = new Map<number, number[]>()
  const roots: number[] = []
  for (const i of lines.kept) {
    const p = lines.parent[i]!
    if (p < 0) roots.push(i)
    else if (!lines.continues(i)) {
      const list = children.get(p)
      if (list === undefined) children.set(p, [i])
      else list.push(i)
    }
  }
  const summaries = new Map<string, string>()
  for (const link of links.summaryLinks) {
    const summary = byId.get(link.to)
    if (summary !== undefined && !summaries.has(link.from)) summaries.set(link.from, summary.title)
  }

  const list: Branch[] = []
  const branchOf = new Map<string, string>()
  const stack: { start: number; parent: Branch | null }[] = roots
    .reverse()
    .map((start) => ({ start, parent: null }))
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const line: number[] = []
    for (let at = top.start; at !== -1; at = lines.heavy[at]!) line.push(at)
    const nodes = line.map((i) => drawn[i]!.node)
    const fork = top.parent === null ? null : drawn[top.start]!.parentId
    const branch = describe(nodes, top.parent, fork, summaries, promptNumbers, conversationAt)
    list.push(branch)
    for (const node of nodes) branchOf.set(node.id, branch.id)
    const leaving: number[] = []
    for (const i of line) leaving.push(...(children.get(i) ?? []))
    for (let k = leaving.length - 1; k >= 0; k--) stack.push({ start: leaving[k]!, parent: branch })
  }
  return { list, byId: new Map(list.map((b) => [b.id, b])), branchOf }
}

function describe(
  nodes: readonly GraphNode[],
  parent: Branch | null,
  forkId: string | null,
  summaries: ReadonlyMap<string, string>,
  promptNumbers: ReadonlyMap<string, number>,
  conversationAt: string | null
): Branch {
  const first = nodes[0]!
  const last = nodes.at(-1)!
  let turns = 0
  let fileChanges = 0
  let lastActivity = ''
  let label: string | null = null
  let summary: string | null = null
  let firstPrompt: string | null = null
  let firstTurn: number | null = null
  let lastTurn: number | null = null
  let holdsConversation = false
  for (const node of nodes) {
    if (node.kind === 'turn') {
      turns++
      firstPrompt ??= node.title
      const number = promptNumbers.get(node.id) ?? null
      firstTurn ??= number
      lastTurn = number ?? lastTurn
    }
    fileChanges += node.filesChanged
    if (node.timestamp > lastActivity) lastActivity = node.timestamp
    label ??= node.label
    summary ??= summaries.get(node.id) ?? null
    if (node.id === conversationAt) holdsConversation = true
  }
  // A run adopted is where the conversation goes on: active. One left after another was adopted
  // stays a run, with its outcome (done, stopped, failed), never "abandoned". A branch the
  // conversation left partway (it goes on in a branch forking from it) is active no more: its
  // first nodes are on the conversation's path, its end is not.
  const state: BranchState =
    first.kind === 'subagent'
      ? 'subagent'
      : isRunNode(first.id)
        ? 'run'
        : first.kind === 'exploration'
          ? 'explored'
          : last.onActivePath || holdsConversation
            ? 'active'
            : beginsParallelRun(first)
              ? 'run'
              : summary !== null
                ? 'summarized'
                : 'abandoned'
  return {
    id: first.id,
    parentId: parent?.id ?? null,
    forkId,
    depth: parent === null ? 0 : parent.depth + 1,
    nodeIds: nodes.map((node) => node.id),
    // A run is told from the start's other runs by its number and prompt, before any summary.
    title:
      (label ?? (state === 'run' ? first.title : summary) ?? firstPrompt ?? first.title) ||
      '(empty)',
    turns,
    fileChanges,
    lastActivity,
    state,
    holdsConversation,
    firstTurn,
    lastTurn,
    outcome: last.outcome
  }
}
