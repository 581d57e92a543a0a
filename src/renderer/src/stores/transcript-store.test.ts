// The transcript held as a window of its branch: earlier and later windows join the held one,
// the far side goes past MAX_HELD, streamed messages are taken only at the branch's end.
import { beforeEach, describe, expect, it } from 'vitest'
import type { TranscriptEntry, TranscriptWindow } from '../../../shared/views'
import {
  MAX_HELD,
  selectEarlierCount,
  selectLaterCount,
  useTranscriptStore
} from './transcript-store'

const NOW = '2026-01-01T00:00:00.000Z'

/** Entry i of a branch: a prompt, then an answer calling a tool, then the tool's result. */
function entry(i: number): TranscriptEntry {
  const turn = `p${i - (i % 3)}`
  if (i % 3 === 0) {
    return {
      uuid: `e${i}`,
      nodeId: turn,
      role: 'user',
      isPrompt: true,
      hidden: false,
      content: `prompt ${i}`,
      timestamp: NOW
    }
  }
  if (i % 3 === 1) {
    return {
      uuid: `e${i}`,
      nodeId: turn,
      role: 'assistant',
      isPrompt: false,
      hidden: false,
      timestamp: NOW,
      content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: {} }]
    }
  }
  return {
    uuid: `e${i}`,
    nodeId: turn,
    role: 'user',
    isPrompt: false,
    hidden: false,
    timestamp: NOW,
    content: [{ type: 'tool_result', tool_use_id: `t${i - 1}`, content: 'ok' }]
  }
}

const TOTAL = 1000
const window = (start: number, end: number, total = TOTAL): TranscriptWindow => ({
  total,
  start,
  entries: Array.from({ length: end - start }, (_, k) => entry(start + k))
})
const store = () => useTranscriptStore.getState()

describe('the transcript window', () => {
  beforeEach(() => {
    store().startLoading(null)
    store().receiveWindow(null, window(900, 1000))
  })

  it('joins earlier windows, even one running on into the held messages, and lets the end go', () => {
    store().receiveEarlier(null, window(800, 901))
    expect(store().order[0]).toBe('e800')
    expect(store().order).toHaveLength(200)
    expect(selectEarlierCount(store())).toBe(800)
    store().receiveEarlier(null, window(700, 800))
    store().receiveEarlier(null, window(600, 700))
    expect(store().order).toHaveLength(MAX_HELD)
    expect(store().order.at(-1)).toBe(`e${600 + MAX_HELD - 1}`)
    expect(selectLaterCount(store())).toBe(TOTAL - 600 - MAX_HELD)
    // A tool call whose result is held shows its outcome.
    expect(store().tools.t601).toEqual({ state: 'done', text: 'ok' })
  })

  it('drops a window that does not meet the held one', () => {
    store().receiveEarlier(null, window(100, 200))
    expect(store().order[0]).toBe('e900')
    store().receiveLater(null, window(1001, 1002, 1002))
    expect(store().order).toHaveLength(100)
  })

  it('takes later messages in place of streamed ones, and streams only at the end', () => {
    store().receiveEvents([{ type: 'message_start', id: 'live', role: 'assistant' }])
    expect(store().order.at(-1)).toBe('live')
    store().receiveLater(null, window(999, 1003, 1003))
    expect(store().order.slice(-4)).toEqual(['e999', 'e1000', 'e1001', 'e1002'])
    expect(store().loaded).toBe(103)
    store().receiveEarlier(null, window(500, 903, 1003))
    expect(selectLaterCount(store())).toBeGreaterThan(0)
    store().receiveEvents([{ type: 'message_start', id: 'live2', role: 'assistant' }])
    expect(store().byId.live2).toBeUndefined()
  })
})
