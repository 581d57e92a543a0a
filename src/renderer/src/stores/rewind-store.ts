// The rewind and branch-switch dialogs: which one is open, for what, and its preview.
import { create } from 'zustand'
import type { RewindMode } from '../../../shared/messages'
import type { CheckpointView, RewindPreview } from '../../../shared/views'

export type PreviewState =
  | { state: 'loading' }
  | { state: 'ready'; preview: RewindPreview }
  | { state: 'failed'; message: string }

/**
 * Switch: to the end of a node's branch. Continue: to the node itself (its turn's end). Adopt: to
 * a parallel run's end, its files brought in (the move's leafUuid holds the run's id).
 */
export type MoveKind = 'switch' | 'continue' | 'adopt'

/**
 * What to do with the branch a move leaves: no summary, a summary, or one following the user's
 * instructions; `remember` saves the choice as the setting summary.onLeave.
 */
export interface LeaveState {
  choice: 'none' | 'summarize' | 'instructions'
  instructions: string
  remember: boolean
}

export const NO_SUMMARY: LeaveState = { choice: 'none', instructions: '', remember: false }

export type RewindDialog =
  | { kind: 'closed' }
  | {
      kind: 'rewind'
      targetId: string
      mode: RewindMode
      /** The prompts of the target's branch, numbered along it (session:checkpoints). */
      choices: readonly CheckpointView[]
      preview: PreviewState
      leave: LeaveState
      applying: boolean
    }
  | {
      kind: 'move'
      move: MoveKind
      nodeId: string
      leafUuid: string
      preview: PreviewState
      leave: LeaveState
      applying: boolean
    }

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
