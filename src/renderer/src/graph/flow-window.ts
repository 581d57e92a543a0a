// What React Flow is handed: the nodes and edges near the view, not the whole tree. React Flow
// adopts, bounds and indexes every node it gets on each change of the array, visible or not
// (onlyRenderVisibleElements culls the drawing only): at 20,000 turns that was ~0.7 s before the
// first frame (docs/performance.md). The store keeps every node; the canvas passes a window
// around the view and moves it when the view nears its edge. Pure.
import type { Edge } from '@xyflow/react'
import type { FlowNode } from './flow-model'
import { NODE_HEIGHT, NODE_WIDTH, type Point } from './layout'

/** A rectangle in flow coordinates. */
export interface FlowRect {
  x: number
  y: number
  width: number
  height: number
}

export interface FlowWindow {
  rect: FlowRect
  nodes: FlowNode[]
  edges: Edge[]
}

/**
 * How far past the view the window reaches on each side, in views: a pan of up to half a view
 * shows nodes already handed over, and the window moves before the view reaches its edge.
 */
export const WINDOW_MARGIN = 0.5

/** Room an edge's drawing takes beyond its two ends' boxes (a bracket's offset to the right). */
const EDGE_REACH = 40

/** The view (flow coordinates) of a pane `width` x `height` px at `transform` [x, y, zoom]. */
export function viewRect(
  transform: readonly [number, number, number],
  width: number,
  height: number
): FlowRect {
  const [tx, ty, zoom] = transform
  return { x: -tx / zoom, y: -ty / zoom, width: width / zoom, height: height / zoom }
}

/** `rect` grown by `margin` of its size on each side. */
export function grown(rect: FlowRect, margin = WINDOW_MARGIN): FlowRect {
  return {
    x: rect.x - rect.width * margin,
    y: rect.y - rect.height * margin,
    width: rect.width * (1 + 2 * margin),
    height: rect.height * (1 + 2 * margin)
  }
}

/** Whether `inner` lies inside `outer`. */
export function contains(outer: FlowRect, inner: FlowRect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  )
}

function overlaps(rect: FlowRect, left: number, top: number, right: number, bottom: number) {
  return (
    left <= rect.x + rect.width &&
    right >= rect.x &&
    top <= rect.y + rect.height &&
    bottom >= rect.y
  )
}

/**
 * The nodes whose card meets `rect`, the edges whose drawing may (the box of its two ends), and
 * the far end of each such edge, so no edge crossing the window loses a node it needs. Node
 * objects are the store's own, in its order: React Flow keeps what it had for each.
 */
export function flowWindow(
  rect: FlowRect,
  nodes: readonly FlowNode[],
  edges: readonly Edge[],
  positions: ReadonlyMap<string, Point>
): FlowWindow {
  const keep = new Set<string>()
  for (const node of nodes) {
    const { x, y } = node.position
    if (overlaps(rect, x, y, x + NODE_WIDTH, y + NODE_HEIGHT)) keep.add(node.id)
  }
  const shownEdges: Edge[] = []
  for (const edge of edges) {
    const from = positions.get(edge.source)
    const to = positions.get(edge.target)
    if (from === undefined || to === undefined) continue
    const left = Math.min(from.x, to.x)
    const top = Math.min(from.y, to.y)
    const right = Math.max(from.x, to.x) + NODE_WIDTH + EDGE_REACH
    const bottom = Math.max(from.y, to.y) + NODE_HEIGHT
    if (!overlaps(rect, left, top, right, bottom)) continue
    shownEdges.push(edge)
    keep.add(edge.source)
    keep.add(edge.target)
  }
  return { rect, nodes: nodes.filter((node) => keep.has(node.id)), edges: shownEdges }
}

/** The box of the nodes `ids` (flow coordinates), or null when none has a position. */
export function boundsOf(
  ids: Iterable<string>,
  positions: ReadonlyMap<string, Point>
): FlowRect | null {
  let left = Infinity
  let top = Infinity
  let right = -Infinity
  let bottom = -Infinity
  for (const id of ids) {
    const at = positions.get(id)
    if (at === undefined) continue
    left = Math.min(left, at.x)
    top = Math.min(top, at.y)
    right = Math.max(right, at.x + NODE_WIDTH)
    bottom = Math.max(bottom, at.y + NODE_HEIGHT)
  }
  return left === Infinity ? null : { x: left, y: top, width: right - left, height: bottom - top }
}
