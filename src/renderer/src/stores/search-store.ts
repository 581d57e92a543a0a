// "Search the session": the query, the filter, the index the results come from (fetched once per
// shape of the tree: `forShape` is the graph's parent/child index it was fetched for), and the
// results, computed when one of those changes (never during a render).
import { create } from 'zustand'
import type { GraphNode } from '../../../shared/views'
import {
  searchSession,
  type SearchFilter,
  type SearchIndex,
  type SearchResults
} from '../graph/search'
import type { TreeIndex } from '../graph/tree-index'

/** Results listed at once; the count says how many more match. */
export const SHOWN_RESULTS = 50

interface SearchStore {
  query: string
  filter: SearchFilter
  index: SearchIndex | null
  forShape: TreeIndex | null
  /** The results, and the graph nodes (labels) they were found with. */
  results: SearchResults | null
  resultsFor: ReadonlyMap<string, GraphNode> | null
  /** The results list shows: from typing or focusing the field until a result is chosen. */
  open: boolean
  setOpen: (open: boolean) => void
  setQuery: (query: string, nodes: ReadonlyMap<string, GraphNode>) => void
  setFilter: (filter: SearchFilter, nodes: ReadonlyMap<string, GraphNode>) => void
  setIndex: (index: SearchIndex, forShape: TreeIndex, nodes: ReadonlyMap<string, GraphNode>) => void
}

function labelsOf(nodes: ReadonlyMap<string, GraphNode>): Map<string, string> {
  const labels = new Map<string, string>()
  for (const node of nodes.values()) if (node.label !== null) labels.set(node.id, node.label)
  return labels
}

/** The results for the state after `change`; the last ones are narrowed when they still apply. */
function search(
  state: SearchStore,
  change: Partial<SearchStore>,
  nodes: ReadonlyMap<string, GraphNode>
): Partial<SearchStore> {
  const next = { ...state, ...change }
  if (next.index === null) return { ...change, results: null, resultsFor: null }
  const previous = change.index === undefined && state.resultsFor === nodes ? state.results : null
  const results = searchSession(
    next.index,
    labelsOf(nodes),
    next.query,
    next.filter,
    SHOWN_RESULTS,
    previous
  )
  return { ...change, results, resultsFor: nodes }
}

export const useSearchStore = create<SearchStore>()((set) => ({
  query: '',
  filter: 'all',
  index: null,
  forShape: null,
  results: null,
  resultsFor: null,
  open: false,
  setOpen: (open) => set({ open }),
  setQuery: (query, nodes) => set((s) => search(s, { query, open: true }, nodes)),
  setFilter: (filter, nodes) => set((s) => search(s, { filter, open: true }, nodes)),
  setIndex: (index, forShape, nodes) => set((s) => search(s, { index, forShape }, nodes))
}))

export const selectQuery = (s: SearchStore) => s.query
export const selectFilter = (s: SearchStore) => s.filter
export const selectResultsOpen = (s: SearchStore) => s.open
export const selectResults = (s: SearchStore) => s.results
