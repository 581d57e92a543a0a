import { describe, expect, it } from 'vitest'
import { graphNode, sessionGraph } from '../../../../test/support/graph-node'
import type { RunView } from '../../../shared/parallel-views'
import { branchNodes, findBranches } from './branches'
import { outlineRows, rowName } from './outline'
import { RUN_NODE_PREFIX, withRuns } from './run-nodes'

const run = (id: string, more: Partial<RunView>): RunView => ({
  id,
  group: 'g1',
  startNodeId: 'p1',
  state: 'done',
  prompt: 'fix the test\nthe second line',
  model: 'scripted',
  startedAt: '2026-01-01T00:00:00.000Z',
  files: [],
  linesAdded: 0,
  linesRemoved: 0,
  tokens: null,
  ms: 100,
  check: null,
  error: null,
  joined: false,
  nodeId: null,
  adoptable: true,
  removed: null,
  ...more
})

// p1 ── j1 (a run's turn, joined)   + a run still going from p1, and one of another start.
const graph = sessionGraph(
  [graphNode('p1', null, { onActivePath: true }), graphNode('j1', 'p1')],
  'p1'
)
const runs = [
  run('r1', { joined: true, nodeId: 'j1' }),
  run('r2', { state: 'running' }),
  run('r3', { group: 'g2', prompt: 'another start' })
]

describe('withRuns', () => {
  it('numbers each run among those started with it, joined or going, as the compare table does', () => {
    const titles = withRuns(graph, runs).nodes.map((node) => [node.id, node.title])
    expect(titles).toEqual([
      ['p1', 'prompt p1'],
      ['j1', 'Run 1: fix the test'],
      [`${RUN_NODE_PREFIX}r2`, 'Run 2: fix the test'],
      [`${RUN_NODE_PREFIX}r3`, 'Run 1: another start']
    ])
  })

  it('keeps the same node objects from one update to the next, so what is drawn is kept', () => {
    const first = withRuns(graph, runs).nodes
    const second = withRuns({ ...graph }, runs).nodes
    expect(second[1]).toBe(first[1])
    expect(second[0]).toBe(graph.nodes[0])
    expect(withRuns(graph, [])).toBe(graph)
  })

  it('names a joined run the user did not adopt a parallel run in the outline, never abandoned', () => {
    // p1 ── m1 ── m2 (active)
    //  └── j1 (run 1, joined, left)
    const forked = sessionGraph(
      [
        graphNode('p1', null, { onActivePath: true }),
        graphNode('m1', 'p1', { onActivePath: true }),
        graphNode('m2', 'm1', { onActivePath: true }),
        graphNode('j1', 'p1', { filesChanged: 2 })
      ],
      'm2'
    )
    // Summarized when another was adopted: still named as the run, not by the summary.
    const summary = graphNode('s1', 'm2', { kind: 'branch_summary', title: 'tried another way' })
    const nodes = withRuns(forked, [runs[0]!]).nodes
    const found = findBranches(
      branchNodes(nodes),
      { summaryLinks: [{ from: 'j1', to: 's1' }] },
      new Map(),
      'm2',
      new Map([['s1', summary]])
    )
    const names = outlineRows(found, new Set(nodes.map((n) => n.id)), null).map(rowName)
    expect(names).toContain('Run 1: fix the test, 1 turn, 2 file changes, parallel run, done')
    expect(names.join('\n')).not.toMatch(/abandoned/)
  })
})
