// Tidy-tree layout of the session graph: a pure function from the tree's shape (ids and parents)
// to node positions. d3-hierarchy's tree() is the Reingold–Tilford algorithm in linear time, so a
// 10,000-turn session lays out in milliseconds (dagre's ranking is quadratic here). Callers run it
// only when the shape changes (see sameShape), never when a streamed token changes a title.
import { hierarchy, tree } from 'd3-hierarchy'

/** What layout needs of a node: its id and its parent's. */
export interface TreeShapeNode {
  readonly id: string
  readonly parentId: string | null
}

export interface Point {
  x: number
  y: number
}

export const NODE_WIDTH = 240
export const NODE_HEIGHT = 84
const COLUMN_GAP = 36
const ROW_GAP = 44

interface LayoutItem {
  id: string
  children: LayoutItem[]
}

/**
 * Positions (top-left corners) of every node. The conversation runs top to bottom; branches spread
 * sideways, siblings in their input order. A node attaches to its parent only if the parent came
 * earlier in `nodes` (the contract sends parents first): a missing or later parent makes the node
 * one more root, which also keeps a corrupt cycle from hiding nodes.
 */
export function layoutTree(nodes: readonly TreeShapeNode[]): Map<string, Point> {
  // The virtual root gathers every real root (compactions start new roots) into one tree.
  const root: LayoutItem = { id: '', children: [] }
  const items = new Map<string, LayoutItem>()
  for (const node of nodes) {
    if (items.has(node.id)) continue
    const item: LayoutItem = { id: node.id, children: [] }
    const parent = node.parentId === null ? undefined : items.get(node.parentId)
    ;(parent ?? root).children.push(item)
    items.set(node.id, item)
  }

  const laidOut = tree<LayoutItem>()
    .nodeSize([NODE_WIDTH + COLUMN_GAP, NODE_HEIGHT + ROW_GAP])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.2))(hierarchy(root))

  const positions = new Map<string, Point>()
  for (const placed of laidOut.descendants()) {
    if (placed.depth === 0) continue
    positions.set(placed.data.id, {
      x: placed.x - NODE_WIDTH / 2,
      y: (placed.depth - 1) * (NODE_HEIGHT + ROW_GAP)
    })
  }
  return positions
}

/** True when both lists describe the same tree: same ids, same parents, same order. */
export function sameShape(a: readonly TreeShapeNode[], b: readonly TreeShapeNode[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i]
    const y = b[i]
    if (x === undefined || y === undefined || x.id !== y.id || x.parentId !== y.parentId) {
      return false
    }
  }
  return true
}
