import { describe, expect, it } from 'vitest'
import { graphNode } from '../../test/support/graph-node'
import { promptNumbers } from './prompt-numbers'

describe('promptNumbers', () => {
  it('counts the turns along each branch, so two branches from one turn number alike', () => {
    //  a ─ b ─┬─ c ─ d
    //         ├─ s (a summary) ─ e
    //         └─ f
    const numbers = promptNumbers([
      graphNode('a', null),
      graphNode('b', 'a'),
      graphNode('c', 'b'),
      graphNode('d', 'c'),
      graphNode('s', 'b', { kind: 'branch_summary' }),
      graphNode('e', 's'),
      graphNode('f', 'b')
    ])
    expect(Object.fromEntries(numbers)).toEqual({ a: 1, b: 2, c: 3, d: 4, s: 2, e: 3, f: 3 })
  })
})
