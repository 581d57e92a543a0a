// The inspector's node detail (prompt, answer, tool calls, files with diffs, report text).
import { create } from 'zustand'
import type { NodeDetail } from '../../../shared/views'

export type DetailState =
  | { state: 'empty' }
  | { state: 'loading'; nodeId: string }
  | { state: 'ready'; nodeId: string; detail: NodeDetail }
  | { state: 'failed'; nodeId: string; message: string }

interface InspectorStore {
  detail: DetailState
  setDetail: (detail: DetailState) => void
}

export const useInspectorStore = create<InspectorStore>()((set) => ({
  detail: { state: 'empty' },
  setDetail: (detail) => set({ detail })
}))

export const selectDetail = (s: InspectorStore) => s.detail
