// The fast paths `inspect` takes on a long session (issue 15 item 8) give what the plain code they
// replaced gave: the tree walked by ordinal in the order and depth of a walk over children(),
// whitespace folded by runs as a /\s+/ replace folds it, text blocks joined as join() joins them,
// and the quick key test still letting every key through to be masked. The command as run (slim
// records kept while parsing, each node described then, lines written as bytes) prints byte for
// byte what the whole records printed as strings give, on generated, fuzzed and Claude Code files.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inspectJson, inspectText, oneLine } from '../../src/cli/commands/inspect'
import { readSessionFile } from '../../src/core/session/load'
import { contentText, SessionTree, type TreeRecord } from '../../src/core/session/tree'
import { escapeControlCharsInJson } from '../../src/shared/control-chars'
import { maskSecrets, maskSecretsIn } from '../../src/shared/mask-secrets'
import { repoRoot } from '../support/cli'
import { assistant, fileChange, header, jsonl, rewind, user } from './builders'
import { writeSyntheticSession } from './synthetic'

/** A seeded generator: the same cases on every run. */
function seeded(seed: number): () => number {
  let x = seed >>> 0
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0
    return x / 2 ** 32
  }
}

/** Pieces whose mix exercises folding, masking and cutting: every kind of whitespace, keys. */
const PIECES = [
  'word',
  'x'.repeat(90),
  ' ',
  '  ',
  '\n',
  '\t',
  '\r\n',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u202e',
  '\u001b[2J',
  'é',
  '😀',
  '\ud800',
  '…',
  '└',
  `sk-ant-api03-${'aB3'.repeat(31)}xy`,
  `Bearer eyJh.${'bG9'.repeat(8)}.s1g`,
  `bEaReR ${'aB3'.repeat(10)}`,
  `AKIA${'Q7ZX'.repeat(4)}`,
  `ghp_${'k9Lm'.repeat(9)}`,
  '-----BEGIN RSA PRIVATE KEY-----\nMIIE\nabc'
]

/** oneLine as it was written before the fast path: mask, fold every run, trim, cut. */
function plainOneLine(text: string, width: number): string {
  const start = text.length > width + 128 ? text.slice(0, width + 128) : text
  let flat = maskSecrets(start).replace(/\s+/g, ' ').trim()
  if (flat.length <= width && start !== text) flat = maskSecrets(text).replace(/\s+/g, ' ').trim()
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat
}

describe('inspect fast paths', () => {
  it('oneLine folds, masks and cuts as the plain replace of every whitespace run did', () => {
    const random = seeded(15)
    for (let i = 0; i < 3000; i++) {
      let text = ''
      const parts = Math.floor(random() * 40)
      for (let p = 0; p < parts; p++) text += PIECES[Math.floor(random() * PIECES.length)]
      const width = 20 + Math.floor(random() * 60)
      expect(oneLine(text, width), JSON.stringify(text)).toBe(plainOneLine(text, width))
    }
  })

  it('oneLine masks a key it shows, whatever the case of a Bearer', () => {
    expect(oneLine(`token:\n\n  BEARER ${'aB3'.repeat(10)}  `, 70)).toBe(
      'token: BEARER …(30 chars, masked)'
    )
  })

  it('forEachDepthFirst visits as a walk over children() does: chains flat, forks one deeper', () => {
    // u1 → a1 → (u2 → a2 → (u4, u5), u3 → a3 → (c1, c2, c3)); a root r2 after; a child written
    // before its parent.
    const tree = SessionTree.fromRecords([
      header(),
      user('u1', null),
      assistant('a1', 'u1'),
      user('u2', 'a1'),
      assistant('a2', 'u2'),
      user('u3', 'a1'),
      assistant('a3', 'u3'),
      user('u4', 'a2'),
      user('u5', 'a2'),
      user('c1', 'a3'),
      user('c2', 'a3'),
      user('c3', 'a3'),
      user('r2', null),
      assistant('late', 'w'),
      user('w', 'r2')
    ])
    const walked: string[] = []
    tree.forEachDepthFirst((r, forks, isFork) =>
      walked.push(`${r.uuid}:${forks}${isFork ? 'f' : ''}`)
    )
    const expected: string[] = []
    const visit = (r: TreeRecord, forks: number, isFork: boolean) => {
      expected.push(`${r.uuid}:${forks}${isFork ? 'f' : ''}`)
      tree.children(r.uuid).forEach((c, i) => visit(c, i === 0 ? forks : forks + 1, i > 0))
    }
    for (const root of tree.children(null)) visit(root, 0, false)
    expect(walked).toEqual(expected)
    expect(walked).toEqual([
      'u1:0',
      'a1:0',
      'u2:0',
      'a2:0',
      'u4:0',
      'u5:1f',
      'u3:1f',
      'a3:1',
      'c1:1',
      'c2:2f',
      'c3:2f',
      'r2:0',
      'w:0',
      'late:0'
    ])
  })

  it('contentText joins text blocks as join() did, a foreign block without text included', () => {
    const blocks = (...texts: unknown[]) =>
      texts.map((text) => ({ type: 'text', text })) as Parameters<typeof contentText>[0]
    expect(contentText('plain')).toBe('plain')
    expect(contentText(blocks('a', 'b'))).toBe('a\n\nb')
    expect(contentText(blocks(undefined))).toBe('')
    expect(contentText(blocks(null, 5, 'x'))).toBe('\n\n5\n\nx')
    expect(contentText([{ type: 'tool_use', id: 't', name: 'Edit', input: {} }])).toBe('')
  })
})

/** The command's stdout as bytes: `inspect FILE` (and `--json`) in a child process. */
function inspectBytes(file: string, ...args: string[]): Buffer {
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'bin/rewind-studio.mjs'), 'inspect', file, ...args],
    { maxBuffer: 256 * 1024 * 1024 }
  )
  expect(run.stderr.toString()).toBe('')
  expect(run.status).toBe(0)
  return run.stdout
}

/** What inspect prints, made from the whole records as strings (no slim record, no bytes). */
function plainInspect(file: string): { text: Buffer; json: Buffer } {
  const loaded = readSessionFile(file)
  const json = JSON.stringify(maskSecretsIn(inspectJson(loaded)), null, 2)
  return {
    text: Buffer.from(`${inspectText(loaded).join('\n')}\n`),
    json: Buffer.from(`${escapeControlCharsInJson(json)}\n`)
  }
}

/** A session of every record kind, with text of every piece, forks, strays and bad records. */
function fuzzedSession(seed: number, records: number): unknown[] {
  const random = seeded(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T
  const text = () => {
    let t = ''
    for (let p = Math.floor(random() * 12); p > 0; p--) t += pick(PIECES)
    return random() < 0.2 ? `<system-reminder>${t}</system-reminder>${pick(PIECES)}` : t
  }
  const nodes: string[] = []
  const out: unknown[] = [header()]
  for (let i = 0; i < records; i++) {
    const uuid =
      random() < 0.03 && nodes.length > 0 ? pick(nodes) : `n${i}${pick(['', '\u001b[2J', 'é'])}`
    const r = random()
    const parent =
      nodes.length === 0 || r < 0.05
        ? null
        : r < 0.1
          ? `missing-${i}`
          : r < 0.7
            ? (nodes[nodes.length - 1] ?? null)
            : pick(nodes)
    const kind = random()
    if (kind < 0.25)
      out.push(user(uuid, parent, random() < 0.7 ? text() : [{ type: 'text', text: text() }]))
    else if (kind < 0.32)
      out.push({
        ...user(uuid, parent, [
          { type: 'tool_result', tool_use_id: 't', content: text() },
          ...(random() < 0.5 ? [{ type: 'tool_result', tool_use_id: 'u', content: '' }] : [])
        ])
      })
    else if (kind < 0.37) out.push({ ...user(uuid, parent, text()), isMeta: true })
    else if (kind < 0.39)
      out.push(
        user(
          uuid,
          parent,
          `<system-<system-reminder>x</system-reminder>reminder>${text()}</system-reminder>`
        )
      )
    else if (kind < 0.6) out.push(assistant(uuid, parent, text()))
    else if (kind < 0.7) {
      const a = assistant(uuid, parent, text())
      const blocks: unknown[] = random() < 0.5 ? [] : a.message.content
      blocks.push({ type: 'tool_use', id: 't', name: text(), input: {} })
      if (random() < 0.3) blocks.push({ type: pick(['thinking', text()]), thinking: text() })
      out.push({ ...a, message: { ...a.message, content: blocks } })
    } else if (kind < 0.73)
      out.push({
        ...user(uuid, parent),
        type: 'branch_summary',
        fromId: pick(['root', ...nodes]),
        summary: text()
      })
    else if (kind < 0.76)
      out.push({
        ...user(uuid, parent),
        type: 'custom_message',
        customType: pick(['rewind-report', 'turn-stopped', text()]),
        hidden: random() < 0.5,
        content: text()
      })
    else if (kind < 0.78)
      out.push({
        ...user(uuid, parent),
        type: 'compaction',
        summary: text(),
        firstKeptUuid: null,
        tokensBefore: 100,
        trigger: 'auto'
      })
    else if (kind < 0.84 && nodes.length > 0)
      out.push({
        ...user(`l${i}`, null),
        type: 'label',
        targetUuid: pick(nodes),
        label: random() < 0.2 ? null : text()
      })
    else if (kind < 0.9 && nodes.length > 0)
      out.push(fileChange(`f${i}`, pick(nodes), pick(['a.ts', 'b.ts', text()])))
    else if (kind < 0.93 && nodes.length > 0)
      out.push(rewind(`r${i}`, null, pick(nodes), pick(nodes)))
    else if (kind < 0.96) out.push(user(uuid, parent, 42))
    else out.push(assistant(uuid, parent, text()))
    if (kind < 0.78) nodes.push(uuid)
  }
  return out
}

describe('inspect as run, from slim records written as bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-inspect-fast-'))
  const files: string[] = []
  const generated = join(dir, 'generated.jsonl')
  writeSyntheticSession(generated, 2 * 1024 * 1024)
  files.push(generated)
  /** A session of `records` written to `name` in dir, and inspected. */
  const written = (name: string, records: unknown[]) => {
    const file = join(dir, name)
    writeFileSync(file, jsonl(records))
    files.push(file)
  }
  for (const seed of [1, 2, 3]) written(`fuzzed-${seed}.jsonl`, fuzzedSession(seed, 1500))
  // On the active path, where checkpoints are read: a prompt whose reminder hid another's tag.
  written('reminders.jsonl', [
    header(),
    user('p1', null, 'plain prompt'),
    user('p2', 'p1', '<system-<system-reminder>x</system-reminder>reminder>y</system-reminder>'),
    user('p3', 'p2', '<system-reminder>only a reminder</system-reminder>'),
    user('p4', 'p3', '  <system-reminder>r</system-reminder> typed after a reminder  ')
  ])
  // Ids written from their own characters, or escaped: long and short, ASCII or not.
  written('ids.jsonl', [
    header(),
    user('01900000-0000-7000-8000-00000000000a', null, 'a uuid'),
    user('long-id-ending-in-\u001b[2J', '01900000-0000-7000-8000-00000000000a', 'an escape'),
    user('long-id-ending-in-é\u202e', 'long-id-ending-in-\u001b[2J', 'é and a bidi override'),
    user('short\u0007', 'long-id-ending-in-é\u202e', 'a bell'),
    user('twelve-chars', 'short\u0007', 'whole'),
    user('thirteen-char', 'twelve-chars', 'cut')
  ])
  // Rewound every 4 turns: most lines are forks deeper than the indentation goes (MAX_INDENT).
  const deep = join(dir, 'deep.jsonl')
  writeSyntheticSession(deep, 512 * 1024, 2, { rewindEvery: 4 })
  files.push(deep)
  const claude = join(repoRoot, 'test/fixtures/claude-code')
  for (const entry of readdirSync(claude, { recursive: true, encoding: 'utf8' }))
    if (entry.endsWith('.jsonl') && !entry.includes('/subagents/')) files.push(join(claude, entry))

  it.each(files.map((f) => [f.slice(f.lastIndexOf('/') + 1), f]))(
    '%s: the text and the JSON are byte for byte those of the whole records',
    (_name, file) => {
      const plain = plainInspect(file)
      expect(inspectBytes(file).equals(plain.text)).toBe(true)
      expect(inspectBytes(file, '--json').equals(plain.json)).toBe(true)
    }
  )

  it('indents each line by its forks, and writes the depth past 20 of them', () => {
    const expected: string[] = []
    readSessionFile(deep).tree.forEachDepthFirst((_node, forks) =>
      expected.push(forks <= 20 ? '  '.repeat(forks) : `${'  '.repeat(20)}(${forks}) `)
    )
    const lines = inspectBytes(deep).toString().split('\n')
    // After the two header lines and a blank one, a line per node: mark, space, indentation.
    const shown = lines
      .slice(3, 3 + expected.length)
      .map((line) => /^[ *>] ((?: {2})*(?:\(\d+\) )?)/.exec(line)?.[1])
    expect(shown).toEqual(expected)
    // Deep lines, each depth met many times (the indentation of each made once).
    expect(expected.filter((indent) => indent.includes('(')).length).toBeGreaterThan(100)
  })
})
