// The fast paths `inspect` takes on a long session (issue 15 item 8) give what the plain code they
// replaced gave: the tree walked by ordinal in the order and depth of a walk over children(),
// whitespace folded by runs as a /\s+/ replace folds it, text blocks joined as join() joins them,
// and the quick key test still letting every key through to be masked.
import { describe, expect, it } from 'vitest'
import { oneLine } from '../../src/cli/commands/inspect'
import { contentText, SessionTree, type TreeRecord } from '../../src/core/session/tree'
import { maskSecrets } from '../../src/shared/mask-secrets'
import { assistant, header, user } from './builders'

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
