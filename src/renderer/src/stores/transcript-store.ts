// The transcript of the branch being read. `branchLeaf` null means the active branch, the only one
// the agent streams into; another branch is a still picture until it becomes active.
import { create } from 'zustand'
import type { AgentEvent, TranscriptEntry } from '../../../shared/views'
import {
  applyAgentEvent,
  emptyTranscript,
  fromEntries,
  type TranscriptModel
} from './transcript-model'

interface TranscriptStore extends TranscriptModel {
  branchLeaf: string | null
  loading: boolean
  startLoading: (branchLeaf: string | null) => void
  receiveEntries: (branchLeaf: string | null, entries: readonly TranscriptEntry[]) => void
  receiveEvents: (events: readonly AgentEvent[]) => void
}

export const useTranscriptStore = create<TranscriptStore>()((set) => ({
  ...emptyTranscript,
  branchLeaf: null,
  loading: false,
  startLoading: (branchLeaf) => set({ branchLeaf, loading: true }),
  receiveEntries: (branchLeaf, entries) =>
    set((state) =>
      // A slower answer for a branch the reader has already left is dropped.
      state.branchLeaf === branchLeaf ? { ...fromEntries(entries), loading: false } : {}
    ),
  receiveEvents: (events) =>
    set((state) => {
      if (state.branchLeaf !== null) return {}
      const now = new Date().toISOString()
      const model = events.reduce<TranscriptModel>(
        (current, event) => applyAgentEvent(current, event, now),
        state
      )
      return {
        order: model.order,
        byId: model.byId,
        tools: model.tools,
        liveNodeId: model.liveNodeId
      }
    })
}))

type State = TranscriptStore

export const selectOrder = (s: State) => s.order
export const selectTranscriptLoading = (s: State) => s.loading
export const selectEntry = (uuid: string) => (s: State) => s.byId[uuid]
export const selectToolOutcome = (toolUseId: string) => (s: State) => s.tools[toolUseId]
/** Index in `order` of the first entry of a graph node, or -1. */
export const selectFirstIndexOf = (nodeId: string | null) => (s: State) =>
  nodeId === null ? -1 : s.order.findIndex((id) => s.byId[id]?.nodeId === nodeId)
export const selectEntryNodeId = (uuid: string) => (s: State) => s.byId[uuid]?.nodeId
