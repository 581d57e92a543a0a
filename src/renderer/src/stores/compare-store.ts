// The compare view: two nodes (or a node and the current files), the files that differ with their
// diffs, and the two conversations from their common ancestor, as the main process built them.
import { create } from 'zustand'
import type { CompareView } from '../../../shared/views'

export type CompareState =
  | { state: 'closed' }
  | { state: 'loading'; a: string; b: string }
  | { state: 'ready'; a: string; b: string; view: CompareView }
  | { state: 'failed'; a: string; b: string; message: string }

interface CompareStore {
  compare: CompareState
  /** Diffs loaded one by one (those the view left out), by path. */
  diffs: Readonly<Record<string, string>>
  setCompare: (compare: CompareState) => void
  addDiff: (path: string, diff: string) => void
}

export const useCompareStore = create<CompareStore>()((set) => ({
  compare: { state: 'closed' },
  diffs: {},
  setCompare: (compare) => set({ compare, diffs: {} }),
  addDiff: (path, diff) => set((s) => ({ diffs: { ...s.diffs, [path]: diff } }))
}))

export const selectCompare = (s: CompareStore) => s.compare
export const selectLoadedDiff = (path: string) => (s: CompareStore) => s.diffs[path]
