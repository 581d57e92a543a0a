// The rewind and branch-switch dialogs: which one is open, for what, and its preview.
import { create } from 'zustand'
import type { RewindMode } from '../../../shared/messages'
import type { RewindPreview } from '../../../shared/views'

export type PreviewState =
  | { state: 'loading' }
  | { state: 'ready'; preview: RewindPreview }
  | { state: 'failed'; message: string }

export type RewindDialog =
  | { kind: 'closed' }
  | { kind: 'rewind'; targetId: string; mode: RewindMode; preview: PreviewState; applying: boolean }
  | { kind: 'switch'; nodeId: string; leafUuid: string; preview: PreviewState; applying: boolean }

interface RewindStore {
  dialog: RewindDialog
  open: (dialog: Exclude<RewindDialog, { kind: 'closed' }>) => void
  update: (change: (dialog: RewindDialog) => RewindDialog) => void
  close: () => void
}

export const useRewindStore = create<RewindStore>()((set) => ({
  dialog: { kind: 'closed' },
  open: (dialog) => set({ dialog }),
  update: (change) => set((s) => ({ dialog: change(s.dialog) })),
  close: () => set({ dialog: { kind: 'closed' } })
}))

export const selectDialog = (s: RewindStore) => s.dialog
export const selectCloseDialog = (s: RewindStore) => s.close
