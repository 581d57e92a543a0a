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

/** The graph with a node for each run not yet joined whose start node is in it. */
export function withRuns(graph: SessionGraph, runs: readonly RunView[]): SessionGraph {
  const ids = new Set(graph.nodes.map((node) => node.id))
  const pending = runs.filter(
    (run) => !run.joined && run.startNodeId !== null && ids.has(run.startNodeId)
  )
  if (pending.length === 0) return graph
  return { ...graph, nodes: [...graph.nodes, ...pending.map(runNode)] }
}

function runNode(run: RunView): GraphNode {
  return {
    id: RUN_NODE_PREFIX + run.id,
    parentId: run.startNodeId,
    kind: 'turn',
    title: `Run: ${run.prompt.split('\n')[0] ?? ''}`,
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
