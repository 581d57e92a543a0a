// A turn's number as Rewind Studio shows it: its prompt's place along its own branch, from the
// root down to it (1 for the first prompt; two branches from turn 3 each go on with a turn 4).
// The explorer's cards, the branch outline's ranges and the HTML and Markdown exports count by
// this one rule. (The CLI's node references, `#12`, number the whole tree instead:
// core/views/node-refs.ts.)
import type { GraphNode } from './views'

/** Each node's count of turns from the root down to it; `nodes` come parents first. */
export function promptNumbers(
  nodes: readonly Pick<GraphNode, 'id' | 'parentId' | 'kind'>[]
): Map<string, number> {
  const numbers = new Map<string, number>()
  for (const node of nodes) {
    const above = node.parentId === null ? 0 : (numbers.get(node.parentId) ?? 0)
    numbers.set(node.id, above + (node.kind === 'turn' ? 1 : 0))
  }
  return numbers
}
