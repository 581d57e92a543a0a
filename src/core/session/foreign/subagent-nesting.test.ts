// The bounds on reading sub-agents of sub-agents, on trees of ids as damaged or hostile files
// could name them: wider than the count allows at every depth together, deeper than the depth
// allows, and runs naming each other (or the session) in a loop.
import { describe, expect, it } from 'vitest'
import { SessionTree } from '../tree'
import {
  MAX_SUBAGENT_DEPTH,
  MAX_SUBAGENT_RUNS,
  SubagentNesting,
  drawnBelow,
  nestedByCall
} from './subagent-nesting'
import type { SubagentRun } from './types'

/** A tree given as each id's children. */
const tree = (children: Record<string, string[]>) => (id: string) => children[id] ?? []

describe('sub-agent nesting bounds', () => {
  it('draws at most MAX_SUBAGENT_RUNS runs at all depths together, depth first', () => {
    const children: Record<string, string[]> = { root: [] }
    for (let i = 0; i < MAX_SUBAGENT_RUNS; i++) {
      children.root?.push(`c${i}`)
      children[`c${i}`] = [`g${i}`]
    }
    const drawn = drawnBelow('root', tree(children))
    expect(drawn).toHaveLength(MAX_SUBAGENT_RUNS)
    // Each child, then its own: half the children come with theirs before the count runs out.
    expect(drawn.slice(0, 4)).toEqual(['c0', 'g0', 'c1', 'g1'])
    expect(drawn.at(-1)).toBe(`g${MAX_SUBAGENT_RUNS / 2 - 1}`)
  })

  it('draws runs MAX_SUBAGENT_DEPTH deep and none deeper', () => {
    const chain = Array.from({ length: MAX_SUBAGENT_DEPTH + 3 }, (_, i) => `d${i}`)
    const children = Object.fromEntries(
      chain.slice(0, -1).map((id, i) => [id, [chain[i + 1] ?? '']])
    )
    expect(drawnBelow('d0', tree(children))).toEqual(chain.slice(1, MAX_SUBAGENT_DEPTH + 1))
  })

  it('reads a run once: a loop back to the session or an ancestor ends, a run named twice is drawn once', () => {
    const children = { s: ['a', 'b'], a: ['s', 'a', 'b'], b: ['a'] }
    expect(drawnBelow('s', tree(children))).toEqual(['a', 'b'])
  })

  it('tells a run that will not be drawn before its transcript is read, and counts only those taken', () => {
    const nesting = SubagentNesting.of('s', { depth: 1, runs: 2 })
    expect(nesting.allows('s')).toBe(false)
    expect(nesting.allows('a')).toBe(true)
    expect(nesting.allows('a')).toBe(true)
    expect(nesting.take('a')).toBe(true)
    expect(nesting.take('a')).toBe(false)
    expect(nesting.within('a').allows('x')).toBe(false)
    expect(nesting.take('b')).toBe(true)
    expect(nesting.allows('c')).toBe(false)
  })

  it('nests side-by-side runs by their calls, a loop of calls back at the session', () => {
    const run = (id: string, toolUseId: string): SubagentRun => ({
      id,
      toolUseId,
      parentUuid: null,
      parentRunId: null,
      title: id,
      source: `${id}.jsonl`,
      tree: new SessionTree()
    })
    // c's call is in b's transcript, b's in a's; d's and e's name each other; f's is nowhere.
    const calls: Record<string, string> = {
      'call-c': 'b',
      'call-b': 'a',
      'call-d': 'e',
      'call-e': 'd'
    }
    const runs = [run('c', 'call-c'), run('a', 'call-a'), run('b', 'call-b')]
    runs.push(run('d', 'call-d'), run('e', 'call-e'), run('f', 'call-f'))
    const nested = nestedByCall(runs, 's', (toolUseId) => {
      const runId = calls[toolUseId]
      return runId === undefined ? null : { runId, uuid: `${runId}:${toolUseId}`, title: null }
    })
    expect(nested.map((r) => [r.id, r.parentRunId])).toEqual([
      ['a', null],
      ['b', 'a'],
      ['c', 'b'],
      ['d', null],
      ['e', 'd'],
      ['f', null]
    ])
  })
})
