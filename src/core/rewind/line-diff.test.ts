// The unified diffs previews and compares show (file-diff.ts over line-diff.ts): any two texts
// give a patch that turns the first into the second (applied by jsdiff, an independent parser),
// and typical edits read exactly as jsdiff's own createTwoFilesPatch writes them.
import { applyPatch, createTwoFilesPatch } from 'diff'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { unifiedDiff } from './file-diff'

const diff = (a: string, b: string) => unifiedDiff('f.txt', Buffer.from(a), Buffer.from(b))

/** Texts of a few distinct lines, with and without a final newline, empty included. */
const text = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'dd', '', ' e'), { maxLength: 30 }), fc.boolean())
  .map(([lines, newline]) => (lines.length === 0 ? '' : lines.join('\n') + (newline ? '\n' : '')))

describe('unified diff', () => {
  it('turns the old text into the new one, for any two texts', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(applyPatch(a, diff(a, b))).toBe(b)
      }),
      { numRuns: 2000 }
    )
  })

  it('writes typical edits exactly as jsdiff did', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`)
    const edits: [string, string][] = [
      [lines.join('\n') + '\n', lines.map((l, i) => (i === 20 ? 'changed' : l)).join('\n') + '\n'],
      [lines.join('\n') + '\n', [...lines.slice(0, 5), 'new', ...lines.slice(5)].join('\n') + '\n'],
      [lines.join('\n') + '\n', lines.filter((_, i) => i !== 3 && i !== 30).join('\n') + '\n'],
      [lines.join('\n'), lines.join('\n') + '\n'],
      ['', 'a\nb\n'],
      ['a\nb\n', '']
    ]
    for (const [a, b] of edits) {
      expect(diff(a, b)).toBe(createTwoFilesPatch('a/f.txt', 'b/f.txt', a, b))
    }
  })

  it('still gives a valid diff when the texts differ too much for a minimal one', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n') + '\n'
    const b = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n') + '\n'
    expect(applyPatch(a, diff(a, b))).toBe(b)
  })

  it('names /dev/null for an absent side, and gives no diff for binary content', () => {
    expect(unifiedDiff('n.txt', null, Buffer.from('x\n'))).toContain('--- /dev/null\n+++ b/n.txt')
    expect(unifiedDiff('b.bin', Buffer.from([0, 1, 2]), Buffer.from('x'))).toBe('')
  })
})
