import { describe, expect, it } from 'vitest'
import type { GraphNode } from '../../../shared/views'
import { graphNode } from '../../../../test/support/graph-node'
import { branchNodes, findBranches } from './branches'

const node = graphNode

function branchesOf(
  nodes: GraphNode[],
  summaryLinks: { from: string; to: string }[] = [],
  tip: string | null = null
) {
  const numbers = new Map<string, number>()
  for (const n of nodes) {
    const parent = n.parentId === null ? 0 : (numbers.get(n.parentId) ?? 0)
    numbers.set(n.id, parent + (n.kind === 'turn' ? 1 : 0))
  }
  return findBranches(
    branchNodes(nodes),
    { summaryLinks },
    numbers,
    tip,
    new Map(nodes.map((n) => [n.id, n]))
  )
}

describe('findBranches', () => {
  //   a ── b ── c ── d        (active)
  //         ├── x ── y        (left, labelled on y)
  //         └── s             (summary of x's branch)
  //               p ── q      p forks from x
  const active = { onActivePath: true }
  const nodes = [
    node('a', null, active),
    node('b', 'a', active),
    node('c', 'b', { ...active, filesChanged: 2 }),
    node('x', 'b', { filesChanged: 1, timestamp: '2026-01-02T00:00:00.000Z' }),
    node('d', 'c', active),
    node('y', 'x', { label: 'the quick way' }),
    node('p', 'x'),
    node('s', 'b', { kind: 'branch_summary', title: 'Tried the quick way\nmore' })
  ]
  const branches = branchesOf(nodes, [{ from: 'p', to: 's' }], 'd')

  it('lists the branches in outline order, each nested under the one it leaves', () => {
    expect(branches.list.map((b) => [b.id, b.parentId, b.depth])).toEqual([
      ['a', null, 0],
      ['x', 'a', 1],
      ['p', 'x', 2],
      ['s', 'a', 1]
    ])
    expect(branches.byId.get('x')!.forkId).toBe('b')
    expect(branches.branchOf.get('y')).toBe('x')
    expect(branches.branchOf.get('d')).toBe('a')
  })

  it('titles a branch by its label, else its summary, else its first prompt', () => {
    expect(branches.byId.get('x')!.title).toBe('the quick way')
    expect(branches.byId.get('p')!.title).toBe('Tried the quick way\nmore')
    expect(branches.byId.get('a')!.title).toBe('prompt a')
  })

  it('counts turns, file changes and the last activity, and numbers the turns as the cards do', () => {
    const main = branches.byId.get('a')!
    expect([main.turns, main.fileChanges, main.firstTurn, main.lastTurn]).toEqual([4, 2, 1, 4])
    const left = branches.byId.get('x')!
    expect([left.turns, left.fileChanges, left.firstTurn, left.lastTurn]).toEqual([2, 1, 3, 4])
    expect(left.lastActivity).toBe('2026-01-02T00:00:00.000Z')
  })

  it('names each state and the branch the conversation stands in', () => {
    expect(branches.list.map((b) => b.state)).toEqual([
      'active',
      'abandoned',
      'summarized',
      'abandoned'
    ])
    expect(branches.list.filter((b) => b.holdsConversation).map((b) => b.id)).toEqual(['a'])
  })

  // The UI sweep (stop 46): after the conversation left the main column for a branch of it, that
  // column's row still read "active" beside its dimmed later turns.
  it('calls a branch the conversation left partway abandoned, and the one it goes on in active', () => {
    //   a ── b ── c ── d      c, d left behind
    //         └── x ── y      the conversation, at y
    const moved = branchesOf(
      [
        node('a', null, active),
        node('b', 'a', active),
        node('c', 'b'),
        node('d', 'c'),
        node('x', 'b', active),
        node('y', 'x', active)
      ],
      [],
      'y'
    )
    expect(moved.list.map((b) => [b.id, b.state, b.holdsConversation])).toEqual([
      ['a', 'abandoned', false],
      ['x', 'active', true]
    ])
    // Rewound within its own line (no branch forks there yet): it holds the conversation.
    const rewound = branchesOf(
      [node('a', null, active), node('b', 'a', active), node('c', 'b')],
      [],
      'b'
    )
    expect(rewound.list.map((b) => b.state)).toEqual(['active'])
  })

  it('keeps an exploration or a sub-agent’s run a branch of its own, however long it runs', () => {
    const withSides = branchesOf([
      node('a', null, active),
      node('e1', 'a', { kind: 'exploration' }),
      node('e2', 'e1', { kind: 'exploration' }),
      node('e3', 'e2', { kind: 'exploration' }),
      node('r', 'a', { ...active, kind: 'rewind_report' }),
      node('g', 'a', { kind: 'subagent' })
    ])
    expect(withSides.list.map((b) => [b.id, b.state])).toEqual([
      ['a', 'active'],
      ['e1', 'explored'],
      ['g', 'subagent']
    ])
    expect(withSides.branchOf.get('r')).toBe('a')
  })

  it('finds the branches of a 20,000-turn chain without walking it once per node', () => {
    const chain = [node('t0', null, active)]
    for (let i = 1; i < 20_000; i++) chain.push(node(`t${i}`, `t${i - 1}`, active))
    const long = branchesOf(chain)
    expect(long.list).toHaveLength(1)
    expect(long.list[0]!.turns).toBe(20_000)
  })
})
