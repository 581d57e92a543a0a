import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { groupedNumber } from './grouped-number'

describe('groupedNumber', () => {
  it('writes a number as en-US toLocaleString does', () => {
    for (const n of [0, -0, 7, 999, 1000, -1000, 123456, 1234567, 2 ** 53 - 1, 2 ** 53, 1.5, NaN])
      expect(groupedNumber(n)).toBe(n.toLocaleString('en-US'))
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double()), (n) => {
        expect(groupedNumber(n)).toBe(n.toLocaleString('en-US'))
      })
    )
  })
})
