// "Search the session": the query, the filter, and the index the results come from (fetched once
// per shape of the tree: `forShape` is the graph's parent/child index it was fetched for).
import { create } from 'zustand'
import type { SearchFilter, SearchIndex } from '../graph/search'
import type { TreeIndex } from '../graph/tree-index'

interface SearchStore {
  query: string
  filter: SearchFilter
  index: SearchIndex | null
  forShape: TreeIndex | null
  setQuery: (query: string) => void
  setFilter: (filter: SearchFilter) => void
  setIndex: (index: SearchIndex, forShape: TreeIndex) => void
}

export const useSearchStore = create<SearchStore>()((set) => ({
  query: '',
  filter: 'all',
  index: null,
  forShape: null,
  setQuery: (query) => set({ query }),
  setFilter: (filter) => set({ filter }),
  setIndex: (index, forShape) => set({ index, forShape })
}))

export const selectQuery = (s: SearchStore) => s.query
export const selectFilter = (s: SearchStore) => s.filter
export const selectSearchIndex = (s: SearchStore) => s.index
