// Layout of the session graph: a pure function from the tree's shape (ids and parents) to node
// positions, linear in the number of nodes. Each branch runs down a column of its own: a node's
// longest line of descendants goes on straight below it, so the conversation's main line is one
// straight column however long it is, and every other child starts a column to its right, the
// leftmost one free for as long as that branch runs. (d3-hierarchy's hierarchy() computed
// heights by walking up to the root from every node: on a real session's chain of 20,000 turns
// that was quadratic, 1.3 s; bench/layout.ts.) Callers run it only when the shape changes (see
// sameShape), never when a streamed token changes a title.

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
export const COLUMN_STEP = NODE_WIDTH + 36
export const ROW_STEP = NODE_HEIGHT + 44

/**
 * Positions (top-left corners) of every node. The conversation runs top to bottom, one row per
 * step; siblings share a row, the one whose line goes on longest in the parent's column (the
 * first of them on a tie) and the others to its right in input order. A branch never starts in
 * a column right under the end of another (one free row at least), so no column reads as one
 * line when it is two. A node attaches to its parent only if the parent came earlier in `nodes`
 * (the contract sends parents first): a missing or later parent makes the node one more root,
 * which also keeps a corrupt cycle from hiding nodes.
 */
export function layoutTree(nodes: readonly TreeShapeNode[]): Map<string, Point> {
  const count = nodes.length
  const indexOf = new Map<string, number>()
  const parent = new Int32Array(count).fill(-1)
  const depth = new Int32Array(count)
  const kept: number[] = []
  for (let i = 0; i < count; i++) {
    const node = nodes[i]!
    if (indexOf.has(node.id)) continue
    const at = node.parentId === null ? undefined : indexOf.get(node.parentId)
    if (at !== undefined) {
      parent[i] = at
      depth[i] = depth[at]! + 1
    }
    indexOf.set(node.id, i)
    kept.push(i)
  }

  // Heights bottom-up in one pass (children come after their parent), then each node's heavy
  // child: the one whose line runs longest, the first on a tie (children in input order).
  const height = new Int32Array(count)
  const heavy = new Int32Array(count).fill(-1)
  for (let k = kept.length - 1; k >= 0; k--) {
    const i = kept[k]!
    const p = parent[i]!
    if (p >= 0 && height[i]! + 1 >= height[p]!) height[p] = height[i]! + 1
  }
  for (const i of kept) {
    const p = parent[i]!
    if (p >= 0 && heavy[p] === -1 && height[i]! + 1 === height[p]) heavy[p] = i
  }

  // A branch starts at every node that is not its parent's heavy child, and runs down the heavy
  // line for height + 1 rows. Branches are placed by the row they start on (a counting sort),
  // and within a row by their parent's column, then input order: each in the leftmost column
  // right of its parent's that is free from the row above its start to its end.
  const starts: number[][] = []
  for (const i of kept) {
    const p = parent[i]!
    if (p >= 0 && heavy[p] === i) continue
    ;(starts[depth[i]!] ??= []).push(i)
  }
  const column = new Int32Array(count)
  const columns = new FreeColumns(Math.max(1, count))
  for (const row of starts) {
    if (row === undefined) continue
    const ordered = row
      .map((i, order) => ({ i, order, after: parent[i]! < 0 ? -1 : column[parent[i]!]! }))
      .sort((a, b) => a.after - b.after || a.order - b.order)
    for (const { i, after } of ordered) {
      const start = depth[i]!
      const end = start + height[i]!
      const c = columns.take(after + 1, start - 1, end)
      for (let at = i; at !== -1; at = heavy[at]!) column[at] = c
    }
  }

  const positions = new Map<string, Point>()
  for (const i of kept) {
    positions.set(nodes[i]!.id, { x: column[i]! * COLUMN_STEP, y: depth[i]! * ROW_STEP })
  }
  return positions
}

/**
 * Columns and the last row each is taken to: a segment tree of those rows, so "the leftmost
 * column from `from` on that is free above `row`" is one walk down the tree (O(log columns)),
 * not a scan (a root with 10,000 children would have made that quadratic).
 */
class FreeColumns {
  private readonly size: number
  /** Per tree node, the least "taken to" row of its columns; -2 for a column never used. */
  private readonly least: Int32Array

  constructor(columns: number) {
    let size = 1
    while (size < columns) size *= 2
    this.size = size
    this.least = new Int32Array(2 * size).fill(-2)
  }

  /** Takes the leftmost column ≥ `from` whose rows are free after `above`, up to row `to`. */
  take(from: number, above: number, to: number): number {
    const c = this.find(1, 0, this.size, from, above)
    // Never more columns than nodes: find always succeeds, as an unused column is free.
    this.set(c, to)
    return c
  }

  private find(node: number, lo: number, hi: number, from: number, above: number): number {
    if (hi <= from || this.least[node]! >= above) return -1
    if (hi - lo === 1) return lo
    const mid = (lo + hi) >> 1
    const left = this.find(2 * node, lo, mid, from, above)
    return left !== -1 ? left : this.find(2 * node + 1, mid, hi, from, above)
  }

  private set(c: number, to: number): void {
    let node = c + this.size
    this.least[node] = to
    for (node >>= 1; node >= 1; node >>= 1) {
      this.least[node] = Math.min(this.least[2 * node]!, this.least[2 * node + 1]!)
    }
  }
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
