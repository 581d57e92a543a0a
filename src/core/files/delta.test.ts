import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyDelta, DeltaError, DeltaIndex, encodeDelta, encodeEdits } from './delta'

const encode = (base: Uint8Array, target: Uint8Array) => encodeDelta(new DeltaIndex(base), target)

/** A base and a target made from it by a few inserts, deletes and overwrites. */
const edited = fc
  .tuple(
    fc.uint8Array({ minLength: 0, maxLength: 4000 }),
    fc.array(
      fc.record({
        at: fc.nat(),
        remove: fc.nat({ max: 200 }),
        insert: fc.uint8Array({ maxLength: 200 })
      }),
      { maxLength: 8 }
    )
  )
  .map(([base, edits]) => {
    let target = Buffer.from(base)
    for (const { at, remove, insert } of edits) {
      const where = target.length === 0 ? 0 : at % target.length
      target = Buffer.concat([
        target.subarray(0, where),
        insert,
        target.subarray(Math.min(target.length, where + remove))
      ])
    }
    return { base, target }
  })

describe('copy/insert deltas', () => {
  it('rebuild exactly the target they were made for', () => {
    fc.assert(
      fc.property(edited, ({ base, target }) => {
        const delta = encode(base, target)
        if (delta !== null) expect(applyDelta(base, delta).equals(target)).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  it('rebuild exactly the target when made for local edits without an index (encodeEdits)', () => {
    const oneEdit = fc
      .tuple(
        fc.uint8Array({ minLength: 100, maxLength: 3000, size: 'medium' }),
        fc.nat(),
        fc.nat({ max: 300 }),
        fc.uint8Array({ maxLength: 300 })
      )
      .map(([base, at, remove, insert]) => {
        const where = base.length === 0 ? 0 : at % base.length
        const target = Buffer.concat([
          base.subarray(0, where),
          insert,
          base.subarray(Math.min(base.length, where + remove))
        ])
        return { base, target }
      })
    let made = 0
    fc.assert(
      fc.property(fc.oneof(oneEdit, edited), ({ base, target }) => {
        const delta = encodeEdits(base, target)
        if (delta === null) return
        made++
        expect(applyDelta(base, delta).equals(target)).toBe(true)
      }),
      { numRuns: 400 }
    )
    expect(made).toBeGreaterThan(50)
    // The usual edit of a file: a few bytes whatever its size.
    const lines = Array.from({ length: 3000 }, (_, i) => `const value${i} = compute(${i})`)
    const base = Buffer.from(lines.join('\n'))
    lines[1500] = 'const value1500 = changed()'
    const target = Buffer.from(lines.join('\n'))
    expect(encodeEdits(base, target)?.length).toBeLessThan(60)
    expect(encodeEdits(base, base)?.length).toBeLessThan(16)
    // Edits far apart: each one costs its own bytes.
    lines[10] = 'const value10 = changed()'
    lines.splice(2990, 0, 'const inserted = true')
    const spread = Buffer.from(lines.join('\n'))
    const delta = encodeEdits(base, spread)
    expect(delta?.length).toBeLessThan(150)
    expect(applyDelta(base, delta ?? Buffer.alloc(0)).equals(spread)).toBe(true)
    // A file rearranged or rewritten is left to encodeDelta.
    const reversed = Buffer.from([...lines].reverse().join('\n'))
    expect(encodeEdits(base, reversed)).toBeNull()
  })

  it('describe a small edit of a big file in a few bytes', () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `const value${i} = compute(${i}) // ${i * 7}`
    )
    const base = Buffer.from(lines.join('\n'))
    lines.splice(1500, 1, 'const inserted = true', lines[1500] ?? '')
    lines[10] = 'const value10 = changed()'
    const target = Buffer.from(lines.join('\n'))
    const delta = encode(base, target)
    expect(delta).not.toBeNull()
    expect(delta?.length).toBeLessThan(120)
    expect(applyDelta(base, delta ?? Buffer.alloc(0)).equals(target)).toBe(true)
  })

  it('are not made when too little is shared, or the content is tiny', () => {
    const random = (n: number, seed: number) =>
      Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + seed * 104729) % 251))
    expect(encode(random(5000, 1), Buffer.from('unrelated '.repeat(500)))).toBeNull()
    expect(encode(Buffer.from('same '.repeat(20)), Buffer.from('same same'))).toBeNull()
  })

  it('refuse a delta that does not fit the base, or is damaged, instead of rebuilding garbage', () => {
    const base = Buffer.from('the quick brown fox jumps over the lazy dog. '.repeat(10))
    const target = Buffer.from(`${base.toString()}and then some`)
    const delta = encode(base, target) ?? Buffer.alloc(0)
    expect(() => applyDelta(base.subarray(1), delta)).toThrow(DeltaError)
    expect(() => applyDelta(base, delta.subarray(0, delta.length - 3))).toThrow(DeltaError)
    const badOp = Buffer.from(delta)
    badOp[2] = 7
    expect(() => applyDelta(base, badOp)).toThrow(DeltaError)
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (junk) => {
        try {
          applyDelta(base, junk)
        } catch (error) {
          expect(error).toBeInstanceOf(DeltaError)
        }
      })
    )
  })
})
