// Long work under way and how far it got, for the progress the panels show: a summary or
// compaction being written (summary_progress, until the run's status says it ended) or a restore
// writing files (restore_progress, until the action that asked for it returns).
import { create } from 'zustand'

export type Work =
  { kind: 'summary'; chars: number } | { kind: 'restore'; done: number; total: number }

interface WorkStore {
  work: Work | null
  setWork: (work: Work | null) => void
  /** Ends the work of this kind (the other kind's stays). */
  endWork: (kind: Work['kind']) => void
}

export const useWorkStore = create<WorkStore>()((set) => ({
  work: null,
  setWork: (work) => set({ work }),
  endWork: (kind) => set((s) => (s.work?.kind === kind ? { work: null } : s))
}))

export const selectWork = (s: WorkStore) => s.work

/** The restore asked for returned (done or refused): its progress bar goes. */
export function restoreEnded(): void {
  useWorkStore.getState().endWork('restore')
}
