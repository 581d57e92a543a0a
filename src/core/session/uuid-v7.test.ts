// Record and session ids (core/session/uuid-v7.ts): RFC 9562 version 7, in the order they were
// made (journals are listed by id, oldest first), distinct, carrying the time they were made.
import { describe, expect, it } from 'vitest'
import { uuidv7 } from './uuid-v7'

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The 48-bit Unix time (ms) at the front of a version 7 uuid. */
const timeOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16)

describe('uuidv7', () => {
  it('makes version 7, variant 10 ids carrying the time they were made', () => {
    const before = Date.now()
    const id = uuidv7()
    const after = Date.now()
    expect(id).toMatch(V7)
    expect(timeOf(id)).toBeGreaterThanOrEqual(before)
    expect(timeOf(id)).toBeLessThanOrEqual(after)
  })

  it('makes ids that sort in the order they were made, many in one millisecond included', () => {
    // 50,000 in a tight loop: thousands share a millisecond, past the counter's 2,048 at least.
    const ids = Array.from({ length: 50_000 }, () => uuidv7())
    for (const id of ids) expect(id).toMatch(V7)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
    // Borrowed milliseconds stay close to the clock.
    expect(timeOf(ids.at(-1) as string)).toBeLessThanOrEqual(Date.now() + 50)
  })

  it('fills the random bits: two ids of the same millisecond differ past the counter', () => {
    const tails = new Set(Array.from({ length: 1000 }, () => uuidv7().slice(19)))
    expect(tails.size).toBe(1000)
  })
})
