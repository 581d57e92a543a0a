import { describe, expect, it } from 'vitest'
import { graphNode } from '../../../../test/support/graph-node'
import { branchNodes, findBranches } from './branches'
import { outlineRows, rowName, rowTarget } from './outline'
import { RUN_NODE_PREFIX } from './run-nodes'

const node = graphNode

//   a ── b ── c        (active)
//    └── x ── y        (left)
//         └── p        (forks from x)
const active = { onActivePath: true }
const nodes = [
  node('a', null, active),
  node('b', 'a', active),
  node('x', 'a'),
  node('c', 'b', active),
  node('y', 'x', { filesChanged: 1 }),
  node('p', 'x')
]
const numbers = new Map([
  ['a', 1],
  ['b', 2],
  ['x', 2],
  ['c', 3],
  ['y', 3],
  ['p', 3]
])
const branches = findBranches(branchNodes(nodes), { summaryLinks: [] }, numbers, 'c', new Map())
const all = new Set(nodes.map((n) => n.id))

describe('outlineRows', () => {
  it('is one row per branch, nested, named by its title then its counts and state', () => {
    const rows = outlineRows(branches, all, null)
    expect(rows.map((r) => [r.branch.id, r.branch.depth])).toEqual([
      ['a', 0],
      ['x', 1],
      ['p', 2]
    ])
    expect(rows.map(rowName)).toEqual([
      'prompt a, 3 turns (#1–3), no files, active, conversation here',
      'prompt x, 2 turns (#2–3), 1 file change, abandoned',
      'prompt p, 1 turn (#3), no files, abandoned'
    ])
  })

  it('keeps to the branches a search matched, with the ones they fork from', () => {
    const rows = outlineRows(branches, all, new Set(['p']))
    expect(rows.map((r) => [r.branch.id, r.matches])).toEqual([
      ['a', 0],
      ['x', 0],
      ['p', 1]
    ])
    expect(outlineRows(branches, all, new Set())).toEqual([])
  })

  it('marks a branch folded away in the graph', () => {
    const rows = outlineRows(branches, new Set(['a', 'b', 'c', 'x']), null)
    expect(rows.map((r) => r.folded)).toEqual([false, false, true])
    expect(rowName(rows[2]!)).toMatch(/, folded$/)
  })
  it('names a parallel run that has not joined by its run state, never abandoned', () => {
    const withRun = [...nodes, node(`${RUN_NODE_PREFIX}r1`, 'a', { outcome: 'running' })]
    const found = findBranches(branchNodes(withRun), { summaryLinks: [] }, numbers, 'c', new Map())
    const run = outlineRows(found, new Set(withRun.map((n) => n.id)), null).find(
      (row) => row.branch.id === `${RUN_NODE_PREFIX}r1`
    )
    expect(run && rowName(run)).toMatch(/, parallel run, running$/)
  })
})

describe('rowTarget', () => {
  it('takes the graph to where the conversation stands, or to the branch’s first node', () => {
    expect(rowTarget(branches.byId.get('a')!, 'c')).toBe('c')
    expect(rowTarget(branches.byId.get('x')!, 'c')).toBe('x')
  })
})
