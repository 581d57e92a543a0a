// Finding (hardening issue, item 9): "Building the tree is quadratic in waiting children (17 MB
// crafted file: 54 s): make it linear." Records that name a parent written later wait for it;
// adopting them must cost about one step each. These shapes took minutes before (each adoption
// walked the new parent's path, searched and spliced the roots, and walked the sibling list);
// the timing beside a JSON.parse baseline is in bench/session-open.ts. This test checks the
// trees they give, at a size where the quadratic build runs past the test's time limit.
import { describe, expect, it } from 'vitest'
import { loadSessionText } from '../../src/core/session/load'
import { assistant, header, jsonl, user } from '../session/builders'

const uuids = (records: { uuid: string }[]) => records.map((r) => r.uuid)

describe('building the tree from children written before their parents', () => {
  it('150,000 children waiting for one parent: adopted in file order, the parent the one root', () => {
    const n = 150_000
    const children = Array.from({ length: n }, (_, i) => assistant(`c${i}`, 'p'))
    const loaded = loadSessionText(jsonl([header(), ...children, user('p', null)]))
    expect(loaded.problems).toEqual([])
    expect(uuids(loaded.tree.children(null))).toEqual(['p'])
    const adopted = uuids(loaded.tree.children('p'))
    expect(adopted).toHaveLength(n)
    expect(adopted.slice(0, 2)).toEqual(['c0', 'c1'])
    expect(adopted.at(-1)).toBe(`c${n - 1}`)
    expect(uuids(loaded.tree.pathTo(`c${n - 1}`))).toEqual(['p', `c${n - 1}`])
  })

  it('a 60,000-long chain whose every node adopts a child written before the chain', () => {
    const n = 60_000
    const waiting = Array.from({ length: n }, (_, i) => assistant(`w${i}`, `x${i}`))
    const chain = Array.from({ length: n }, (_, i) => user(`x${i}`, i === 0 ? null : `x${i - 1}`))
    const loaded = loadSessionText(jsonl([header(), ...waiting, ...chain]))
    expect(loaded.problems).toEqual([])
    expect(uuids(loaded.tree.children(null))).toEqual(['x0'])
    // Each node's waiting child came first in the file, so it is listed before the chain's next.
    expect(uuids(loaded.tree.children('x0'))).toEqual(['w0', 'x1'])
    expect(uuids(loaded.tree.children(`x${n - 1}`))).toEqual([`w${n - 1}`])
    expect(loaded.tree.activePath()).toHaveLength(n)
    expect(uuids(loaded.tree.pathTo(`w${n - 1}`))).toHaveLength(n + 1)
  })
})
