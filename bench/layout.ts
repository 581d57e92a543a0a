// Layout of the branch explorer's tree on the shape a real session has: the active path is one
// long chain of prompts, and every `rewindEvery` turns a rewind leaves the last two turns as a
// branch off it (what test/session/synthetic.ts writes). Target: 20,000 turns < 100 ms.
// Baselines, measured in the same run over the same nodes:
//   - the floor of any layout: one pass over the parent links giving each node its row, into a
//     Map of positions (what layoutTree cannot do with less);
//   - d3-hierarchy's tidy tree as layout.ts used it before (hierarchy() + tree()), whose height
//     computation walks up to the root from every node: quadratic on a chain.
// Also printed: the ratio 20,000 / 10,000 turns (2.0 is linear).
// Run: npx tsx bench/layout.ts
import { hierarchy, tree } from 'd3-hierarchy'
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  layoutTree,
  type TreeShapeNode
} from '../src/renderer/src/graph/layout'

const SIZES = [5_000, 10_000, 20_000, 40_000]
const REWIND_EVERY = 7
const RUNS = 9
/** d3's tidy tree is quadratic: it is timed up to this size (40,000 turns take seconds a run). */
const D3_UP_TO = 20_000

/**
 * A session of `turns` prompts, as the conversation writes it: each prompt after the one before,
 * and every REWIND_EVERY turns two turns left behind as a branch (a rewind of two prompts, the
 * conversation going on from the turn before them). The branches come first among siblings, as
 * they were written first.
 */
function sessionTree(turns: number): TreeShapeNode[] {
  const nodes: TreeShapeNode[] = []
  let main: string | null = null
  let branches = 0
  for (let turn = 0; nodes.length < turns; turn++) {
    if (turn > 0 && turn % REWIND_EVERY === 0 && main !== null) {
      const first = `branch-${branches}-a`
      nodes.push({ id: first, parentId: main }, { id: `branch-${branches++}-b`, parentId: first })
    }
    const id = `turn-${turn}`
    nodes.push({ id, parentId: main })
    main = id
  }
  return nodes.slice(0, turns)
}

/** The floor: a row per node from its parent's, into a Map of positions. */
function rowsOnly(nodes: readonly TreeShapeNode[]): Map<string, { x: number; y: number }> {
  const positions = new Map<string, { x: number; y: number }>()
  for (const node of nodes) {
    const parent = node.parentId === null ? undefined : positions.get(node.parentId)
    positions.set(node.id, { x: 0, y: parent === undefined ? 0 : parent.y + 1 })
  }
  return positions
}

interface Item {
  id: string
  children: Item[]
}

/** layout.ts before: d3-hierarchy's hierarchy() + tree() over the same tree. */
function d3TidyTree(nodes: readonly TreeShapeNode[]): Map<string, { x: number; y: number }> {
  const root: Item = { id: '', children: [] }
  const items = new Map<string, Item>()
  for (const node of nodes) {
    const item: Item = { id: node.id, children: [] }
    const parent = node.parentId === null ? undefined : items.get(node.parentId)
    ;(parent ?? root).children.push(item)
    items.set(node.id, item)
  }
  const laidOut = tree<Item>()
    .nodeSize([NODE_WIDTH + 36, NODE_HEIGHT + 44])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.2))(hierarchy(root))
  const positions = new Map<string, { x: number; y: number }>()
  for (const placed of laidOut.descendants()) {
    if (placed.depth > 0) positions.set(placed.data.id, { x: placed.x, y: placed.depth })
  }
  return positions
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Medians of each contender, timed in turns (A B C A B C…) so none gets a quieter moment. */
function measure(contenders: Record<string, () => unknown>, runs: number): Record<string, number> {
  const times: Record<string, number[]> = {}
  for (const name of Object.keys(contenders)) {
    times[name] = []
    contenders[name]!()
  }
  for (let i = 0; i < runs; i++) {
    for (const [name, run] of Object.entries(contenders)) {
      const start = performance.now()
      run()
      times[name]!.push(performance.now() - start)
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)]))
}

const ms = (v: number | undefined) => (v === undefined ? '      -' : `${v.toFixed(1).padStart(7)}`)
console.log(
  `layout on a real chain (a 2-turn branch every ${REWIND_EVERY} turns), median of ${RUNS} runs, ms`
)
console.log('  turns   layoutTree   floor (rows only)   ratio   d3 tidy tree (before)   ratio')
const ours = new Map<number, number>()
for (const turns of SIZES) {
  const nodes = sessionTree(turns)
  const contenders: Record<string, () => unknown> = {
    ours: () => layoutTree(nodes),
    floor: () => rowsOnly(nodes)
  }
  if (turns <= D3_UP_TO) contenders.d3 = () => d3TidyTree(nodes)
  const t = measure(contenders, turns <= D3_UP_TO ? RUNS : Math.ceil(RUNS / 2))
  ours.set(turns, t.ours!)
  console.log(
    `  ${String(turns).padStart(6)}   ${ms(t.ours)}      ${ms(t.floor)}         ${(t.ours! / t.floor!).toFixed(1).padStart(5)}x` +
      `   ${ms(t.d3)}                ${t.d3 === undefined ? '    -' : `${(t.ours! / t.d3).toFixed(2)}x`}`
  )
}
console.log(
  `  20,000 turns: ${ms(ours.get(20_000))} ms (target < 100 ms); ` +
    `20,000 / 10,000 turns: ${(ours.get(20_000)! / ours.get(10_000)!).toFixed(2)}x (2.0 is linear)`
)
