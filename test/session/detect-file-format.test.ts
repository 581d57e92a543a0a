// detectFileFormat decodes and parses only a file's first lines (the first megabyte of a long
// session holds thousands): it must judge every file as the whole first megabyte's first 50
// records judged it, on real Claude Code transcripts, ours, pi's and odd files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { detectFileFormat, detectFormat, readSessionFile } from '../../src/core/session/load'
import { parseJsonl } from '../../src/core/session/jsonl'
import { FIXTURES } from '../foreign/cc-fixtures'

const dir = mkdtempSync(join(tmpdir(), 'rs-detect-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The plain judgement: every whole line of the first megabyte parsed, the first 50 kept. */
function plainFormat(file: string) {
  const text = readFileSync(file)
    .subarray(0, 1024 * 1024)
    .toString('utf8')
  const cut = readFileSync(file).length > 1024 * 1024
  const whole = cut ? text.slice(0, text.lastIndexOf('\n') + 1) : text
  return detectFormat(parseJsonl(whole).values.slice(0, 50))
}

const fixtureTranscripts = [
  'rewind-parallel/claude/projects/-tmp-cc-offline-fZeFtF-ws/7d7a2229-dbc1-4214-af1e-e197f89a6e19.jsonl',
  'compact-subagents/claude/projects/-tmp-cc-offline-0gEFZt-ws/011d0715-fd20-4fcf-af29-94c1aae5c3b5.jsonl'
].map((rel) => join(FIXTURES, rel))

const ourHeader = JSON.stringify({
  type: 'session',
  version: 1,
  sessionId: '01a23017-300b-758e-8548-1d52c98f26de',
  timestamp: '2026-12-01T00:00:00.000Z',
  cwd: '/tmp/ws'
})
const piHeader = JSON.stringify({
  type: 'session',
  version: 3,
  id: 'a',
  timestamp: '2026-12-01T00:00:00.000Z',
  cwd: '/tmp/ws'
})
const note = (i: number) => JSON.stringify({ type: 'custom', i, text: 'x'.repeat(200) })

function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('detectFileFormat', () => {
  it('judges real Claude Code transcripts as the whole first megabyte did', () => {
    for (const path of fixtureTranscripts) {
      expect(detectFileFormat(path)).toBe('claude-code')
      expect(detectFileFormat(path)).toBe(plainFormat(path))
    }
  })

  it('judges ours, pi-like and odd files as the whole first megabyte did', () => {
    const many = (header: string, lines: number) =>
      [header, ...Array.from({ length: lines }, (_, i) => note(i))].join('\n') + '\n'
    const files = [
      file('ours-long.jsonl', many(ourHeader, 20_000)), // past the megabyte, cut there
      file('ours-short.jsonl', many(ourHeader, 3)),
      file('ours-no-newline.jsonl', ourHeader),
      file('pi.jsonl', many(piHeader, 100)),
      file('blank-first.jsonl', `\n\n${many(ourHeader, 60)}`),
      // More blank and malformed lines than the records judged: they give no record.
      file('blank-many.jsonl', `${'\n'.repeat(80)}${many(piHeader, 60)}`),
      file('garbage-many.jsonl', `${'{not json\n'.repeat(70)}${many(piHeader, 60)}`),
      file('garbage-first.jsonl', `not json\n${many(piHeader, 60)}`),
      file('one-huge-line.jsonl', `${JSON.stringify({ text: 'y'.repeat(1024 * 1024) })}\n`),
      file('empty.jsonl', ''),
      // A two-byte character cut by the megabyte's end, in a line that is not whole.
      file('cut-char.jsonl', `${ourHeader}\n${JSON.stringify({ t: 'é'.repeat(600_000) })}\n`)
    ]
    for (const path of files) expect(detectFileFormat(path), path).toBe(plainFormat(path))
    expect(detectFileFormat(files[0] as string)).toBe('rewind-studio')
  })
})

// The foreign sweep (stop 46): a UTF-8 byte order mark before the first line (an editor's save)
// made a whole pi, Codex, Gemini CLI or Claude Code session unreadable ("rewind-studio session
// (no header)"). Real sessions of each tool, with a BOM put before them, read as without it.
describe('a byte order mark before the first line', () => {
  const FIXTURE_ROOT = join(import.meta.dirname, '../fixtures')
  const sessions = [
    fixtureTranscripts[0]!,
    join(
      FIXTURE_ROOT,
      'pi/leaf-label/2026-12-01T23-26-02-274Z_01a233ed-f422-7456-8cc5-daaaac3ad563.jsonl'
    ),
    join(
      FIXTURE_ROOT,
      'codex/sessions/2026/12/01/rollout-2026-12-01T23-56-47-01a2340a-1c81-7873-83fe-941408e6ba35.jsonl'
    ),
    join(
      FIXTURE_ROOT,
      'gemini-cli/gemini-home/tmp/ws/chats/session-2026-12-01T23-59-a6b519b3.jsonl'
    )
  ]

  it.each(sessions)('is skipped: %s reads as without it', (original) => {
    const withBom = join(dir, `bom-${basename(original)}`)
    writeFileSync(withBom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(original)]))
    const plain = readSessionFile(original)
    const read = readSessionFile(withBom)
    expect(detectFileFormat(withBom)).toBe(detectFileFormat(original))
    expect(read.format).toBe(plain.format)
    expect(read.recordCount).toBe(plain.recordCount)
    expect(read.problems).toEqual(plain.problems)
    expect(read.tree.records.length).toBe(plain.tree.records.length)
  })
})
