// A graph node as the page receives it, for the renderer's tests: a done turn off the active
// path, its own branch's leaf, with what a test sets over it; and a session graph of nodes with
// no links, markers or timeline.
import type { GraphNode, SessionGraph } from '../../src/shared/views'

export function graphNode(
  id: string,
  parentId: string | null,
  more: Partial<GraphNode> = {}
): GraphNode {
  return {
    id,
    parentId,
    kind: 'turn',
    title: `prompt ${id}`,
    timestamp: '2026-01-01T00:00:00.000Z',
    filesChanged: 0,
    onActivePath: false,
    branchLeafUuid: id,
    label: null,
    outcome: 'done',
    ...more
  }
}

export function sessionGraph(nodes: GraphNode[], leafUuid: string | null = null): SessionGraph {
  return {
    sessionId: 's',
    nodes,
    leafUuid,
    checkpointLinks: [],
    summaryLinks: [],
    canUndo: false,
    filesAt: { nodeId: null, changedSince: false },
    undo: null,
    redo: null
  }
}
