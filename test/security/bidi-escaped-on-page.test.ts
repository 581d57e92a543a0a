// Finding (lead's hostile-file pass, stop 21): "A right-to-left override (U+202E) in a session is
// drawn as it acts: an answer reading 'evil bidi' shows as 'idib live' in the transcript and the
// inspector, and the same goes for a command, a tool's output, a diff line, a node's title." The
// permission question and the exports escaped these characters; the page's other views did not.
// Everything the page shows of a session has the characters that reorder text escaped (`\u202e`):
// the views the studio builds (titles, labels, checkpoints, the session list) and what the
// renderer draws from entries and streamed events (shared/control-chars.ts). Line breaks, tabs and
// `\r` are kept: a page draws no control sequence.
import { describe, expect, it } from 'vitest'
import { escapeReorderingChars } from '../../src/shared/control-chars'
import type {
  CheckpointView,
  SessionGraph,
  SessionSummary,
  TranscriptEntry
} from '../../src/shared/views'
import {
  applyAgentEvent,
  emptyTranscript,
  fromEntries,
  toolCallSubject
} from '../../src/renderer/src/stores/transcript-model'
import { stringsIn } from '../support/strings-in'
import { studioHarnesses } from '../support/studio-harness'

const RLO = '\u202e'
const PDF = '\u202c'
const REORDERING = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

describe('escapeReorderingChars', () => {
  it('escapes each reordering character and keeps line breaks, tabs and carriage returns', () => {
    expect(escapeReorderingChars(`a${RLO}b${PDF}\u2066c\u2069\u200fd\u061c`)).toBe(
      'a\\u202eb\\u202c\\u2066c\\u2069\\u200fd\\u061c'
    )
    expect(escapeReorderingChars('line\r\n\tnext \u001b[31m')).toBe('line\r\n\tnext \u001b[31m')
  })
})

describe('what the renderer draws', () => {
  const NOW = '2026-01-01T00:00:00.000Z'

  it('loaded entries: text, thinking, a command and its output', () => {
    const model = fromEntries([
      {
        uuid: 'a1',
        nodeId: 'p1',
        role: 'assistant',
        isPrompt: false,
        hidden: false,
        timestamp: NOW,
        content: [
          { type: 'text', text: `${RLO}evil bidi${PDF}` },
          { type: 'thinking', thinking: `${RLO}hmm`, signature: 's' },
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: `rm -rf ~ #${RLO}safe` } }
        ]
      },
      {
        uuid: 'r1',
        nodeId: 'p1',
        role: 'user',
        isPrompt: false,
        hidden: false,
        timestamp: NOW,
        content: [{ type: 'tool_result', tool_use_id: 't1', content: `done ${RLO}ko` }]
      }
    ] satisfies TranscriptEntry[])
    const drawn = JSON.stringify(model)
    expect(drawn).not.toMatch(REORDERING)
    expect(model.byId.a1?.blocks[0]).toEqual({ kind: 'text', text: '\\u202eevil bidi\\u202c' })
    expect(model.tools.t1?.text).toBe('done \\u202eko')
    // The command's input stays JSON that means the same: its one-line summary escapes it too.
    const tool = model.byId.a1?.blocks[2]
    expect(tool?.kind === 'tool' && toolCallSubject(tool.inputText)).toBe('rm -rf ~ #\\u202esafe')
  })

  it('streamed pieces and a tool’s end', () => {
    const events = [
      { type: 'message_start', id: 'a1', role: 'assistant' },
      { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: 'x' },
      { type: 'block_delta', messageId: 'a1', index: 0, blockType: 'text', text: `${RLO}y` },
      { type: 'tool_start', toolUseId: 't1', name: 'Bash', input: {} },
      { type: 'tool_end', toolUseId: 't1', isError: false, text: `${RLO}out` }
    ] as const
    const model = events.reduce(
      (m, event) => applyAgentEvent(m, event as Parameters<typeof applyAgentEvent>[1], NOW),
      emptyTranscript
    )
    expect(JSON.stringify(model)).not.toMatch(REORDERING)
    expect(model.byId.a1?.blocks[0]).toMatchObject({ text: 'x\\u202ey' })
  })
})

describe('the views the studio builds', () => {
  const { harness } = studioHarnesses()

  it('titles, labels, checkpoints and the session list', async () => {
    const h = await harness()
    await h.sendAndWait(`add TIMEOUT = 30 to config.py ${RLO}gnp.exe`)
    const graph = await h.value<SessionGraph>('session:graph')
    const node = graph.nodes[0]
    expect(node?.title).toContain('\\u202egnp.exe')
    await h.value('session:label', { nodeId: node?.id, label: `${RLO}label` })
    const views = [
      await h.value<SessionGraph>('session:graph'),
      await h.value<CheckpointView[]>('session:checkpoints', { leafUuid: null }),
      await h.value<SessionSummary[]>('session:list'),
      await h.value('timeline:list')
    ]
    const shown = stringsIn(views)
    expect(shown.filter((s) => REORDERING.test(s))).toEqual([])
    expect(shown).toContain('\\u202elabel')
  })
})
