// Turn numbers and node ids as the CLI and the chat take them, on a tree with a branch:
//
//   p1 ─ a1 ─┬─ p2 ─ a2            (abandoned)
//            └─ p3 ─ a3 ─ p4 ─ a4  (active)
import { describe, expect, it } from 'vitest'
import { SessionTree } from '../session/tree'
import { assistant, header, rewind, user } from '../../../test/session/builders'
import { buildSessionGraph, indexTurns } from './session-graph'
import { listNodes, nodeEnd, resolveNode } from './node-refs'

const ids = {
  p1: '01900000-0000-7000-8000-0000000000p1',
  a1: '01900000-0000-7000-8000-0000000000a1',
  p2: '01900000-0000-7000-8000-0000000000p2',
  a2: '01900000-0000-7000-8000-0000000000a2',
  p3: '01900000-0000-7000-8000-0000000000p3',
  a3: '01900000-0000-7000-8000-0000000000a3',
  p4: '01900000-0000-7000-8000-0000000000p4',
  a4: '01900000-0000-7000-8000-0000000000a4'
}

function view() {
  const tree = SessionTree.fromRecords([
    header(),
    user(ids.p1, null),
    assistant(ids.a1, ids.p1),
    user(ids.p2, ids.a1),
    assistant(ids.a2, ids.p2),
    rewind('r1', ids.a2, ids.a1, ids.p2),
    user(ids.p3, ids.a1),
    assistant(ids.a3, ids.p3),
    user(ids.p4, ids.a3),
    assistant(ids.a4, ids.p4)
  ])
  const index = indexTurns(tree)
  return { tree, index, graph: buildSessionGraph(tree, 's1', index) }
}

describe('node refs', () => {
  it('numbers the active path first, then the other branches, and lists forks indented', () => {
    const listed = listNodes(view().graph).map((l) => [l.node.id, l.number, l.depth, l.fork])
    expect(listed).toEqual([
      [ids.p1, 1, 0, false],
      [ids.p3, 2, 0, false],
      [ids.p4, 3, 0, false],
      [ids.p2, 4, 1, true]
    ])
  })

  it('resolves a number, an id, a record of a node, and a unique prefix or suffix', () => {
    const { tree, index, graph } = view()
    const resolve = (ref: string) => resolveNode(tree, graph, index, ref).id
    expect(resolve('4')).toBe(ids.p2)
    expect(resolve(ids.p3)).toBe(ids.p3)
    expect(resolve(ids.a3)).toBe(ids.p3)
    expect(resolve('0000p4')).toBe(ids.p4)
    expect(() => resolve('5')).toThrow('No turn 5: the turns are numbered 1 to 4')
    expect(() => resolve('01900000-0000')).toThrow(/names 4 nodes/)
    expect(() => resolve('zzzz')).toThrow('No node "zzzz"')
  })

  it('ends a turn at its last record on its branch', () => {
    const { tree, index, graph } = view()
    const end = (id: string) => {
      const node = graph.nodes.find((n) => n.id === id)
      if (node === undefined) throw new Error(`no node ${id}`)
      return nodeEnd(tree, index, node)
    }
    expect(end(ids.p1)).toBe(ids.a1)
    expect(end(ids.p2)).toBe(ids.a2)
    expect(end(ids.p4)).toBe(ids.a4)
  })
})
