// Finding (lead's hostile-file pass, stop 21): "A session record holding a 20 MB command output
// (another tool's: ours are cut to 500,000 characters when written) goes to the page whole: the
// transcript sends 26 MB, the inspector 52 MB (the text, and again the raw record) and takes 24 s
// to show." Every view of a record (transcript, inspector, search, export) sends at most
// MAX_PERSIST_CHARS of its text, ending with a notice; the file keeps all of it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_PERSIST_CHARS } from '../../src/core/session/truncate'
import { sessionFileName, sessionsDir } from '../../src/core/session/paths'
import type { ExportedFile, NodeDetail, SearchEntry, TranscriptEntry } from '../../src/shared/views'
import { stringsIn } from '../support/strings-in'
import { studioHarnesses } from '../support/studio-harness'
import { assistant, header, user } from '../session/builders'

const NOTICE =
  /\[Rewind Studio shows part of this record: \d+ of its \d+ characters are left out here; the session file holds them all\]$/

const { harness } = studioHarnesses()

/**
 * A session in `workspace`'s folder: a prompt, a command whose output is 3 MB, an answer of 2 MB,
 * then a prompt holding a screenshot.
 */
function hugeSession(home: string, workspace: string): { sessionId: string; file: string } {
  const sessionId = '01a23126-a977-760a-8cc0-0000000000aa'
  const records = [
    { ...header(sessionId), cwd: workspace },
    user('u1', null, 'run the build'),
    {
      ...assistant('a1', 'u1'),
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }]
      }
    },
    user('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'o'.repeat(3_000_000) }]),
    assistant('a2', 'r1', `done: ${'d'.repeat(2_000_000)}`),
    // A pasted screenshot of 1.3 MB: its block stays an image (the views name it), its data cut.
    user('u2', 'a2', [
      { type: 'text', text: 'see this' },
      {
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(1_300_000) }
      }
    ]),
    assistant('a3', 'u2')
  ]
  const dir = sessionsDir(home, workspace)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, sessionFileName('2026-01-01T00:00:00.000Z', sessionId))
  writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''))
  return { sessionId, file }
}

describe('a record far over the limit our own records keep', () => {
  it('is sent to the page cut, with a notice, in every view; the file keeps it whole', async () => {
    const h = await harness()
    const { sessionId, file } = hugeSession(h.home, h.workspace)
    const before = readFileSync(file, 'utf8')
    await h.value('session:open', { sessionId })

    const entries = await h.value<TranscriptEntry[]>('session:transcript', { leafUuid: null })
    const longest = (value: unknown) => Math.max(...stringsIn(value).map((s) => s.length))
    const limit = MAX_PERSIST_CHARS + 200
    expect(longest(entries)).toBeLessThan(limit)
    const cut = stringsIn(entries).filter((s) => NOTICE.test(s))
    expect(cut.map((s) => s.slice(0, 6))).toEqual(['oooooo', 'done: ', 'AAAAAA'])
    const screenshot = entries.find((e) => e.uuid === 'u2')?.content as { type: string }[]
    expect(screenshot.map((block) => block.type)).toEqual(['text', 'image'])

    const detail = await h.value<NodeDetail>('session:node', { nodeId: 'u1' })
    expect(longest(detail)).toBeLessThan(limit)
    expect(stringsIn(detail.raw).filter((s) => NOTICE.test(s))).toHaveLength(2)
    // Its two long texts, each in its entry and again in its raw record.
    expect(JSON.stringify(detail).length).toBeLessThan(5 * limit)

    const search = await h.value<SearchEntry[]>('session:searchIndex')
    expect(longest(search)).toBeLessThan(limit)

    const exported = await h.value<ExportedFile>('session:export', {
      format: 'md',
      scope: 'all'
    })
    expect(exported.content.length).toBeLessThan(3 * limit)
    expect(exported.content).toContain('characters are left out here')

    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('is sent with its shape bounded too: a million fields have no long text to cut', async () => {
    const h = await harness()
    const sessionId = '01a23126-a977-760a-8cc0-0000000000ab'
    const numbers = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`n${i}`, i]))
    const records = [
      { ...header(sessionId), cwd: h.workspace },
      user('u1', null, 'run it'),
      {
        ...assistant('a1', 'u1'),
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: numbers }]
        }
      },
      {
        ...user('r1', 'a1', [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: Array.from({ length: 100_000 }, () => ({ type: 'text', text: 'x' }))
          }
        ]),
        // Another tool's own fields, a million of them, on the record itself.
        ...Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`extra${i}`, true]))
      },
      {
        ...assistant('a2', 'r1'),
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't2', name: 'Bash', input: { ['k'.repeat(1_000_000)]: 1 } }
          ]
        }
      }
    ]
    const dir = sessionsDir(h.home, h.workspace)
    mkdirSync(dir, { recursive: true })
    const file = join(dir, sessionFileName('2026-01-01T00:00:00.000Z', sessionId))
    writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''))
    const before = readFileSync(file, 'utf8')
    await h.value('session:open', { sessionId })

    const ENTRIES_NOTICE =
      /^\[Rewind Studio shows part of this record: \d+ more entries here are left out; the session file holds them all\]$/
    const entries = await h.value<TranscriptEntry[]>('session:transcript', { leafUuid: null })
    // 7.2 MB whole: 200,000 fields, a key of a million characters, 100,000 blocks.
    expect(JSON.stringify(entries).length).toBeLessThan(1_000_000)
    expect(stringsIn(entries).filter((s) => ENTRIES_NOTICE.test(s))).toHaveLength(2)
    type Call = { type: string; input: Record<string, unknown> }
    const [call] = entries.find((e) => e.uuid === 'a1')?.content as Call[]
    expect(call?.type).toBe('tool_use')
    expect(call?.input['n0']).toBe(0)
    expect(call?.input['…']).toMatch(ENTRIES_NOTICE)
    const [longKey] = entries.find((e) => e.uuid === 'a2')?.content as Call[]
    expect(Object.keys(longKey?.input ?? {})).toEqual([`${'k'.repeat(200)}…`])
    // The result's blocks stay blocks: the notice closes them as a text block of its own.
    type Result = { content: { type: string; text: string }[] }
    const [result] = entries.find((e) => e.uuid === 'r1')?.content as unknown as Result[]
    expect(result?.content.at(-1)?.type).toBe('text')
    expect(result?.content.at(-1)?.text).toMatch(ENTRIES_NOTICE)

    const detail = await h.value<NodeDetail>('session:node', { nodeId: 'u1' })
    expect(JSON.stringify(detail).length).toBeLessThan(2_000_000)

    const exported = await h.value<ExportedFile>('session:export', { format: 'md', scope: 'all' })
    expect(exported.content.length).toBeLessThan(2_000_000)
    expect(readFileSync(file, 'utf8')).toBe(before)
  })
})
