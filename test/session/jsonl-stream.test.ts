// Reading a session file in chunks gives exactly what parsing its whole text gives: values, line
// numbers, problems, torn tail, whatever the chunk size and wherever a chunk boundary falls (inside
// a line, inside a multi-byte character). A file that grows is read on from where reading stopped.
import { appendFileSync, closeSync, mkdtempSync, openSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type LineSink, parseJsonl, readJsonlFile, readLines } from '../../src/core/session/jsonl'
import type { LoadProblem } from '../../src/core/session/problems'

const dir = mkdtempSync(join(tmpdir(), 'rs-jsonl-'))

const line = fc.oneof(
  fc
    .record({ type: fc.constant('user'), text: fc.string({ unit: 'grapheme', maxLength: 40 }) })
    .map((v) => JSON.stringify(v)),
  fc.constant(''),
  fc.constant('   '),
  fc.constant('{"cut": "é'),
  fc.string({ unit: 'grapheme', maxLength: 10 }).map((s) => s.replace(/\n/g, ' '))
)

function collect(): {
  sink: LineSink
  values: unknown[]
  lines: number[]
  problems: LoadProblem[]
} {
  const values: unknown[] = []
  const lines: number[] = []
  const problems: LoadProblem[] = []
  return {
    values,
    lines,
    problems,
    sink: {
      value: (v, n) => (values.push(v), lines.push(n)),
      problem: (p) => problems.push(p)
    }
  }
}

describe('streaming a session file', () => {
  it('gives what parsing the whole text gives, for any chunk size', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        (lines, trailingNewline, chunkBytes) => {
          const text = lines.join('\n') + (trailingNewline && lines.length > 0 ? '\n' : '')
          const file = join(dir, 'prop.jsonl')
          writeFileSync(file, text)
          const whole = parseJsonl(text)
          const { bytes, complete, nextLine, ino, ...streamed } = readJsonlFile(file, {
            chunkBytes
          })
          expect(streamed).toEqual(whole)
          expect(bytes).toBe(Buffer.byteLength(text))
          expect(ino).toBe(statSync(file).ino)
          // Complete lines end at the last '\n'; a last line without one lies after.
          const lastNewline = text.lastIndexOf('\n')
          expect(complete).toBe(Buffer.byteLength(text.slice(0, lastNewline + 1)))
          expect(nextLine).toBe(text.slice(0, lastNewline + 1).split('\n').length)
        }
      ),
      { numRuns: 300 }
    )
  })

  it('skips a line over the limit as a problem and keeps the lines around it', () => {
    const file = join(dir, 'long.jsonl')
    writeFileSync(
      file,
      `{"a":1}\n{"long":"${'x'.repeat(100)}"}\n{"b":2}\n{"tail":"${'y'.repeat(90)}`
    )
    const parsed = readJsonlFile(file, { chunkBytes: 8, maxLineBytes: 32 })
    expect(parsed.values).toEqual([{ a: 1 }, { b: 2 }])
    expect(parsed.lines).toEqual([1, 3])
    expect(parsed.problems.map((p) => [p.line, p.kind])).toEqual([
      [2, 'malformed'],
      [4, 'malformed']
    ])
    expect(parsed.problems[0]?.message).toMatch(/limit is 32\): skipped/)
  })

  it('reads a growing file on from where it stopped; a half-written line waits for its newline', () => {
    const file = join(dir, 'growing.jsonl')
    writeFileSync(file, '{"n":1}\n{"n":2')
    const fd = openSync(file, 'r')
    try {
      const first = collect()
      const r1 = readLines(fd, first.sink, { finalLine: false, chunkBytes: 4 })
      expect(first.values).toEqual([{ n: 1 }])
      expect(r1).toMatchObject({ complete: 8, nextLine: 2, endsWithNewline: false })

      appendFileSync(file, '}\n{"n":3}\n')
      const second = collect()
      const r2 = readLines(fd, second.sink, {
        from: r1.complete,
        firstLine: r1.nextLine,
        finalLine: false
      })
      expect(second.values).toEqual([{ n: 2 }, { n: 3 }])
      expect(second.lines).toEqual([2, 3])
      expect(r2).toMatchObject({ complete: 24, nextLine: 4, endsWithNewline: true })
    } finally {
      closeSync(fd)
    }
  })
})
