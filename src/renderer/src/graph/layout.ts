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
  /**
   * A side line (an exploration, a sub-agent's run): it never goes on in its parent's column,
   * however long it runs, so the conversation's own line stays straight.
   */
  readonly side?: boolean
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
  const lines = treeLines(nodes)
  const { parent, depth, heavy, kept } = lines

  // A branch starts at every node that is not its parent's heavy child, and runs down the heavy
  // line to its end. Branches are placed by the row they start on (a counting sort),
  // and within a row by their parent's column, then input order: each in the leftmost column
  // right of its parent's that is free from the row above its start to its end.
  const starts: number[][] = []
  for (const i of kept) {
    if (!lines.continues(i)) (starts[depth[i]!] ??= []).push(i)
  }
  const column = new Int32Array(nodes.length)
  const columns = new FreeColumns(Math.max(1, nodes.length))
  for (const row of starts) {
    if (row === undefined) continue
    const ordered = row
      .map((i, order) => ({ i, order, after: parent[i]! < 0 ? -1 : column[parent[i]!]! }))
      .sort((a, b) => a.after - b.after || a.order - b.order)
    for (const { i, after } of ordered) {
      let last = i
      while (heavy[last] !== -1) last = heavy[last]!
      const c = columns.take(after + 1, depth[i]! - 1, depth[last]!)
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
 * The lines of a tree, by index into its node list: each node's parent (-1: a root), depth,
 * height (the rows its longest line of descendants runs below it) and heavy child (the child that
 * line goes through: the longest, the first on a tie, never a side line; -1 for none). One pass
 * each way, as parents come before their children. `kept` lists the nodes laid out (a repeated
 * id is laid out once).
 */
export interface TreeLines {
  kept: readonly number[]
  parent: Int32Array
  depth: Int32Array
  height: Int32Array
  heavy: Int32Array
  /** Whether node i goes on in its parent's line (it is its parent's heavy child). */
  continues(i: number): boolean
}

export function treeLines(nodes: readonly TreeShapeNode[]): TreeLines {
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
  // A side line's rows count for its parent's height (its column must stay free), but it is
  // never the line that goes on.
  const height = new Int32Array(count)
  const longest = new Int32Array(count).fill(-1)
  for (let k = kept.length - 1; k >= 0; k--) {
    const i = kept[k]!
    const p = parent[i]!
    if (p < 0) continue
    if (height[i]! + 1 > height[p]!) height[p] = height[i]! + 1
    if (nodes[i]!.side !== true && height[i]! > longest[p]!) longest[p] = height[i]!
  }
  const heavy = new Int32Array(count).fill(-1)
  for (const i of kept) {
    const p = parent[i]!
    if (p >= 0 && heavy[p] === -1 && nodes[i]!.side !== true && height[i] === longest[p]) {
      heavy[p] = i
    }
  }
  const continues = (i: number) => parent[i]! >= 0 && heavy[parent[i]!] === i
  return { kept, parent, depth, height, heavy, continues }
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
