// The transcript of the branch being read, held as a window of it: entries `start` … of the
// branch's `total` (session:transcriptRange), more fetched as the reader scrolls and the far side
// let go, so a 5,000-turn branch never comes at once. `branchLeaf` null means the active branch,
// the only one the agent streams into, and only while the window reaches its end; another branch
// is a still picture until it becomes active.
import { create } from 'zustand'
import type { AgentEvent, TranscriptWindow } from '../../../shared/views'
import {
  applyAgentEvent,
  emptyTranscript,
  fromEntries,
  joinModels,
  sliceModel,
  type TranscriptModel
} from './transcript-model'

/** The most messages held (and drawn) at once; scrolling past them lets the far side go. */
export const MAX_HELD = 300

interface TranscriptStore extends TranscriptModel {
  branchLeaf: string | null
  loading: boolean
  /** The branch's index of the first message held. */
  start: number
  /** How many of the held messages came from the session (streamed ones follow them). */
  loaded: number
  /** The branch's length when last asked. */
  total: number
  /** Counts the windows started in place of what is held: an answer asked for before is stale. */
  generation: number
  startLoading: (branchLeaf: string | null) => void
  /** A window in place of what is held. */
  receiveWindow: (branchLeaf: string | null, window: TranscriptWindow) => void
  /** The messages just before the held ones; the end goes when too many are held. */
  receiveEarlier: (branchLeaf: string | null, window: TranscriptWindow) => void
  /** The messages from `window.start` (within the held ones) on, replacing streamed ones. */
  receiveLater: (branchLeaf: string | null, window: TranscriptWindow) => void
  receiveEvents: (events: readonly AgentEvent[]) => void
}

export const useTranscriptStore = create<TranscriptStore>()((set) => ({
  ...emptyTranscript,
  branchLeaf: null,
  loading: false,
  start: 0,
  loaded: 0,
  total: 0,
  generation: 0,
  startLoading: (branchLeaf) =>
    set((state) => ({ branchLeaf, loading: true, generation: state.generation + 1 })),
  receiveWindow: (branchLeaf, window) =>
    set((state) =>
      // A slower answer for a branch the reader has already left is dropped.
      state.branchLeaf === branchLeaf
        ? {
            ...fromEntries(window.entries),
            loading: false,
            start: window.start,
            loaded: window.entries.length,
            total: window.total
          }
        : {}
    ),
  receiveEarlier: (branchLeaf, window) =>
    set((state) => {
      // The window may run on into the held ones (it never ends before a tool's results).
      const before = window.entries.slice(0, state.start - window.start)
      if (state.branchLeaf !== branchLeaf || window.start + before.length !== state.start) return {}
      const joined = joinModels(fromEntries(before), state)
      const held = Math.min(joined.order.length, MAX_HELD)
      return {
        ...sliceModel(joined, 0, held),
        start: window.start,
        loaded: Math.min(held, before.length + state.loaded),
        total: window.total
      }
    }),
  receiveLater: (branchLeaf, window) =>
    set((state) => {
      const from = window.start - state.start
      if (state.branchLeaf !== branchLeaf || from < 0 || from > state.loaded) return {}
      const joined = joinModels(sliceModel(state, 0, from), fromEntries(window.entries))
      const drop = Math.max(0, joined.order.length - MAX_HELD)
      return {
        ...sliceModel(joined, drop, joined.order.length),
        start: state.start + drop,
        loaded: joined.order.length - drop,
        total: window.total
      }
    }),
  receiveEvents: (events) =>
    set((state) => {
      // Streamed messages go after the branch's end: only a window showing it takes them.
      if (state.branchLeaf !== null || state.start + state.loaded < state.total) return {}
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
/** How many messages of the branch come before the held ones. */
export const selectEarlierCount = (s: State) => s.start
/** How many messages of the branch come after the held ones (streamed ones count as held). */
export const selectLaterCount = (s: State) => Math.max(0, s.total - s.start - s.loaded)
export const selectEntryNodeId = (uuid: string) => (s: State) => s.byId[uuid]?.nodeId
/** Whether a message of the node is held. */
export const holdsNode = (s: State, nodeId: string) =>
  s.order.some((id) => s.byId[id]?.nodeId === nodeId)
