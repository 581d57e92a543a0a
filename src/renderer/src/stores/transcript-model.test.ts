import { describe, expect, it } from 'vitest'
import type { AgentEvent, TranscriptEntry } from '../../../shared/views'
import {
  toolCallSubject,
  applyAgentEvent,
  emptyTranscript,
  fromEntries,
  isToolResultCarrier
} from './transcript-model'

const NOW = '2026-01-01T00:00:00.000Z'
const run = (events: AgentEvent[], start = emptyTranscript) =>
  events.reduce((model, event) => applyAgentEvent(model, event, NOW), start)

function entry(
  uuid: string,
  nodeId: string,
  extra: Partial<TranscriptEntry> = {}
): TranscriptEntry {
  return {
    uuid,
    nodeId,
    role: 'user',
    isPrompt: true,
    hidden: false,
    content: `prompt ${uuid}`,
    timestamp: NOW,
    ...extra
  }
}

describe('applyAgentEvent', () => {
  it('ignores a delta for a message it never saw start', () => {
    const model = run([
      { type: 'block_delta', messageId: 'x', index: 0, blockType: 'text', text: 'hi' }
    ])
    expect(model).toBe(emptyTranscript)
  })

  it('streams text into the message, replacing only that entry', () => {
    const loaded = fromEntries([entry('p1', 'p1')])
    const model = run(
      [
        { type: 'message_start', id: 'a1', role: 'assistant' },
        { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: 'Hel' },
        { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: 'lo' }
      ],
      loaded
    )
    expect(model.order).toEqual(['p1', 'a1'])
    expect(model.byId.a1).toMatchObject({
      nodeId: 'p1',
      streaming: true,
      blocks: [{ kind: 'text', text: 'Hello' }]
    })
    expect(model.byId.p1).toBe(loaded.byId.p1)
    const oneMore = applyAgentEvent(
      model,
      { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: '!' },
      NOW
    )
    expect(oneMore.order).toBe(model.order)
  })

  it('files a new prompt under its own turn and the reply under that prompt', () => {
    const model = run(
      [
        { type: 'message_start', id: 'p2', role: 'user' },
        { type: 'message_end', id: 'p2', role: 'user', content: [{ type: 'text', text: 'again' }] },
        { type: 'message_start', id: 'a2', role: 'assistant' }
      ],
      fromEntries([entry('p1', 'p1')])
    )
    expect(model.byId.p2).toMatchObject({ nodeId: 'p2', isPrompt: true, streaming: false })
    expect(model.byId.a2!.nodeId).toBe('p2')
  })

  it('tracks a tool call from start to result, and a tool-result message is no prompt', () => {
    const model = run([
      { type: 'tool_start', toolUseId: 't1', name: 'Edit', input: {} },
      { type: 'tool_end', toolUseId: 't1', isError: true, text: 'no such file' },
      { type: 'message_start', id: 'r1', role: 'user' },
      {
        type: 'message_end',
        id: 'r1',
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'no such file', is_error: true }
        ]
      }
    ])
    expect(model.tools.t1).toEqual({ state: 'error', text: 'no such file' })
    expect(model.byId.r1!.isPrompt).toBe(false)
    expect(isToolResultCarrier(model.byId.r1!)).toBe(true)
  })

  it('counts a call’s time from when it began to run, not while it waited on a permission', () => {
    const waiting = run([{ type: 'tool_start', toolUseId: 't1', name: 'Bash', input: {} }])
    expect(waiting.tools.t1).toEqual({ state: 'running', text: '' })
    const began = '2026-12-02T10:00:05.000Z'
    const running = run([
      { type: 'tool_start', toolUseId: 't1', name: 'Bash', input: {} },
      { type: 'tool_output', toolUseId: 't1', startedAt: began, text: '' }
    ])
    expect(running.tools.t1).toEqual({ state: 'running', text: '', startedAt: began })
  })

  it('clears the streaming mark of every message when the run stops', () => {
    const model = run([
      { type: 'message_start', id: 'a1', role: 'assistant' },
      { type: 'status', running: false }
    ])
    expect(model.byId.a1!.streaming).toBe(false)
  })
})

describe('fromEntries', () => {
  it('keeps the first of two entries with one uuid and reads tool results from blocks', () => {
    const model = fromEntries([
      entry('p1', 'p1'),
      entry('p1', 'p1', { content: 'duplicate' }),
      entry('r1', 'p1', {
        isPrompt: false,
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'ok' }] }
        ]
      })
    ])
    expect(model.order).toEqual(['p1', 'r1'])
    expect(model.byId.p1!.blocks).toEqual([{ kind: 'text', text: 'prompt p1' }])
    expect(model.tools.t1).toEqual({ state: 'done', text: 'ok' })
  })
})

describe('toolCallSubject', () => {
  it('names the file, command or pattern a call is about', () => {
    expect(toolCallSubject('{"file_path":"config.py","old_string":"a"}')).toBe('config.py')
    expect(toolCallSubject('{"command":"npm test\\nnpm run lint"}')).toBe('npm test … +1 line')
    expect(toolCallSubject('{"command":"\\u001b[2K\\rls"}')).toBe('\\x1b[2K\\rls')
    expect(toolCallSubject('{"pattern":"**/*.py"}')).toBe('**/*.py')
  })

  it('has nothing to say about input still streaming or without a known field', () => {
    expect(toolCallSubject('{"file_path":"con')).toBe('')
    expect(toolCallSubject('{"x":1}')).toBe('')
    expect(toolCallSubject('[]')).toBe('')
  })

  it('shortens a long subject', () => {
    const subject = toolCallSubject(JSON.stringify({ command: 'x'.repeat(200) }))
    expect(subject).toHaveLength(80)
    expect(subject.endsWith('…')).toBe(true)
  })
})
