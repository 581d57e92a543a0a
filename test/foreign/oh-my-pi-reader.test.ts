// oh-my-pi sessions, built here from what oh-my-pi's own docs and its readers' tests show (the
// corpus has none): a 256-byte title slot on the first line, pi's version 3 entries after the
// header, title_change entries, a compaction, and sub-agent transcripts in the folder named like
// the session file.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { buildSessionGraph } from '../../src/core/views/session-graph'
import { contextPath } from '../../src/core/session/continue-foreign'

/** The title slot: padded inside its JSON so the line is exactly 256 bytes with its newline. */
function titleSlot(title: string): string {
  const bare = { type: 'title', v: 1, title, source: 'auto', updatedAt: '2026-09-01T18:20:00.000Z' }
  const without = JSON.stringify({ ...bare, pad: '' })
  return JSON.stringify({ ...bare, pad: ' '.repeat(255 - without.length) })
}

const message = (id: string, parentId: string | null, m: object) => ({
  type: 'message',
  id,
  parentId,
  timestamp: '2026-09-01T18:20:00.000Z',
  message: m
})

function ompSession(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rs-omp-'))
  const file = join(dir, '2026-09-01T18-19-23-097Z_01a08c02-ffe5-76fd-9184-4470d76bd10b.jsonl')
  const lines = [
    titleSlot('Fix the parser'),
    JSON.stringify({
      type: 'session',
      version: 3,
      id: '01a08c02-ffe5-76fd-9184-4470d76bd10b',
      timestamp: '2026-09-01T18:19:23.097Z',
      cwd: '/work/parser',
      title: 'Fix the parser',
      titleSource: 'auto'
    }),
    JSON.stringify({ type: 'model_change', id: 'm1', parentId: null, model: 'anthropic/claude' }),
    JSON.stringify(
      message('u1', 'm1', { role: 'user', content: [{ type: 'text', text: 'fix it' }] })
    ),
    JSON.stringify(
      message('a1', 'u1', {
        role: 'assistant',
        content: [
          { type: 'toolCall', id: 'c1', name: 'read', intent: 'look', arguments: { path: 'p.ts' } }
        ]
      })
    ),
    JSON.stringify(
      message('t1', 'a1', { role: 'toolResult', toolCallId: 'c1', content: 'x', isError: false })
    ),
    JSON.stringify({ type: 'title_change', id: 'tc1', parentId: 't1', title: 'Parser fixed' }),
    JSON.stringify({
      type: 'compaction',
      id: 'k1',
      parentId: 'tc1',
      timestamp: '2026-09-01T18:21:00.000Z',
      summary: 'Read p.ts.',
      firstKeptEntryId: 't1',
      tokensBefore: 900
    }),
    JSON.stringify(message('u2', 'k1', { role: 'user', content: 'now test it' })),
    JSON.stringify(
      message('a2', 'u2', { role: 'assistant', content: [{ type: 'text', text: 'ok' }] })
    )
  ]
  expect(Buffer.byteLength(`${lines[0]}\n`)).toBe(256)
  writeFileSync(file, `${lines.join('\n')}\n`)
  const artifacts = file.replace(/\.jsonl$/, '')
  mkdirSync(artifacts)
  writeFileSync(
    join(artifacts, 'Reviewer.jsonl'),
    [
      titleSlot(''),
      JSON.stringify({
        type: 'session',
        version: 3,
        id: 's1',
        cwd: '/work/parser',
        parentSession: file
      }),
      JSON.stringify(message('s-u', null, { role: 'user', content: 'review p.ts' })),
      JSON.stringify(message('s-a', 's-u', { role: 'assistant', content: 'looks fine' }))
    ].join('\n') + '\n'
  )
  return file
}

describe('oh-my-pi sessions', () => {
  it('reads past the title slot: the header, its title, pi entries; the slot and unknown entries kept raw', () => {
    const loaded = readSessionFile(ompSession())
    expect(loaded.format).toBe('oh-my-pi')
    expect(loaded.problems).toEqual([])
    const { tree } = loaded
    expect(tree.header).toMatchObject({
      sessionId: '01a08c02-ffe5-76fd-9184-4470d76bd10b',
      cwd: '/work/parser',
      title: 'Fix the parser'
    })
    expect(tree.activePath().map((r) => r.uuid)).toEqual(['u1', 'a1', 't1', 'k1', 'u2', 'a2'])
    expect(tree.get('a1')).toMatchObject({
      message: { content: [{ type: 'tool_use', id: 'c1', name: 'read', input: { path: 'p.ts' } }] }
    })
    const raw = tree.records
      .filter((r) => (r as { type?: unknown }).type === 'foreign-record')
      .map((r) => (r as { value: { type: string } }).value.type)
    expect(raw).toEqual(['title', 'model_change', 'title_change'])
  })

  it('draws the compaction and continues from it as pi sent it: summary, kept entries, the rest', () => {
    const loaded = readSessionFile(ompSession())
    const graph = buildSessionGraph(loaded.tree, 'omp')
    expect(graph.nodes.map((n) => n.kind)).toEqual(['turn', 'compaction', 'turn'])
    expect(contextPath(loaded.tree, 'a2').map((r) => r.uuid)).toEqual(['k1', 't1', 'u2', 'a2'])
  })

  it('the session files in the folder named like the session are its sub-agent runs', () => {
    const loaded = readSessionFile(ompSession())
    expect(loaded.subagents.map((r) => [r.id, r.title, r.tree.size])).toEqual([
      ['Reviewer', 'review p.ts', 2]
    ])
  })
})
