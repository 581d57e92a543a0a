import { beforeEach, describe, expect, it } from 'vitest'
import { graphNode, sessionGraph } from '../../../../test/support/graph-node'
import { useGraphStore } from './graph-store'

//   a ── b (the conversation goes on)
//   ├── subagent:1 ── subagent:3 (its own sub-agent)
//   └── subagent:2
const nodes = [
  graphNode('a', null, { onActivePath: true }),
  graphNode('b', 'a', { onActivePath: true }),
  graphNode('subagent:1', 'a', { kind: 'subagent', onActivePath: true }),
  graphNode('subagent:2', 'a', { kind: 'subagent', onActivePath: true }),
  graphNode('subagent:3', 'subagent:1', { kind: 'subagent', onActivePath: true })
]
const shown = () => useGraphStore.getState().visible.map((node) => node.id)

describe('the side lines folded into a node, in the store', () => {
  // A session opened anew: its folds take their defaults.
  beforeEach(() => {
    useGraphStore.setState({ graph: null })
    useGraphStore.getState().receiveGraph(sessionGraph(nodes, 'b'), 1)
  })

  it('open from the badge, asking the canvas to frame the node with them, and fold again', () => {
    expect(shown()).toEqual(['a', 'b'])
    useGraphStore.getState().toggleFold('a', 'subagent')
    expect(shown()).toEqual(['a', 'b', 'subagent:1', 'subagent:2'])
    expect(useGraphStore.getState().frameRequest?.ids).toEqual(['a', 'subagent:1', 'subagent:2'])
    const asked = useGraphStore.getState().frameRequest
    useGraphStore.getState().toggleFold('a', 'subagent')
    expect(shown()).toEqual(['a', 'b'])
    // Folding moves no view.
    expect(useGraphStore.getState().frameRequest).toBe(asked)
    // The branches' cards drawn, the turns' canvas mounting again frames its own first view.
    useGraphStore.getState().setShowBranches(true)
    expect(useGraphStore.getState().frameRequest).toBeNull()
  })

  it('open on the way to a run chosen from the outline or a search (reveal), and no others', () => {
    useGraphStore.getState().reveal('subagent:2')
    expect(shown()).toEqual(['a', 'b', 'subagent:1', 'subagent:2'])
    useGraphStore.getState().reveal('subagent:3')
    expect(shown()).toEqual(['a', 'b', 'subagent:1', 'subagent:2', 'subagent:3'])
  })
})
