// The graph's wire form: a round trip gives back every field of every node, and a delta applied
// to the version it was made from gives the next graph exactly.
import { describe, expect, it } from 'vitest'
import {
  applyGraphUpdate,
  decodeNodes,
  encodeGraph,
  encodeNodes,
  graphDelta
} from './graph-encoding'
import type { GraphNode, SessionGraph } from './views'

function node(id: string, parentId: string | null, extra: Partial<GraphNode> = {}): GraphNode {
  return {
    id,
    parentId,
    kind: 'turn',
    title: `prompt ${id}`,
    timestamp: `2026-01-01T00:00:0${id.length % 10}.000Z`,
    filesChanged: 0,
    onActivePath: true,
    branchLeafUuid: 'leaf-a',
    label: null,
    outcome: 'done',
    ...extra
  }
}

function graph(nodes: GraphNode[], extra: Partial<SessionGraph> = {}): SessionGraph {
  return {
    sessionId: 's1',
    nodes,
    leafUuid: nodes.at(-1)?.branchLeafUuid ?? null,
    checkpointLinks: [],
    summaryLinks: [],
    canUndo: false,
    filesAt: { nodeId: null, changedSince: false },
    undo: null,
    redo: null,
    ...extra
  }
}

const varied: GraphNode[] = [
  node('p1', null, { filesChanged: 3, label: 'start here' }),
  node('p2', 'p1', { kind: 'branch_summary', onActivePath: false, branchLeafUuid: 'leaf-b' }),
  node('p3', 'p1', { kind: 'rewind_report', outcome: 'stopped' }),
  node('p4', 'p3', { kind: 'exploration', timestamp: 'not a time', outcome: 'failed' }),
  node('p5', 'p4', { kind: 'subagent', timestamp: '2025-12-31T23:59:59.999Z' }),
  node('p6', 'p5', { kind: 'compaction', outcome: 'running', title: 'line "quoted" ✓' }),
  // A parent the graph does not hold (a node attached to a record that is gone).
  node('p7', 'missing-parent', { timestamp: '2026-01-01T00:00:00Z' })
]

describe('the compact graph', () => {
  it('gives back every field of every node', () => {
    expect(decodeNodes(encodeNodes(varied))).toEqual(varied)
    const full = encodeGraph(graph(varied), 7)
    expect(applyGraphUpdate(null, full)).toEqual({ graph: graph(varied), version: 7 })
  })

  it('names each branch leaf once and each parent by its index', () => {
    const compact = encodeNodes(varied)
    expect(compact.leaves).toEqual(['leaf-a', 'leaf-b'])
    expect(compact.parent).toEqual([null, 0, 0, 2, 3, 4, 'missing-parent'])
    expect(compact.kind).toBe('0124530')
    expect(JSON.stringify(compact)).not.toContain('branchLeafUuid')
  })

  it('refuses columns of different lengths', () => {
    const compact = encodeNodes(varied)
    expect(() => decodeNodes({ ...compact, title: compact.title.slice(1) })).toThrow(/length/)
  })
})

describe('graph deltas', () => {
  const base = graph([node('p1', null), node('p2', 'p1')])

  it('sends a new turn and a renamed leaf, not the nodes the rename moves', () => {
    const next = graph([
      node('p1', null, { branchLeafUuid: 'leaf-c' }),
      node('p2', 'p1', { branchLeafUuid: 'leaf-c' }),
      node('p3', 'p2', { branchLeafUuid: 'leaf-c', outcome: 'running' })
    ])
    const delta = graphDelta(base, 1, next, 2)
    expect(delta?.renames).toEqual([['leaf-a', 'leaf-c']])
    expect(delta?.nodes.id).toEqual(['p3'])
    expect(delta?.nodes.parent).toEqual(['p2'])
    expect(applyGraphUpdate({ graph: base, version: 1 }, delta!)).toEqual({
      graph: next,
      version: 2
    })
  })

  it('replaces changed nodes in place, inserts new ones where they belong, drops removed ones', () => {
    const before = graph([node('p1', null), node('p2', 'p1'), node('p3', 'p2'), node('p4', 'p1')])
    const after = graph(
      [
        node('p1', null, { label: 'kept' }),
        node('n1', 'p1', { onActivePath: false, branchLeafUuid: 'leaf-n' }),
        node('p3', 'p1'),
        node('n2', 'n1', { onActivePath: false, branchLeafUuid: 'leaf-n' })
      ],
      { canUndo: true, undo: { id: 'r1', label: 'Rewind' } }
    )
    const delta = graphDelta(before, 4, after, 5)!
    expect(delta.removed).toEqual(['p2', 'p4'])
    expect(delta.nodes.id).toEqual(['p1', 'n1', 'p3', 'n2'])
    expect(applyGraphUpdate({ graph: before, version: 4 }, delta)).toEqual({
      graph: after,
      version: 5
    })
  })

  it('is no delta for another session or nodes that changed order', () => {
    const swapped = graph([node('p2', null), node('p1', null)])
    expect(graphDelta(base, 1, swapped, 2)).toBeNull()
    expect(graphDelta(base, 1, { ...base, sessionId: 's2' }, 2)).toBeNull()
  })

  it('applies only to the version it was made from', () => {
    const delta = graphDelta(base, 1, base, 2)!
    expect(delta.nodes.id).toEqual([])
    expect(applyGraphUpdate({ graph: base, version: 3 }, delta)).toBeNull()
    expect(applyGraphUpdate(null, delta)).toBeNull()
    expect(applyGraphUpdate({ graph: { ...base, sessionId: 's2' }, version: 1 }, delta)).toBeNull()
  })
})
