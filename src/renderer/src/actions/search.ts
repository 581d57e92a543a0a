// Search: the index is asked for when the search is used and the tree's shape has changed since
// it was fetched; choosing a result selects its node, unfolds what hides it and centres it.
import { getBridge } from '../bridge'
import { indexForSearch, type SearchFilter } from '../graph/search'
import { useGraphStore } from '../stores/graph-store'
import { useSearchStore } from '../stores/search-store'
import type { TreeIndex } from '../graph/tree-index'
import { attempt } from './report'

let fetching: TreeIndex | null = null

/** Fetches the index when the one held is for another shape of the tree (or none). */
export async function ensureSearchIndex(): Promise<void> {
  const shape = useGraphStore.getState().fullIndex
  if (useSearchStore.getState().forShape === shape || fetching === shape) return
  fetching = shape
  const entries = await attempt('Loading the search index', () =>
    getBridge().request('session:searchIndex', {})
  )
  if (fetching === shape) fetching = null
  if (entries !== null) {
    const nodes = useGraphStore.getState().nodesById
    useSearchStore.getState().setIndex(indexForSearch(entries), shape, nodes)
  }
}

export function searchFor(query: string): void {
  useSearchStore.getState().setQuery(query, useGraphStore.getState().nodesById)
  void ensureSearchIndex()
}

export function searchIn(filter: SearchFilter): void {
  useSearchStore.getState().setFilter(filter, useGraphStore.getState().nodesById)
  void ensureSearchIndex()
}

export function jumpToNode(id: string): void {
  useSearchStore.getState().setOpen(false)
  const graph = useGraphStore.getState()
  graph.reveal(id)
  graph.select(id)
  graph.requestCentre(id)
}
