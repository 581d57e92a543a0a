// Layout of the session graph: a pure function from the tree's shape (ids and parents) to node
// positions, linear in the number of nodes. Each branch runs down a column of its own: a node's
// longest line of descendants goes on straight below it, so the conversation's main line is one
// straight column however long it is, and every other child starts a column to its right, the
// leftmost one free for as long as that branch runs. The sub-agent runs one node started stack in
// one column beside it, each below the one before, so they stay within two columns' width.
// (d3-hierarchy's hierarchy() computed heights by walking up to the root from every node: on a
// real session's chain of 20,000 turns that was quadratic, 1.3 s; bench/layout.ts.) Callers run
// it only when the shape changes (see sameShape), never when a streamed token changes a title.

/** What layout needs of a node: its id and its parent's. */
export interface TreeShapeNode {
  readonly id: string
  readonly parentId: string | null
  /**
   * A side line (an exploration, a sub-agent's run): it never goes on in its parent's column,
   * however long it runs, so the conversation's own line stays straight.
   */
  readonly side?: boolean
  /**
   * A sub-agent's run (a side line too: `side` is set with it): the runs one node started share
   * one column beside it, each starting on the row after the one before it ends. A column each
   * put the fifth run of a turn that ran five at once six columns out, where no view of its turn
   * at a legible zoom reaches (a 360 px canvas at 900x700 shows two).
   */
  readonly stacked?: boolean
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
 * first of them on a tie) and the others to its right in input order, but for the stacked ones
 * (see TreeShapeNode.stacked), which take one column together, one below the other. A branch
 * never starts in a column right under the end of another (one free row at least), so no column
 * reads as one line when it is two; stacked runs are told apart by their edges (each comes in
 * from its parent's side: flow-model.ts). A node attaches to its parent only if the parent came
 * earlier in `nodes` (the contract sends parents first): a missing or later parent makes the
 * node one more root, which also keeps a corrupt cycle from hiding nodes.
 */
export function layoutTree(nodes: readonly TreeShapeNode[]): Map<string, Point> {
  const lines = treeLines(nodes)
  const { parent, heavy, kept } = lines
  const { row, stacks } = rowsOf(nodes, lines)

  // A branch starts at every node that is not its parent's heavy child, and runs down the heavy
  // line to its end; a stack's first run stands for the whole stack. Branches are placed by the
  // row they start on (a counting sort), and within a row by their parent's column, then input
  // order: each in the leftmost column right of its parent's that is free from the row above
  // its start to its end.
  const starts: number[][] = []
  const inLaterStack = new Set<number>()
  for (const members of stacks.values()) members.slice(1).forEach((i) => inLaterStack.add(i))
  for (const i of kept) {
    if (!lines.continues(i) && !inLaterStack.has(i)) (starts[row[i]!] ??= []).push(i)
  }
  const lastOfLine = (i: number) => {
    let last = i
    while (heavy[last] !== -1) last = heavy[last]!
    return last
  }
  const column = new Int32Array(nodes.length)
  const columns = new FreeColumns(Math.max(1, nodes.length))
  for (const startsOfRow of starts) {
    if (startsOfRow === undefined) continue
    const ordered = startsOfRow
      .map((i, order) => ({ i, order, after: parent[i]! < 0 ? -1 : column[parent[i]!]! }))
      .sort((a, b) => a.after - b.after || a.order - b.order)
    for (const { i, after } of ordered) {
      const members = stacks.get(i) ?? [i]
      const c = columns.take(after + 1, row[i]! - 1, row[lastOfLine(members.at(-1)!)]!)
      for (const first of members) for (let at = first; at !== -1; at = heavy[at]!) column[at] = c
    }
  }

  const positions = new Map<string, Point>()
  for (const i of kept) {
    positions.set(nodes[i]!.id, { x: column[i]! * COLUMN_STEP, y: row[i]! * ROW_STEP })
  }
  return positions
}

/**
 * Each node's row: the one below its parent's, but for a parent's stacked lines after the first,
 * which start on the row after the line before them ends. `stacks` lists each parent's stacked
 * lines, first to last, under the first one's index.
 */
function rowsOf(
  nodes: readonly TreeShapeNode[],
  { kept, parent, heavy }: TreeLines
): { row: Int32Array; stacks: Map<number, number[]> } {
  // The rows a line takes: its node and the heavy line below it (children come after parents).
  const lineRows = new Int32Array(nodes.length).fill(1)
  for (let k = kept.length - 1; k >= 0; k--) {
    const i = kept[k]!
    if (heavy[i] !== -1) lineRows[i] = 1 + lineRows[heavy[i]!]!
  }
  const row = new Int32Array(nodes.length)
  const stackOf = new Map<number, number[]>()
  const nextRow = new Map<number, number>()
  for (const i of kept) {
    const p = parent[i]!
    if (p < 0) continue
    if (nodes[i]!.stacked !== true) {
      row[i] = row[p]! + 1
      continue
    }
    row[i] = nextRow.get(p) ?? row[p]! + 1
    nextRow.set(p, row[i]! + lineRows[i]!)
    const members = stackOf.get(p)
    if (members === undefined) stackOf.set(p, [i])
    else members.push(i)
  }
  const stacks = new Map<number, number[]>()
  for (const members of stackOf.values()) stacks.set(members[0]!, members)
  return { row, stacks }
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
