// The session's timeline as the side panel lists it: every rewind, switch and continue, oldest
// first, done or undone (timeline:list).
import { create } from 'zustand'
import type { TimelineEntry } from '../../../shared/views'

interface TimelineStore {
  entries: readonly TimelineEntry[] | null
  setEntries: (entries: readonly TimelineEntry[]) => void
}

export const useTimelineStore = create<TimelineStore>()((set) => ({
  entries: null,
  setEntries: (entries) => set({ entries })
}))

export const selectTimelineEntries = (s: TimelineStore) => s.entries
