// @vitest-environment happy-dom
// A streamed token re-renders the one row it belongs to: the list subscribes to the order of
// message ids, each row to its own message. Counted by the rows' own render-time call into the
// transcript model (isToolResultCarrier, once per row render, with that row's entry).
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent, TranscriptEntry } from '../../../shared/views'
import { useGraphStore } from '../stores/graph-store'
import * as model from '../stores/transcript-model'
import { useTranscriptStore } from '../stores/transcript-store'
import { Transcript } from './Transcript'

vi.mock('../stores/transcript-model', async (importOriginal) => {
  const actual = await importOriginal<typeof model>()
  return { ...actual, isToolResultCarrier: vi.fn(actual.isToolResultCarrier) }
})

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true

const NOW = '2026-01-01T00:00:00.000Z'

function entry(uuid: string, nodeId: string, role: 'user' | 'assistant'): TranscriptEntry {
  return {
    uuid,
    nodeId,
    role,
    isPrompt: role === 'user',
    hidden: false,
    content: `${role} ${uuid}`,
    timestamp: NOW
  }
}

/** How many times each row rendered since the last reset, by message uuid. */
function rowRenders(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const [row] of vi.mocked(model.isToolResultCarrier).mock.calls) {
    counts[row.uuid] = (counts[row.uuid] ?? 0) + 1
  }
  return counts
}

const stream = (events: AgentEvent[]) =>
  act(() => useTranscriptStore.getState().receiveEvents(events))

describe('Transcript rendering while the agent streams', () => {
  let container: HTMLElement
  let root: Root

  beforeEach(async () => {
    useGraphStore.setState({ selectedId: null })
    useTranscriptStore.setState({
      ...model.fromEntries([
        entry('p1', 'p1', 'user'),
        entry('a0', 'p1', 'assistant'),
        entry('p2', 'p2', 'user')
      ]),
      branchLeaf: null,
      loading: false
    })
    container = document.createElement('div')
    document.body.append(container)
    root = createRoot(container)
    await act(() => root.render(<Transcript />))
    await stream([{ type: 'message_start', id: 'a1', role: 'assistant' }])
    vi.mocked(model.isToolResultCarrier).mockClear()
  })

  afterEach(async () => {
    await act(() => root.unmount())
    container.remove()
  })

  it('re-renders only the streaming row for a batch of tokens, and shows them', async () => {
    await stream([
      { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: 'Hel' },
      { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: 'lo' }
    ])
    expect(rowRenders()).toEqual({ a1: 1 })
    expect(container.textContent).toContain('Hello')

    vi.mocked(model.isToolResultCarrier).mockClear()
    await stream([
      { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: ' world' }
    ])
    expect(rowRenders()).toEqual({ a1: 1 })
    expect(container.textContent).toContain('Hello world')
  })

  it('moving the selection re-renders only the rows of the turn it lands on', async () => {
    await act(() => useGraphStore.setState({ selectedId: 'p2' }))
    expect(Object.keys(rowRenders()).sort()).toEqual(['a1', 'p2'])
  })
})

describe('Transcript text that would reorder itself', () => {
  it('draws a prompt and a streamed answer with their bidi overrides escaped', async () => {
    const spoof = 'open the file txt\u202Eexe.notes'
    useGraphStore.setState({ selectedId: null })
    useTranscriptStore.setState({
      ...model.fromEntries([{ ...entry('p1', 'p1', 'user'), content: spoof }]),
      branchLeaf: null,
      loading: false
    })
    const container = document.createElement('div')
    document.body.append(container)
    const root = createRoot(container)
    await act(() => root.render(<Transcript />))
    await stream([
      { type: 'message_start', id: 'a1', role: 'assistant' },
      { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: `said ${spoof}` }
    ])
    expect(container.textContent).not.toContain('\u202E')
    expect(container.textContent).toContain('open the file txt\\u202eexe.notes')
    expect(container.textContent).toContain('said open the file txt\\u202eexe.notes')
    await act(() => root.unmount())
    container.remove()
  })
})
