import { describe, expect, it } from 'vitest'
import type { GraphNode, SessionGraph } from '../../../shared/views'
import { activeTip, emptyGraphView, nextGraphView } from './graph-view'

function turn(id: string, parentId: string | null, onActivePath = true): GraphNode {
  return {
    id,
    parentId,
    kind: 'turn',
    title: id,
    timestamp: '2026-01-01T00:00:00.000Z',
    filesChanged: 0,
    onActivePath,
    branchLeafUuid: id,
    label: null
  }
}

const graphOf = (nodes: GraphNode[]): SessionGraph => ({
  sessionId: 's',
  nodes,
  leafUuid: null,
  checkpointLinks: [],
  canUndo: false,
  filesAt: { nodeId: null, changedSince: false },
  undo: null,
  redo: null
})

describe('nextGraphView', () => {
  const first = nextGraphView(emptyGraphView, graphOf([turn('a', null), turn('b', 'a')]))

  it('lays out the first graph it receives', () => {
    expect(first.positions.size).toBe(2)
    expect(first.flowNodes).toHaveLength(2)
    expect(first.flowEdges).toHaveLength(1)
  })

  it('keeps the layout when only the active path changed', () => {
    const next = nextGraphView(first, graphOf([turn('a', null), turn('b', 'a', false)]))
    expect(next.positions).toBe(first.positions)
    expect(next.flowNodes[0]).toBe(first.flowNodes[0])
    expect(next.flowNodes[1]).not.toBe(first.flowNodes[1])
  })

  it('lays out again when a turn is added', () => {
    const next = nextGraphView(first, graphOf([turn('a', null), turn('b', 'a'), turn('c', 'a')]))
    expect(next.positions).not.toBe(first.positions)
    expect(next.positions.size).toBe(3)
  })
})

describe('activeTip', () => {
  it('is null when nothing is on the active path, else the deepest active node', () => {
    expect(activeTip([turn('a', null, false)])).toBeNull()
    expect(activeTip([turn('a', null), turn('b', 'a'), turn('c', 'a', false)])).toBe('b')
  })
})
