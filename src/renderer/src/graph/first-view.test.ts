import { getViewportForBounds } from '@xyflow/system'
import { describe, expect, it } from 'vitest'
import { graphNode } from '../../../../test/support/graph-node'
import type { GraphNode } from '../../../shared/views'
import { branchNodes } from './branches'
import { fitPadding, inClearView, showsMinimap, type Pane } from './clear-view'
import { FIRST_VIEW_TURNS, firstView } from './first-view'
import { boundsOf } from './flow-window'
import { layoutTree, NODE_HEIGHT, NODE_WIDTH } from './layout'
import { COMPACT_BELOW_ZOOM, FULL_LEGIBLE_ZOOM, LEGIBLE_ZOOM } from './zooms'

// The turns' canvas at 1280x800 and at 900x700 (the side panel and the details beside it).
const wide: Pane = { width: 630, height: 601 }
const narrow: Pane = { width: 360, height: 489 }

const turn = (id: string, parentId: string | null) =>
  graphNode(id, parentId, { onActivePath: true })
const run = (id: string, parentId: string) =>
  graphNode(id, parentId, { onActivePath: true, kind: 'subagent' })

/** A chain of `count` turns t0..t(count-1) on the active path. */
const chain = (count: number) =>
  Array.from({ length: count }, (_, i) => turn(`t${i}`, i === 0 ? null : `t${i - 1}`))

/** Frames the first view as React Flow's fitView does, and says where each framed node lands. */
function shown(nodes: GraphNode[], pane: Pane) {
  const positions = layoutTree(branchNodes(nodes))
  const view = firstView(nodes, positions, pane)
  const { x, y, zoom } = getViewportForBounds(
    boundsOf(view.ids, positions)!,
    pane.width,
    pane.height,
    view.minZoom,
    view.maxZoom,
    fitPadding(showsMinimap(pane))
  )
  const clear = (id: string) => {
    const at = positions.get(id)!
    // A pixel's slack: a fit puts the framed nodes' edge on the uncovered part's.
    const box = { left: at.x * zoom + x + 1, top: at.y * zoom + y + 1 }
    const size = { width: NODE_WIDTH * zoom - 2, height: NODE_HEIGHT * zoom - 2 }
    return inClearView({ ...box, ...size }, pane)
  }
  return { ids: view.ids, zoom, clear }
}

/** Text drawn at 11 px or more: full cards from FULL_LEGIBLE_ZOOM, compact ones under 0.75. */
const legible = (zoom: number) =>
  zoom >= FULL_LEGIBLE_ZOOM || (zoom >= LEGIBLE_ZOOM && zoom < COMPACT_BELOW_ZOOM)

describe('the first view', () => {
  it('frames the last turns as full cards, no more than fit', () => {
    for (const pane of [wide, narrow]) {
      const { ids, zoom, clear } = shown(chain(40), pane)
      expect(ids.length).toBeLessThanOrEqual(FIRST_VIEW_TURNS)
      expect(ids.at(-1)).toBe('t39')
      expect(zoom).toBeGreaterThanOrEqual(COMPACT_BELOW_ZOOM)
      expect(ids.every(clear)).toBe(true)
    }
  })

  it('shows the runs the last turn started beside it, legible, at 1280x800 and 900x700', () => {
    //   t0 … t9 ─┬ s1 ── s1b     (s1b: s1's own sub-agent)
    //            ├ s2
    //            └ s3
    const nodes = [
      ...chain(10),
      run('s1', 't9'),
      run('s1b', 's1'),
      run('s2', 't9'),
      run('s3', 't9')
    ]
    for (const pane of [wide, narrow]) {
      const { ids, zoom, clear } = shown(nodes, pane)
      expect(ids).toEqual(expect.arrayContaining(['t9', 's1', 's1b', 's2', 's3']))
      expect(legible(zoom)).toBe(true)
      expect(ids.every(clear)).toBe(true)
    }
    // Full cards where the pane has the room for two columns and the runs' rows.
    const two = nodes.filter((node) => node.id !== 's3')
    expect(shown(two, wide).zoom).toBeGreaterThanOrEqual(COMPACT_BELOW_ZOOM)
    expect(shown(two, wide).ids).toEqual(expect.arrayContaining(['t9', 's1', 's1b', 's2']))
  })

  it('frames the runs of a turn before the last with the turns after it', () => {
    // t3 ran six agents; t4 and t5 came after: t3's stack runs down beside them and past.
    const nodes = [...chain(6), ...Array.from({ length: 6 }, (_, i) => run(`s${i}`, 't3'))]
    for (const pane of [wide, narrow]) {
      const { ids, zoom, clear } = shown(nodes, pane)
      expect(ids).toEqual(expect.arrayContaining(['t3', 't5']))
      expect(ids.filter((id) => id.startsWith('s'))).toHaveLength(6)
      expect(legible(zoom)).toBe(true)
      expect(ids.every(clear)).toBe(true)
    }
  })

  it('frames a turn that ran more agents than fit with as many of its runs as fit', () => {
    const nodes = [turn('t', null), ...Array.from({ length: 20 }, (_, i) => run(`s${i}`, 't'))]
    for (const pane of [wide, narrow]) {
      const { ids, zoom, clear } = shown(nodes, pane)
      expect(ids[0]).toBe('t')
      expect(ids.slice(1, 3)).toEqual(['s0', 's1'])
      expect(legible(zoom)).toBe(true)
      expect(ids.every(clear)).toBe(true)
    }
  })
})

describe('the first view after a continue into a branch columns away', () => {
  //   t0 ── t1 ── t2 ── t3 ── t4   (the main line, left: abandoned after t2)
  //                ├ b1            (column 1)
  //                ├ b2            (column 2)
  //                └ a1 ── a2      (column 3: the run adopted, where the conversation stands)
  const left = (id: string, parentId: string) => graphNode(id, parentId)
  const nodes = (columns: number) => [
    turn('t0', null),
    turn('t1', 't0'),
    turn('t2', 't1'),
    left('t3', 't2'),
    left('t4', 't3'),
    ...Array.from({ length: columns - 1 }, (_, i) => left(`b${i + 1}`, 't2')),
    turn('a1', 't2'),
    turn('a2', 'a1')
  ]

  it('frames the path back to its fork at a legible zoom, compact cards where needed', () => {
    const { ids, zoom, clear } = shown(nodes(3), wide)
    expect(ids).toEqual(expect.arrayContaining(['t2', 'a1', 'a2']))
    expect(legible(zoom)).toBe(true)
    expect(ids.every(clear)).toBe(true)
    // One column away the 360 px canvas of 900x700 frames the fork too.
    const narrowView = shown(nodes(1), narrow)
    expect(narrowView.ids).toEqual(expect.arrayContaining(['t2', 'a1', 'a2']))
    expect(legible(narrowView.zoom)).toBe(true)
    expect(narrowView.ids.every(narrowView.clear)).toBe(true)
  })

  it('frames the branch’s own turns as full cards where its fork is further than that reaches', () => {
    const { ids, zoom, clear } = shown(nodes(3), narrow)
    expect(ids).toEqual(['a1', 'a2'])
    expect(zoom).toBeGreaterThanOrEqual(COMPACT_BELOW_ZOOM)
    expect(ids.every(clear)).toBe(true)
  })
})
