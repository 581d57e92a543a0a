// Parent and child links of the session graph, for moving through it with the keyboard. The attach
// rule is layout's (a parent must come earlier in the list), so arrows follow what is drawn.
import type { TreeShapeNode } from './layout'

export interface TreeIndex {
  parentOf: ReadonlyMap<string, string | null>
  /** Children in drawing order; the key null lists the roots. */
  childrenOf: ReadonlyMap<string | null, readonly string[]>
}

export type Direction = 'parent' | 'child' | 'previousSibling' | 'nextSibling'

export function indexTree(nodes: readonly TreeShapeNode[]): TreeIndex {
  const parentOf = new Map<string, string | null>()
  const childrenOf = new Map<string | null, string[]>()
  for (const node of nodes) {
    if (parentOf.has(node.id)) continue
    const parent = node.parentId !== null && parentOf.has(node.parentId) ? node.parentId : null
    parentOf.set(node.id, parent)
    const siblings = childrenOf.get(parent)
    if (siblings === undefined) childrenOf.set(parent, [node.id])
    else siblings.push(node.id)
  }
  return { parentOf, childrenOf }
}

/**
 * The node one step away from `id`, or null at an edge of the tree. Going down picks the child
 * `preferChild` accepts (the one on the active path) before the first one.
 */
export function neighbor(
  index: TreeIndex,
  id: string,
  direction: Direction,
  preferChild: (childId: string) => boolean = () => false
): string | null {
  const parent = index.parentOf.get(id)
  if (parent === undefined) return null
  switch (direction) {
    case 'parent':
      return parent
    case 'child': {
      const children = index.childrenOf.get(id) ?? []
      return children.find(preferChild) ?? children[0] ?? null
    }
    case 'previousSibling':
    case 'nextSibling': {
      const siblings = index.childrenOf.get(parent) ?? []
      const at = siblings.indexOf(id) + (direction === 'nextSibling' ? 1 : -1)
      return siblings[at] ?? null
    }
  }
}
