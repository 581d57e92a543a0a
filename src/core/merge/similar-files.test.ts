// Renames by similarity (similar-files.ts): git's 50% by the bytes of shared lines, best pairs
// first, each file in one pair, identical contents always, binary and empty files as git treats
// them, and the bound on the pairs scored.
import { describe, expect, it } from 'vitest'
import { MAX_PAIRS, findRenames } from './similar-files'

const file = (path: string, ...lines: string[]) => ({
  path,
  content: Buffer.from(lines.map((l) => `${l}\n`).join(''))
})
const numbered = (n: number, change: Record<number, string> = {}) =>
  Array.from({ length: n }, (_, i) => change[i] ?? `the same line ${i}`)

describe('finding renames', () => {
  it('pairs a file at least half the same, and not one under half', () => {
    // 10 lines of the same length: 5 kept is 50%, 4 kept is 40%.
    const gone = [file('a', ...numbered(10))]
    const half = numbered(10, {
      0: 'other line 00',
      1: 'other line 01',
      2: 'other line 02',
      3: 'other line 03',
      4: 'other line 04'
    })
    expect(findRenames(gone, [file('b', ...half)])).toEqual([
      { from: 'a', to: 'b', similarity: 50 }
    ])
    expect(findRenames(gone, [file('b', ...half.slice(0, 9), 'other line 09')])).toEqual([])
  })

  it('takes the best pairs first, each file once', () => {
    const gone = [file('a', ...numbered(10)), file('b', ...numbered(10, { 0: 'x' }))]
    const added = [
      file('a2', ...numbered(10, { 9: 'edited' })),
      file('b2', ...numbered(10, { 0: 'x', 9: 'edited' }))
    ]
    expect(findRenames(gone, added).map((r) => [r.from, r.to])).toEqual([
      ['a', 'a2'],
      ['b', 'b2']
    ])
    // One new file for two gone: only the most similar is renamed.
    expect(findRenames(gone, [added[0] as (typeof added)[0]])).toEqual([
      { from: 'a', to: 'a2', similarity: 90 }
    ])
  })

  it('pairs identical contents even where scoring would not (binary), never empty files', () => {
    const bin = { path: 'x.bin', content: Buffer.from([0, 1, 2, 3]) }
    expect(findRenames([bin], [{ ...bin, path: 'y.bin' }])).toEqual([
      { from: 'x.bin', to: 'y.bin', similarity: 100 }
    ])
    expect(findRenames([bin], [{ path: 'z.bin', content: Buffer.from([0, 1, 2, 4]) }])).toEqual([])
    expect(findRenames([file('e')], [file('f')])).toEqual([])
  })

  it('scores no pair whose sizes differ by more than half', () => {
    const small = file('small', ...numbered(4))
    expect(findRenames([small], [file('big', ...numbered(9))])).toEqual([])
    expect(findRenames([file('big', ...numbered(9))], [small])).toEqual([])
  })

  it('stops scoring past MAX_PAIRS pairs, keeping the identical ones', () => {
    const side = Math.ceil(Math.sqrt(MAX_PAIRS)) + 1
    const gone = Array.from({ length: side }, (_, i) =>
      file(`g${i}`, ...numbered(3, { 0: `g ${i}` }))
    )
    const added = Array.from({ length: side }, (_, i) =>
      file(`n${i}`, ...numbered(3, { 0: `n ${i}` }))
    )
    added.push(file('same', ...numbered(3, { 0: 'g 0' })))
    const renames = findRenames(gone, added)
    expect(renames[0]).toEqual({ from: 'g0', to: 'same', similarity: 100 })
    // Every other pair is 66% similar, but scoring stopped before a rename was chosen.
    expect(renames.length).toBe(1)
  })
})
