// Parallel runs drawn in the explorer while they go (Try in parallel…): a run not yet joined into
// the session's tree has no node of its own there, so the page adds one beside its start node, a
// sibling branch of the runs that ended, with the run's state as its outcome and its files as its
// badge. Once joined, the run's own turns take its place (the graph from the studio has them).
// These nodes are the page's: their ids start with RUN_NODE_PREFIX, and no node verb is offered
// on them but the run's own (Stop, Compare runs).
import type { RunView } from '../../../shared/parallel-views'
import type { GraphNode, SessionGraph } from '../../../shared/views'

export const RUN_NODE_PREFIX = 'run:'

export const isRunNode = (id: string | null): boolean => id?.startsWith(RUN_NODE_PREFIX) === true

/** The run a page-made node stands for. */
export const runIdOf = (nodeId: string): string => nodeId.slice(RUN_NODE_PREFIX.length)

/**
 * Each run's title in the graph and the outline: its number among the runs started with it (as
 * the compare table numbers them), then its prompt's first line. K runs of one prompt read alike
 * without it. One pass over the runs.
 */
function runTitles(runs: readonly RunView[]): Map<string, string> {
  const counted = new Map<string, number>()
  const titles = new Map<string, string>()
  for (const run of runs) {
    const number = (counted.get(run.group) ?? 0) + 1
    counted.set(run.group, number)
    titles.set(run.id, `Run ${number}: ${run.prompt.split('\n')[0] ?? ''}`)
  }
  return titles
}

/**
 * The graph with a node for each run not yet joined whose start node is in it, and each joined
 * run's first node titled as the run.
 */
export function withRuns(graph: SessionGraph, runs: readonly RunView[]): SessionGraph {
  if (runs.length === 0) return graph
  const ids = new Set(graph.nodes.map((node) => node.id))
  const pending = runs.filter(
    (run) => !run.joined && run.startNodeId !== null && ids.has(run.startNodeId)
  )
  const titles = runTitles(runs)
  const joined = new Map<string, string>()
  for (const run of runs) {
    if (run.joined && run.nodeId !== null && ids.has(run.nodeId)) {
      joined.set(run.nodeId, titles.get(run.id) as string)
    }
  }
  if (pending.length === 0 && joined.size === 0) return graph
  const titled = graph.nodes.map((node) => {
    const title = joined.get(node.id)
    return title === undefined ? node : titledAs(node, title)
  })
  return {
    ...graph,
    nodes: [...titled, ...pending.map((run) => runNode(run, titles.get(run.id) as string))]
  }
}

/**
 * The same object for the same node and title, update after update: the graph view keeps what
 * is drawn while its nodes are the same objects (reuseUnchangedNodes).
 */
const titledNodes = new WeakMap<GraphNode, GraphNode>()

/** The joined runs' first nodes withRuns made: the branches they begin are runs. */
const joinedRunStarts = new WeakSet<GraphNode>()

function titledAs(node: GraphNode, title: string): GraphNode {
  const known = titledNodes.get(node)
  if (known?.title === title) return known
  const titled = { ...node, title }
  titledNodes.set(node, titled)
  joinedRunStarts.add(titled)
  return titled
}

/**
 * Whether the node begins a parallel run's branch: a page-made node of a run going, or a joined
 * run's first node as withRuns titled it (the outline names that branch a run, not abandoned).
 */
export const beginsParallelRun = (node: GraphNode): boolean =>
  isRunNode(node.id) || joinedRunStarts.has(node)

function runNode(run: RunView, title: string): GraphNode {
  return {
    id: RUN_NODE_PREFIX + run.id,
    parentId: run.startNodeId,
    kind: 'turn',
    title,
    timestamp: run.startedAt,
    filesChanged: run.files.length,
    onActivePath: false,
    branchLeafUuid: RUN_NODE_PREFIX + run.id,
    label: null,
    outcome: run.state
  }
}

/** The run whose branch `nodeId` begins (a joined run's first node, or a page-made run node). */
export function runAt(runs: readonly RunView[], nodeId: string): RunView | null {
  if (isRunNode(nodeId)) return runs.find((run) => run.id === runIdOf(nodeId)) ?? null
  return runs.find((run) => run.nodeId === nodeId) ?? null
}
