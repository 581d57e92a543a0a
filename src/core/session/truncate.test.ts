import { describe, expect, it } from 'vitest'
import { limitEntries } from './truncate'

const notice = (dropped: number) => `[${dropped} left out]`

describe('limitEntries', () => {
  it('returns the same value when it fits', () => {
    const value = { a: [1, 2, 3], b: { c: 'x' } }
    expect(limitEntries(value, 6, notice)).toBe(value)
  })

  it('counts entries at every depth, and ends a cut array with the notice', () => {
    expect(limitEntries({ a: [1, 2, 3], b: 4 }, 3, notice)).toEqual({
      a: [1, 2, '[1 left out]'],
      '…': '[1 left out]'
    })
  })

  it('keeps what a block needs past the budget, and a list of blocks a list of blocks', () => {
    const blocks = [
      { type: 'text', text: 'a', extra: 1 },
      { type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls', cwd: '/' } },
      { type: 'text', text: 'b' }
    ]
    expect(limitEntries(blocks, 6, notice)).toEqual([
      { type: 'text', text: 'a', extra: 1 },
      { type: 'tool_use', id: 't', name: 'Bash', input: { '…': '[2 left out]' } },
      { type: 'text', text: '[1 left out]' }
    ])
  })

  it('cuts a key longer than 200 characters', () => {
    expect(Object.keys(limitEntries({ ['k'.repeat(5000)]: 1 }, 10, notice))).toEqual([
      `${'k'.repeat(200)}…`
    ])
  })
})
