// The tree's uuid index keeps ids that come in increasing order (ours: version 7 uuids) in a
// sorted list and every other id in a hash map (uuid-index.ts). Both ways must give the same
// answers: the index against a Map, and whole trees built from the same records with their ids
// named in file order, in reverse, and shuffled, against each other (duplicates, late parents,
// cycles, leaf moves and labels included), and built a record at a time.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SessionTree } from './tree'
import { UuidIndex } from './uuid-index'
import { assistant, header, navigate, user } from '../../../test/session/builders'

describe('UuidIndex', () => {
  it('answers as a Map for ids in order, out of order and absent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 6 })), {
          minLength: 1,
          maxLength: 200
        }),
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 50 }),
        (adds, probes) => {
          const index = new UuidIndex()
          const model = new Map<string, number>()
          let rising = ''
          adds.forEach(([inOrder, text], value) => {
            // Half of the ids grow (as ours do), the others fall anywhere.
            const id = inOrder ? (rising = `${rising}~${text}`) : text
            // An id added again is refused and keeps its first value.
            expect(index.addNew(id, value)).toBe(!model.has(id))
            if (!model.has(id)) model.set(id, value)
          })
          // Looked up again and again: enough searches to move the sorted ids into the map,
          // and answers the same after.
          for (let pass = 0; pass < 3; pass++) {
            for (const id of [...model.keys(), ...probes]) {
              expect(index.get(id)).toBe(model.get(id))
              expect(index.has(id)).toBe(model.has(id))
            }
            index.addNew(`${rising}~more${pass}`, -1)
            model.set(`${rising}~more${pass}`, -1)
          }
        }
      )
    )
  })
})

/** A record of a scenario, by the number of its id (ids are named by `naming`). */
type Step =
  | { kind: 'node'; id: number; parent: number | null; prompt: boolean }
  | { kind: 'move'; id: number; leaf: number | null }
  | { kind: 'label'; id: number; target: number; label: string }

/** Ids whose names sort in file order (as ours do), in reverse, or shuffled. */
const namings = (count: number, shuffle: number[]) => {
  const name = (n: number) => `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`
  return {
    inOrder: (id: number) => name(id),
    reversed: (id: number) => name(count - id),
    shuffled: (id: number) => name(shuffle[id] ?? count + id)
  }
}

/** `oneByOne`: added a record at a time (as the store does), its columns grown as it goes. */
function treeOf(steps: Step[], named: (id: number) => string, oneByOne = false): SessionTree {
  const records: unknown[] = [{ ...header(), uuid: named(0) }]
  for (const s of steps) {
    const uuid = named(s.id)
    if (s.kind === 'node') {
      const parent = s.parent === null ? null : named(s.parent)
      records.push(s.prompt ? user(uuid, parent) : assistant(uuid, parent))
    } else if (s.kind === 'move') {
      records.push(navigate(uuid, null, s.leaf === null ? null : named(s.leaf)))
    } else {
      const targetUuid = named(s.target)
      records.push({ ...navigate(uuid, null, null), type: 'label', targetUuid, label: s.label })
    }
  }
  if (!oneByOne) return SessionTree.fromRecords(records)
  const tree = new SessionTree()
  for (const record of records) tree.addRecord(record)
  return tree
}

/** What a tree shows, its ids given back as the scenario's numbers. */
function shape(tree: SessionTree, named: (id: number) => string, ids: number[]) {
  const byName = new Map(ids.map((id) => [named(id), id]))
  const back = (uuid: string | null) => (uuid === null ? null : (byName.get(uuid) ?? uuid))
  const walk: unknown[] = []
  tree.forEachDepthFirst((r, forks, isFork) => walk.push([back(r.uuid), forks, isFork]))
  return {
    walk,
    leaf: back(tree.leafUuid),
    activePath: tree.activePath().map((r) => back(r.uuid)),
    leaves: tree.leaves().map(back),
    checkpoints: tree.checkpoints().map((c) => [c.index, back(c.uuid)]),
    problems: tree.problems.map((p) => [p.index, p.kind]),
    known: ids.map((id) => [tree.has(named(id)), back(tree.get(named(id))?.uuid ?? null)]),
    labels: [...tree.labels()].map(([uuid, label]) => [back(uuid), label])
  }
}

describe('SessionTree with ids in order and out of order', () => {
  it('builds the same tree whatever order its ids sort in', () => {
    const step = (count: number) =>
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant('node' as const),
            // Any id: an earlier node (most), a later one, itself, one no record has, or a
            // duplicate of another record's id (`id` below).
            id: fc.nat(count + 1),
            parent: fc.option(fc.nat(count + 2), { freq: 4 }),
            prompt: fc.boolean()
          })
        },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('move' as const),
            id: fc.nat(count + 1),
            leaf: fc.option(fc.nat(count + 2), { freq: 4 })
          })
        },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('label' as const),
            id: fc.nat(count + 1),
            target: fc.nat(count + 2),
            label: fc.constantFrom('a', 'b')
          })
        }
      )
    const scenario = fc.nat({ max: 40 }).chain((count) =>
      fc.tuple(
        fc.array(step(count), { minLength: count, maxLength: count }),
        fc.shuffledSubarray(
          Array.from({ length: count + 3 }, (_, i) => i),
          { minLength: count + 3 }
        )
      )
    )
    fc.assert(
      fc.property(scenario, ([raw, shuffle]) => {
        // Most records take the next id in file order (ours do); the generated id, drawn from
        // the same range, makes duplicates and late parents.
        const steps = raw.map((s, i) => ({ ...s, id: s.id % 3 === 0 ? s.id : i + 1 }))
        const ids = Array.from({ length: raw.length + 3 }, (_, i) => i)
        const naming = namings(raw.length + 3, shuffle)
        const expected = shape(treeOf(steps, naming.inOrder), naming.inOrder, ids)
        for (const named of [naming.reversed, naming.shuffled])
          expect(shape(treeOf(steps, named), named, ids)).toEqual(expected)
        const inOrder = naming.inOrder
        expect(shape(treeOf(steps, inOrder, true), inOrder, ids)).toEqual(expected)
      }),
      { numRuns: 300 }
    )
  })
})

describe('SessionTree lookups by uuid', () => {
  it('finds each node whatever order it is asked for in (down, up, jumping, again)', () => {
    // A chain with a branch, a leaf move and a label (not nodes), a duplicate of a node's uuid
    // and a node whose parent came later: the lookups walk the neighbours the tree tries first.
    const steps: Step[] = [
      { kind: 'node', id: 1, parent: 0, prompt: true },
      { kind: 'node', id: 2, parent: 1, prompt: false },
      { kind: 'node', id: 3, parent: 2, prompt: true },
      { kind: 'move', id: 4, leaf: 2 },
      { kind: 'node', id: 5, parent: 2, prompt: true },
      { kind: 'label', id: 6, target: 5, label: 'a' },
      { kind: 'node', id: 3, parent: 5, prompt: false },
      { kind: 'node', id: 7, parent: 9, prompt: true },
      { kind: 'node', id: 8, parent: 7, prompt: false },
      { kind: 'node', id: 9, parent: 8, prompt: true }
    ]
    const ids = Array.from({ length: 11 }, (_, i) => i)
    fc.assert(
      fc.property(
        fc.array(fc.nat(10), { maxLength: 60 }),
        fc.shuffledSubarray(ids, { minLength: 11 }),
        (asked, shuffle) => {
          for (const named of Object.values(namings(11, shuffle))) {
            const tree = treeOf(steps, named)
            // What each uuid names, read by ordinal (no lookup by uuid).
            const nodes = new Map<string, unknown>()
            tree.forEachDepthFirst((record) => nodes.set(record.uuid, record))
            const order = [...ids, ...[...ids].reverse(), ...asked, ...asked]
            for (const id of order) expect(tree.get(named(id))).toBe(nodes.get(named(id)))
          }
        }
      ),
      { numRuns: 200 }
    )
  })
})
