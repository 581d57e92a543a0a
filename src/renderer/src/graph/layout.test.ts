import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NODE_WIDTH, layoutTree, sameShape, type TreeShapeNode } from './layout'

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

  it('places every node, roots on the top row, children below their parent, without overlaps', () => {
    fc.assert(
      fc.property(randomTree, (nodes) => {
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
