import { describe, expect, it } from 'vitest'
import { sessionGraph } from '../../../../test/support/graph-node'
import type { GraphNode } from '../../../shared/views'
import { ROW_STEP } from './layout'
import { activeTip, emptyGraphView, foldKey, nextGraphView } from './graph-view'

function turn(
  id: string,
  parentId: string | null,
  onActivePath = true,
  kind: GraphNode['kind'] = 'turn'
): GraphNode {
  return {
    id,
    parentId,
    kind,
    title: id,
    timestamp: '2026-01-01T00:00:00.000Z',
    filesChanged: 0,
    onActivePath,
    branchLeafUuid: id,
    label: null,
    outcome: 'done'
  }
}

const graphOf = (nodes: GraphNode[]) => sessionGraph(nodes)

describe('nextGraphView', () => {
  const first = nextGraphView(emptyGraphView, graphOf([turn('a', null), turn('b', 'a')]))

  it('lays out the first graph it receives', () => {
    expect(first.positions.size).toBe(2)
    expect(first.flowNodes).toHaveLength(2)
    expect(first.flowEdges).toHaveLength(1)
  })

  it('keeps the layout and the untouched nodes when only the active path changed', () => {
    //   a ── b ── c (active, then abandoned for d)
    //         └── d
    const before = nextGraphView(
      emptyGraphView,
      graphOf([turn('a', null), turn('b', 'a'), turn('c', 'b'), turn('d', 'b', false)])
    )
    const next = nextGraphView(
      before,
      graphOf([turn('a', null), turn('b', 'a'), turn('c', 'b', false), turn('d', 'b')])
    )
    expect(next.positions).toBe(before.positions)
    expect(next.flowNodes[0]).toBe(before.flowNodes[0])
    expect(next.flowNodes[2]).not.toBe(before.flowNodes[2])
    // The conversation marker moved with the leaf.
    expect(next.facts.get('d')?.conversationHere).toBe(true)
    expect(next.facts.get('c')?.conversationHere).toBe(false)
  })

  it('lays out again when a turn is added', () => {
    const next = nextGraphView(first, graphOf([turn('a', null), turn('b', 'a'), turn('c', 'a')]))
    expect(next.positions).not.toBe(first.positions)
    expect(next.positions.size).toBe(3)
  })
})

describe('folding', () => {
  //   a ── r (report) ── b
  //        └── e (exploration) ── e1 ── e2
  const nodes = [
    turn('a', null),
    turn('r', 'a', true, 'rewind_report'),
    turn('b', 'r'),
    turn('e', 'r', false, 'exploration'),
    turn('e1', 'e', false),
    turn('e2', 'e1', false)
  ]

  const opened = new Map([[foldKey('r', 'exploration'), false]])

  it('folds an agent’s exploration into its report at first, its badge counting it', () => {
    const view = nextGraphView(emptyGraphView, graphOf(nodes))
    expect(view.visible.map((n) => n.id)).toEqual(['a', 'r', 'b'])
    expect(view.facts.get('r')).toMatchObject({
      hiddenBelow: 0,
      folds: [{ kind: 'exploration', count: 1, folded: true }]
    })
    expect(view.facts.get('b')).toMatchObject({ folds: [], canCollapse: false })
    const open = nextGraphView(view, graphOf(nodes), opened)
    expect(open.visible).toHaveLength(6)
    expect(open.facts.get('r')?.folds[0]?.folded).toBe(false)
  })

  it('starts an exploration the conversation went on into open', () => {
    const on = nodes.map((n) => (n.id.startsWith('e') ? { ...n, onActivePath: true } : n))
    expect(nextGraphView(emptyGraphView, graphOf(on)).visible).toHaveLength(6)
  })

  it('shows a folded branch when asked, and folds any other', () => {
    const open = nextGraphView(emptyGraphView, graphOf(nodes), opened)
    expect(open.visible).toHaveLength(6)
    const folded = nextGraphView(open, graphOf(nodes), new Map([...opened, ['r', true]]))
    expect(folded.visible.map((n) => n.id)).toEqual(['a', 'r'])
    expect(folded.facts.get('r')?.hiddenBelow).toBe(4)
    // A collapsed node's badge is its count: what it folds holds the side lines too.
    expect(folded.facts.get('r')?.folds).toEqual([])
    // The conversation (at b) is folded away: the report shows where it is.
    expect(folded.facts.get('r')?.conversationHere).toBe(true)
  })

  it('names every branch, those folded away too, and keeps the conversation’s line straight', () => {
    const view = nextGraphView(emptyGraphView, graphOf(nodes))
    expect(view.branches.list.map((b) => [b.id, b.state])).toEqual([
      ['a', 'active'],
      ['e', 'explored']
    ])
    // The exploration runs longer than b, but b goes on in the column of a and r.
    const open = nextGraphView(emptyGraphView, graphOf(nodes), opened)
    expect(open.positions.get('b')!.x).toBe(open.positions.get('a')!.x)
  })

  it('numbers each turn by its prompts from the root, other kinds have none', () => {
    const view = nextGraphView(emptyGraphView, graphOf(nodes), opened)
    expect(['a', 'r', 'b', 'e', 'e1', 'e2'].map((id) => view.facts.get(id)?.promptNumber)).toEqual([
      1,
      null,
      2,
      null,
      2,
      3
    ])
  })
})

describe('activeTip', () => {
  it('is null when nothing is on the active path, else the deepest active node', () => {
    expect(activeTip([turn('a', null, false)])).toBeNull()
    expect(activeTip([turn('a', null), turn('b', 'a'), turn('c', 'a', false)])).toBe('b')
  })
})

describe('sub-agent runs of another tool’s session', () => {
  //   a ── b (the conversation goes on)
  //    ├── subagent:1
  //    └── subagent:2
  // The studio lists sub-agent nodes after the turns, on their turn's path.
  const nodes = [
    turn('a', null),
    turn('b', 'a'),
    turn('subagent:1', 'a', true, 'subagent'),
    turn('subagent:2', 'a', true, 'subagent')
  ]

  it('are no point of the conversation: the tip is the last turn', () => {
    expect(activeTip(nodes)).toBe('b')
    const view = nextGraphView(
      emptyGraphView,
      graphOf(nodes),
      new Map([[foldKey('a', 'subagent'), false]])
    )
    expect(view.facts.get('b')?.conversationHere).toBe(true)
    expect(view.facts.get('subagent:1')?.conversationHere).toBe(false)
  })

  it('fold into their turn at first, its badge counting them; opened, they are drawn', () => {
    const folded = nextGraphView(emptyGraphView, graphOf(nodes))
    expect(folded.visible.map((n) => n.id)).toEqual(['a', 'b'])
    expect(folded.facts.get('a')?.folds).toEqual([{ kind: 'subagent', count: 2, folded: true }])
    const shown = nextGraphView(
      folded,
      graphOf(nodes),
      new Map([[foldKey('a', 'subagent'), false]])
    )
    expect(shown.visible.map((n) => n.id)).toEqual(['a', 'b', 'subagent:1', 'subagent:2'])
    expect(shown.facts.get('a')?.folds[0]?.folded).toBe(false)
    // The outline keeps a row for each run, folded or not.
    expect(folded.branches.list.map((b) => b.id)).toEqual(['a', 'subagent:1', 'subagent:2'])
  })

  it('fold a run’s own sub-agent into the run, not into the turn', () => {
    const nested = [...nodes, turn('subagent:3', 'subagent:1', true, 'subagent')]
    const turnOpen = new Map([[foldKey('a', 'subagent'), false]])
    const open = nextGraphView(emptyGraphView, graphOf(nested), turnOpen)
    expect(open.visible.map((n) => n.id)).not.toContain('subagent:3')
    expect(open.facts.get('subagent:1')?.folds).toEqual([
      { kind: 'subagent', count: 1, folded: true }
    ])
    const both = new Map([...turnOpen, [foldKey('subagent:1', 'subagent'), false]])
    expect(nextGraphView(open, graphOf(nested), both).visible).toHaveLength(5)
  })
})

describe('a compaction', () => {
  //   a ── c (compaction, mid-turn) ── b ── d (compaction, where the conversation stands)
  //         └── x (a turn left)
  const nodes = [
    turn('a', null),
    turn('c', 'a', true, 'compaction'),
    turn('b', 'c'),
    turn('x', 'c', false),
    turn('d', 'b', true, 'compaction')
  ]

  it('folds into its turn at first, what follows it drawn from the turn', () => {
    // x's branch ended at c, where it was summarized (by d, say): the link runs from the turn.
    const graph = { ...graphOf(nodes), summaryLinks: [{ from: 'c', to: 'd' }] }
    const view = nextGraphView(emptyGraphView, graph)
    expect(view.flowEdges.map((e) => e.id)).toContain('summary:a->d')
    expect(view.visible.map((n) => n.id)).toEqual(['a', 'b', 'x', 'd'])
    expect(view.facts.get('a')?.folds).toEqual([{ kind: 'compaction', count: 1, folded: true }])
    expect(view.index.parentOf.get('b')).toBe('a')
    expect(view.positions.get('b')!.y).toBe(view.positions.get('a')!.y + ROW_STEP)
    expect(view.flowEdges.map((e) => e.id)).toContain('tree:a->b')
    // The one the conversation stands at is shown.
    expect(view.facts.get('d')?.conversationHere).toBe(true)
    expect(view.facts.get('b')?.folds).toEqual([{ kind: 'compaction', count: 1, folded: false }])
  })

  it('opened, is drawn on its line again, the same node objects as before it folded', () => {
    const folded = nextGraphView(emptyGraphView, graphOf(nodes))
    const open = nextGraphView(
      folded,
      graphOf(nodes),
      new Map([[foldKey('a', 'compaction'), false]])
    )
    expect(open.visible.map((n) => n.id)).toEqual(['a', 'c', 'b', 'x', 'd'])
    expect(open.visible.every((n, i) => n === open.nodes[i])).toBe(true)
    const again = nextGraphView(open, graphOf(nodes))
    expect(again.visible.find((n) => n.id === 'b')).toBe(folded.visible.find((n) => n.id === 'b'))
  })
})
