// Follows the studio's pushed graph updates (session:graphUpdate: the whole graph, then deltas)
// as the page does, giving the whole graph after each.
import { applyGraphUpdate, type GraphUpdate } from '../../src/shared/graph-encoding'
import type { SessionGraph } from '../../src/shared/views'

export function graphFollower(): (update: GraphUpdate) => SessionGraph {
  let held: ReturnType<typeof applyGraphUpdate> = null
  return (update) => {
    held = applyGraphUpdate(held, update)
    if (held === null)
      throw new Error(
        `a graph delta from version ${String(update.kind === 'delta' && update.base)}, not the one held`
      )
    return held.graph
  }
}
