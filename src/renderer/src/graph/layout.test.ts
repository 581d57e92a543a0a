import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  COLUMN_STEP,
  NODE_WIDTH,
  ROW_STEP,
  layoutTree,
  sameShape,
  type TreeShapeNode
} from './layout'

const node = (id: string, parentId: string | null): TreeShapeNode => ({ id, parentId })

/** Random parents-first trees: node i's parent is one of nodes 0..i-1, or none (a new root). */
const randomTree = fc
  .array(fc.option(fc.nat(), { nil: null }), { minLength: 1, maxLength: 120 })
  .map((picks) =>
    picks.map((pick, i) => node(`n${i}`, pick === null || i === 0 ? null : `n${pick % i}`))
  )

function rowsOverlap(positions: Map<string, { x: number; y: number }>): boolean {
  const rows = new Map<number, number[]>()
  for (const { x, y } of positions.values()) rows.set(y, [...(rows.get(y) ?? []), x])
  for (const xs of rows.values()) {
    xs.sort((a, b) => a - b)
    for (let i = 1; i < xs.length; i++) if (xs[i]! - xs[i - 1]! < NODE_WIDTH) return true
  }
  return false
}

describe('layoutTree', () => {
  it('places a node whose parent is missing as one more root instead of dropping it', () => {
    const positions = layoutTree([node('a', null), node('orphan', 'gone')])
    expect(positions.get('orphan')).toBeDefined()
    expect(positions.get('orphan')!.y).toBe(positions.get('a')!.y)
  })

  it('places every node of a cycle (parents listed after their children) as roots', () => {
    const positions = layoutTree([node('a', 'b'), node('b', 'a')])
    expect([...positions.keys()].sort()).toEqual(['a', 'b'])
  })

  it('lays out nothing for an empty session', () => {
    expect(layoutTree([]).size).toBe(0)
  })

  it('keeps a single chain of turns in one column, one row per turn', () => {
    const positions = layoutTree([node('a', null), node('b', 'a'), node('c', 'b')])
    const [a, b, c] = ['a', 'b', 'c'].map((id) => positions.get(id)!)
    expect(new Set([a!.x, b!.x, c!.x]).size).toBe(1)
    expect(a!.y < b!.y && b!.y < c!.y).toBe(true)
  })

  it('puts siblings on one row, left to right in input order', () => {
    const positions = layoutTree([node('p', null), node('first', 'p'), node('second', 'p')])
    const first = positions.get('first')!
    const second = positions.get('second')!
    expect(first.y).toBe(second.y)
    expect(first.x + NODE_WIDTH).toBeLessThanOrEqual(second.x)
  })

  it('keeps the longest line straight in one column however many branches leave it', () => {
    // A real session: one long chain of prompts, a short abandoned branch every few turns.
    const nodes = [node('t0', null)]
    for (let i = 1; i < 400; i++) nodes.push(node(`t${i}`, `t${i - 1}`))
    for (let i = 5; i < 400; i += 7) {
      nodes.push(node(`b${i}`, `t${i}`), node(`b${i}-2`, `b${i}`))
    }
    const positions = layoutTree(nodes)
    const xs = new Set(Array.from({ length: 400 }, (_, i) => positions.get(`t${i}`)!.x))
    expect([...xs]).toEqual([0])
    // Short branches far apart share the column next to the main line.
    expect(positions.get('b5')!.x).toBe(COLUMN_STEP)
    expect(positions.get('b397')!.x).toBe(COLUMN_STEP)
    expect(positions.get('b5-2')!.y).toBe(positions.get('b5')!.y + ROW_STEP)
  })

  it('starts no branch right under the end of another in the same column', () => {
    // b1 ends on row 2; c leaves on row 2 for row 3: directly under b1 it would read as its child.
    const positions = layoutTree([
      node('a0', null),
      node('a1', 'a0'),
      node('a2', 'a1'),
      node('a3', 'a2'),
      node('b1', 'a0'),
      node('b2', 'b1'),
      node('c', 'a2')
    ])
    expect(positions.get('b1')!.x).toBe(COLUMN_STEP)
    expect(positions.get('c')!.x).toBe(2 * COLUMN_STEP)
  })

  it('never goes on down a side line, however long it runs', () => {
    //   a ── b          the sub-agent's run s1..s3 is longer than the conversation's b
    //    └── s1 ── s2 ── s3
    const positions = layoutTree([
      node('a', null),
      { id: 's1', parentId: 'a', side: true },
      node('s2', 's1'),
      node('s3', 's2'),
      node('b', 'a')
    ])
    expect(positions.get('b')!.x).toBe(0)
    expect(positions.get('s1')!.x).toBe(COLUMN_STEP)
    expect(positions.get('s3')!.x).toBe(COLUMN_STEP)
  })

  it('stacks the sub-agent runs of one turn in one column beside it, each below the one before', () => {
    //   t ─┬ s1          five agents at once take one column, not five
    //   u  │ s1b         (s1b: s1's own sub-agent, going on in its line)
    //   v  ├ s2
    //      └ s3
    const run = (id: string, parentId: string): TreeShapeNode => ({
      id,
      parentId,
      side: true,
      stacked: true
    })
    const positions = layoutTree([
      node('t', null),
      run('s1', 't'),
      node('s1b', 's1'),
      run('s2', 't'),
      run('s3', 't'),
      node('u', 't'),
      node('v', 'u'),
      node('w', 'v'),
      node('x', 'u')
    ])
    const at = (id: string) => positions.get(id)!
    expect(['s1', 's1b', 's2', 's3'].map((id) => at(id).x)).toEqual(Array(4).fill(COLUMN_STEP))
    expect(['s1', 's1b', 's2', 's3'].map((id) => at(id).y / ROW_STEP)).toEqual([1, 2, 3, 4])
    expect(at('u')).toEqual({ x: 0, y: ROW_STEP })
    // A branch leaving beside the stack goes to the column past it.
    expect(at('x')).toEqual({ x: 2 * COLUMN_STEP, y: 2 * ROW_STEP })
  })

  it('places ten thousand children of one node side by side', () => {
    const nodes = [node('root', null)]
    for (let i = 0; i < 10_000; i++) nodes.push(node(`c${i}`, 'root'))
    const xs = new Set([...layoutTree(nodes).values()].map((p) => p.x))
    expect(xs.size).toBe(10_000)
  })

  it('places every node, roots on the top row, children below their parent, without overlaps', () => {
    // Some nodes are sub-agent runs (stacked side lines), chosen by the tree's own numbers.
    const withRuns = fc
      .tuple(randomTree, fc.array(fc.boolean(), { maxLength: 120 }))
      .map(([nodes, runs]) =>
        nodes.map((n, i) => (runs[i] === true ? { ...n, side: true, stacked: true } : n))
      )
    fc.assert(
      fc.property(withRuns, (nodes) => {
        const positions = layoutTree(nodes)
        expect(positions.size).toBe(nodes.length)
        for (const n of nodes) {
          if (n.parentId === null) {
            expect(positions.get(n.id)!.y).toBe(0)
            continue
          }
          const parentY = positions.get(n.parentId)!.y
          const childY = positions.get(n.id)!.y
          expect(childY).toBeGreaterThan(parentY)
          // Edges run down and to the right, never back left over another branch.
          expect(positions.get(n.id)!.x).toBeGreaterThanOrEqual(positions.get(n.parentId)!.x)
        }
        expect(rowsOverlap(positions)).toBe(false)
      })
    )
  })
})

describe('sameShape', () => {
  const base = [node('a', null), node('b', 'a')]

  it('is true for the same ids and parents in new objects', () => {
    expect(sameShape(base, [node('a', null), node('b', 'a')])).toBe(true)
  })

  it('is false when a node is added, re-parented or reordered', () => {
    expect(sameShape(base, [...base, node('c', 'b')])).toBe(false)
    expect(sameShape(base, [node('a', null), node('b', null)])).toBe(false)
    expect(sameShape(base, [node('b', 'a'), node('a', null)])).toBe(false)
  })
})
