import { describe, expect, it } from 'vitest'
import { graphNode } from '../../../../test/support/graph-node'
import { toFlowEdges, toFlowNodes } from './flow-model'
import { boundsOf, contains, flowWindow, grown, viewRect } from './flow-window'
import { COLUMN_STEP, layoutTree, NODE_HEIGHT, NODE_WIDTH, ROW_STEP } from './layout'

// A chain of 1,000 turns, and at turn 10 a fork whose branch runs 5 turns in the next column.
const chain = Array.from({ length: 1000 }, (_, i) =>
  graphNode(`t${i}`, i === 0 ? null : `t${i - 1}`, { onActivePath: true })
)
const fork = Array.from({ length: 5 }, (_, i) => graphNode(`f${i}`, i === 0 ? 't10' : `f${i - 1}`))
const nodes = [...chain, ...fork]
const positions = layoutTree(nodes)
const flowNodes = toFlowNodes(nodes, positions, new Map(), new Map())
const flowEdges = toFlowEdges({ nodes, checkpointLinks: [], summaryLinks: [] }, new Map())
const at = (id: string) => positions.get(id)!

describe('flowWindow', () => {
  it('hands React Flow the nodes around the view, not the whole tree', () => {
    const view = { x: at('t500').x, y: at('t500').y, width: NODE_WIDTH, height: 3 * ROW_STEP }
    const shown = flowWindow(grown(view), flowNodes, flowEdges, positions)
    const ids = shown.nodes.map((node) => node.id)
    expect(ids).toContain('t500')
    expect(ids).toContain('t502')
    expect(ids).not.toContain('t0')
    expect(ids).not.toContain('t999')
    expect(shown.nodes.length).toBeLessThan(10)
    // The store's own objects, in its order: React Flow keeps what it built for each.
    expect(shown.nodes.every((node) => flowNodes.includes(node))).toBe(true)
    expect(ids).toEqual([...ids].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))))
  })

  it('keeps both ends of an edge that crosses the window, and no edge wholly outside it', () => {
    // The window holds only the space between t10 and f0 (a column to its right, a row down).
    const rect = { x: at('t10').x + NODE_WIDTH + 1, y: at('t10').y, width: 10, height: ROW_STEP }
    const shown = flowWindow(rect, flowNodes, flowEdges, positions)
    expect(shown.edges.map((edge) => edge.id)).toContain('tree:t10->f0')
    expect(shown.nodes.map((node) => node.id)).toEqual(expect.arrayContaining(['t10', 'f0']))
    expect(shown.edges.map((edge) => edge.id)).not.toContain('tree:t500->t501')
  })
})

describe('the window around the view', () => {
  it('reads the view from React Flow’s transform and grows it by half a view each side', () => {
    const view = viewRect([-100, -200, 0.5], 800, 600)
    expect(view).toEqual({ x: 200, y: 400, width: 1600, height: 1200 })
    expect(grown(view)).toEqual({ x: -600, y: -200, width: 3200, height: 2400 })
    expect(contains(grown(view), view)).toBe(true)
    expect(contains(view, grown(view))).toBe(false)
  })

  it('bounds the nodes named, ignoring names with no position', () => {
    expect(boundsOf(['t0', 'f0', 'gone'], positions)).toEqual({
      x: at('t0').x,
      y: at('t0').y,
      width: COLUMN_STEP + NODE_WIDTH,
      height: at('f0').y - at('t0').y + NODE_HEIGHT
    })
    expect(boundsOf(['gone'], positions)).toBeNull()
  })
})
