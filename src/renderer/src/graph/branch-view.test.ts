import { describe, expect, it } from 'vitest'
import { graphNode } from '../../../../test/support/graph-node'
import { branchNodes, findBranches } from './branches'
import {
  BRANCH_MIN_ZOOM,
  BRANCH_SMALL_TEXT,
  branchRows,
  cardWidth,
  groupId,
  groupSizeToFit
} from './branch-view'

const node = graphNode

/** A main line of `length` turns with a one-turn branch off each of its first `forks` turns. */
function comb(length: number, forks: number, activeFork: number | null = null) {
  const nodes = [node('m0', null, { onActivePath: activeFork === null })]
  for (let i = 1; i < length; i++) {
    nodes.push(node(`m${i}`, `m${i - 1}`, { onActivePath: activeFork === null }))
  }
  for (let i = 0; i < forks; i++) {
    nodes.push(node(`b${i}`, `m${i}`, { onActivePath: i === activeFork }))
  }
  return findBranches(branchNodes(nodes), { summaryLinks: [] }, new Map(), null, new Map())
}

describe('branchRows', () => {
  it('is one row per branch, nested, with side lines counted on their branch', () => {
    const nodes = [
      node('a', null, { onActivePath: true }),
      node('b', 'a', { onActivePath: true }),
      node('x', 'a'),
      node('e', 'b', { kind: 'exploration' })
    ]
    const branches = findBranches(
      branchNodes(nodes),
      { summaryLinks: [] },
      new Map(),
      null,
      new Map()
    )
    expect(branchRows(branches, null, new Set()).map((r) => [r.kind, r.id, r.depth])).toEqual([
      ['branch', 'a', 0],
      ['branch', 'x', 1]
    ])
    expect(branchRows(branches, null, new Set())[0]).toMatchObject({ sides: 1 })
  })

  it('folds runs of siblings into cards of the size asked, but never the active branch', () => {
    const branches = comb(20, 10, 4)
    const rows = branchRows(branches, 3, new Set())
    // b0-b2, then b3-b5 holds the active b4 and stays, then b6-b8, then b9 alone.
    expect(rows.map((r) => (r.kind === 'group' ? `group of ${r.members.length}` : r.id))).toEqual([
      'm0',
      'group of 3',
      'b3',
      'b4',
      'b5',
      'group of 3',
      'b9'
    ])
  })

  it('opens a folded run the user opened', () => {
    const branches = comb(20, 10)
    const first = branches.byId.get('b0')!
    const rows = branchRows(branches, 5, new Set([groupId(first)]))
    expect(rows.filter((r) => r.kind === 'branch').map((r) => r.id)).toEqual([
      'm0',
      'b0',
      'b1',
      'b2',
      'b3',
      'b4'
    ])
  })
})

describe('groupSizeToFit', () => {
  it('folds nothing when the rows fit, else the least run size that brings them within', () => {
    const branches = comb(400, 300)
    expect(groupSizeToFit(branches, 301)).toBeNull()
    const size = groupSizeToFit(branches, 15)!
    expect(branchRows(branches, size, new Set()).length).toBeLessThanOrEqual(15)
    expect(branchRows(branches, size - 1, new Set()).length).toBeGreaterThan(15)
  })
})

describe('cardWidth', () => {
  it('keeps the cards inside the canvas at the least zoom, whose text is 11 px or more', () => {
    expect(BRANCH_SMALL_TEXT * BRANCH_MIN_ZOOM).toBeGreaterThanOrEqual(11)
    const width = cardWidth(400, 2)
    expect((width + 2 * 24) * BRANCH_MIN_ZOOM).toBeLessThanOrEqual(400 - 80)
  })
})
