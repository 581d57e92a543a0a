import { describe, expect, it } from 'vitest'
import { graphNode } from '../../../../test/support/graph-node'
import { layoutTree } from './layout'
import {
  nodeAccessibleName,
  reuseUnchangedNodes,
  RUN_HANDLE,
  toFlowEdges,
  toFlowNodes
} from './flow-model'

//   a ── b (active)
//    └── c (abandoned) ··· report r (agent checkpoint link c → r)
const nodes = [
  graphNode('a', null, { onActivePath: true }),
  graphNode('b', 'a', { onActivePath: true }),
  graphNode('c', 'a', { filesChanged: 2 }),
  graphNode('r', 'a', { onActivePath: true, kind: 'rewind_report', title: 'what was learned' })
]

describe('toFlowEdges', () => {
  it('skips a checkpoint link whose ends are not in the graph', () => {
    const edges = toFlowEdges(
      { nodes, checkpointLinks: [{ from: 'c', to: 'gone' }], summaryLinks: [] },
      new Map()
    )
    expect(edges.map((e) => e.id)).not.toContain('checkpoint:c->gone')
  })

  it('draws parent → child edges, highlighting those along the active path', () => {
    const edges = toFlowEdges({ nodes, checkpointLinks: [], summaryLinks: [] }, new Map())
    const byTarget = new Map(edges.map((e) => [e.target, e]))
    expect(byTarget.get('b')?.className).toContain('flow-edge--active')
    expect(byTarget.get('c')?.className).not.toContain('flow-edge--active')
    expect(byTarget.has('a')).toBe(false)
  })

  it('draws an agent checkpoint as a link from its turn to its report', () => {
    const edges = toFlowEdges(
      { nodes, checkpointLinks: [{ from: 'c', to: 'r' }], summaryLinks: [] },
      new Map()
    )
    const link = edges.find((e) => e.id === 'checkpoint:c->r')
    expect(link).toMatchObject({
      source: 'c',
      target: 'r',
      ariaLabel: 'Agent checkpoint to its report'
    })
  })

  it('draws a summary of a branch left as a link from where that branch ended', () => {
    const edges = toFlowEdges(
      { nodes, checkpointLinks: [], summaryLinks: [{ from: 'c', to: 'b' }] },
      new Map()
    )
    expect(edges.find((e) => e.id === 'summary:c->b')).toMatchObject({
      source: 'c',
      target: 'b',
      className: 'flow-edge flow-edge--summary',
      ariaLabel: 'Branch left to its summary'
    })
  })

  it('links each sub-agent run from its turn’s side, and a run’s own sub-agent from its foot', () => {
    //   t ─┬ s1 ── s1b    the runs stack beside t: an edge from t's foot to s2 would cross s1
    //      └ s2
    const edges = toFlowEdges(
      {
        nodes: [
          graphNode('t', null),
          graphNode('s1', 't', { kind: 'subagent' }),
          graphNode('s1b', 's1', { kind: 'subagent' }),
          graphNode('s2', 't', { kind: 'subagent' })
        ],
        checkpointLinks: [],
        summaryLinks: []
      },
      new Map()
    )
    const byTarget = new Map(edges.map((e) => [e.target, e]))
    for (const run of ['s1', 's2']) {
      expect(byTarget.get(run)).toMatchObject({
        source: 't',
        sourceHandle: RUN_HANDLE,
        targetHandle: RUN_HANDLE,
        type: 'smoothstep'
      })
    }
    expect(byTarget.get('s1b')?.sourceHandle).toBeUndefined()
  })
})

describe('toFlowNodes', () => {
  it('places each node at its layout position, typed by its kind, dimming abandoned ones', () => {
    const positions = layoutTree(nodes)
    const flow = toFlowNodes(nodes, positions, new Map(), new Map())
    expect(flow.map((n) => n.type)).toEqual(['turn', 'turn', 'turn', 'rewind_report'])
    expect(flow[1]!.position).toEqual(positions.get('b'))
    expect(flow[2]!.className).toContain('flow-node--abandoned')
  })

  it('keeps the previous object of every node that did not change when the active path moves', () => {
    const positions = layoutTree(nodes)
    const first = toFlowNodes(nodes, positions, new Map(), new Map())
    const moved = nodes.map((n) =>
      n.id === 'b' || n.id === 'c' ? { ...n, onActivePath: !n.onActivePath } : { ...n }
    )
    const reused = reuseUnchangedNodes(new Map(nodes.map((n) => [n.id, n])), moved)
    const second = toFlowNodes(reused, positions, new Map(), new Map(first.map((n) => [n.id, n])))
    expect(second[0]).toBe(first[0])
    expect(second[3]).toBe(first[3])
    expect(second[1]).not.toBe(first[1])
    expect(second[1]!.className).toContain('flow-node--abandoned')
  })
})

describe('nodeAccessibleName', () => {
  it('names the kind, the title, the files changed and the branch state', () => {
    expect(nodeAccessibleName(nodes[2]!)).toBe('Turn: prompt c, 2 files changed, abandoned branch')
    expect(nodeAccessibleName(nodes[3]!)).toBe('Rewind report: what was learned, active path')
  })

  it('says the label a node carries', () => {
    expect(nodeAccessibleName({ ...nodes[2]!, label: 'works' })).toBe(
      'Turn: prompt c, labelled works, 2 files changed, abandoned branch'
    )
  })

  it('says the prompt number, a turn that did not finish, what is folded and where it stands', () => {
    const facts = {
      promptNumber: 3,
      hiddenBelow: 4,
      folds: [{ kind: 'subagent' as const, count: 2, folded: true }],
      canCollapse: true,
      conversationHere: true,
      files: 'changed' as const
    }
    expect(nodeAccessibleName({ ...nodes[1]!, outcome: 'stopped' }, facts)).toBe(
      'Turn 3: prompt b, stopped, 4 hidden below, 2 agents folded, conversation here, files changed since, active path'
    )
    const shown = {
      ...facts,
      folds: [
        { kind: 'subagent' as const, count: 1, folded: false },
        { kind: 'compaction' as const, count: 1, folded: true }
      ]
    }
    expect(nodeAccessibleName(nodes[1]!, shown)).toContain(', 1 compaction folded,')
    expect(nodeAccessibleName(nodes[1]!, shown)).not.toMatch(/agent/)
    expect(nodeAccessibleName({ ...nodes[1]!, outcome: 'failed' })).toContain(', failed,')
    expect(nodeAccessibleName({ ...nodes[1]!, outcome: 'done' })).not.toMatch(/done|failed/)
  })
})
