// Layout of the branch explorer's tree: 10,000 turns with 500 branches, target < 100 ms.
// Baseline, measured in the same run over the same nodes: d3-hierarchy's bare stratify() + tree()
// (the textbook way to lay out a parent-linked list, with no position map built afterwards).
// Run: npx tsx bench/layout.ts
import { stratify, tree } from 'd3-hierarchy'
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  layoutTree,
  type TreeShapeNode
} from '../src/renderer/src/graph/layout'

const TURNS = 10_000
const BRANCHES = 500
const RUNS = 15

/** Deterministic PRNG (mulberry32) so every run measures the same tree. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A session of TURNS turns: the conversation continues from the previous turn, except at
 * BRANCHES points where it continues from an earlier turn (a rewind). */
function sessionTree(): TreeShapeNode[] {
  const next = random(42)
  const branchStarts = new Set<number>()
  while (branchStarts.size < BRANCHES) branchStarts.add(1 + Math.floor(next() * (TURNS - 1)))
  return Array.from({ length: TURNS }, (_, i) => ({
    id: `turn-${i}`,
    parentId: i === 0 ? null : `turn-${branchStarts.has(i) ? Math.floor(next() * i) : i - 1}`
  }))
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function measure(run: () => unknown): number {
  for (let i = 0; i < 3; i++) run()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    run()
    times.push(performance.now() - start)
  }
  return median(times)
}

const nodes = sessionTree()
const ours = measure(() => layoutTree(nodes))
const baseline = measure(() =>
  tree<TreeShapeNode>().nodeSize([NODE_WIDTH, NODE_HEIGHT])(
    stratify<TreeShapeNode>()
      .id((d) => d.id)
      .parentId((d) => d.parentId)(nodes)
  )
)

console.log(`layout of ${TURNS} turns with ${BRANCHES} branches (median of ${RUNS} runs)`)
console.log(`  layoutTree:                 ${ours.toFixed(1)} ms (target < 100 ms)`)
console.log(`  baseline stratify + tree(): ${baseline.toFixed(1)} ms`)
console.log(`  ratio:                      ${(ours / baseline).toFixed(2)}x`)
