import { describe, expect, it } from 'vitest'
import { indexTree, neighbor } from './tree-index'

//   root
//   ├── a ── a1
//   └── b ── b1
//         └─ b2
const nodes = [
  { id: 'root', parentId: null },
  { id: 'a', parentId: 'root' },
  { id: 'b', parentId: 'root' },
  { id: 'a1', parentId: 'a' },
  { id: 'b1', parentId: 'b' },
  { id: 'b2', parentId: 'b' }
]
const index = indexTree(nodes)

describe('neighbor', () => {
  it('returns null for an id that is not in the tree', () => {
    expect(neighbor(index, 'nope', 'parent')).toBeNull()
  })

  it('returns null at the edges: above a root, below a leaf, past the last sibling', () => {
    expect(neighbor(index, 'root', 'parent')).toBeNull()
    expect(neighbor(index, 'a1', 'child')).toBeNull()
    expect(neighbor(index, 'b', 'nextSibling')).toBeNull()
    expect(neighbor(index, 'a', 'previousSibling')).toBeNull()
  })

  it('moves to the parent, between siblings in drawing order, and down to a child', () => {
    expect(neighbor(index, 'b1', 'parent')).toBe('b')
    expect(neighbor(index, 'a', 'nextSibling')).toBe('b')
    expect(neighbor(index, 'b2', 'previousSibling')).toBe('b1')
    expect(neighbor(index, 'root', 'child')).toBe('a')
  })

  it('goes down the preferred (active) child before the first one', () => {
    expect(neighbor(index, 'b', 'child', (id) => id === 'b2')).toBe('b2')
  })

  it('treats a node whose parent is unknown as a root, a sibling of the other roots', () => {
    const withOrphan = indexTree([...nodes, { id: 'orphan', parentId: 'gone' }])
    expect(neighbor(withOrphan, 'root', 'nextSibling')).toBe('orphan')
    expect(neighbor(withOrphan, 'orphan', 'parent')).toBeNull()
  })
})
