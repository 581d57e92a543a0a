// The turn index's map from each conversation record to the graph node it belongs to
// (session-graph.ts indexTurns), kept by the tree's node numbers instead of one map entry per
// record: a 500 MB log has 480,000 conversation records, and hashing their uuids into a map cost
// the index about as much as the rest of its walk. A lookup by uuid is the tree's (nodeNumber:
// a comparison or two for a record near the one asked before, as the views ask in walk order),
// then an array read. It answers as the map it replaces would: a record the index did not visit
// (one appended since) has no owner (undefined), and it lists its records in visit order.
import type { SessionTree, TreeRecord } from '../session/tree'

export class RecordOwners implements ReadonlyMap<string, string | null> {
  /** Each visited record's owner, by the record's node number; undefined: not visited. */
  private readonly byNode: (string | null | undefined)[]

  constructor(
    private readonly tree: SessionTree,
    /** The records in visit order, and the owner of each. */
    private readonly visited: readonly TreeRecord[],
    private readonly owners: readonly (string | null)[],
    /** The node number of each visited record. */
    numbers: readonly number[]
  ) {
    this.byNode = new Array<string | null | undefined>(tree.size)
    for (let i = 0; i < numbers.length; i++) this.byNode[numbers[i] as number] = owners[i] ?? null
  }

  get size(): number {
    return this.visited.length
  }

  get(uuid: string): string | null | undefined {
    const n = this.tree.nodeNumber(uuid)
    return n < 0 ? undefined : this.byNode[n]
  }

  has(uuid: string): boolean {
    return this.get(uuid) !== undefined
  }

  *entries(): MapIterator<[string, string | null]> {
    for (let i = 0; i < this.visited.length; i++) {
      yield [(this.visited[i] as TreeRecord).uuid, this.owners[i] ?? null]
    }
  }

  *keys(): MapIterator<string> {
    for (const record of this.visited) yield record.uuid
  }

  *values(): MapIterator<string | null> {
    for (let i = 0; i < this.visited.length; i++) yield this.owners[i] ?? null
  }

  forEach(
    visit: (owner: string | null, uuid: string, map: ReadonlyMap<string, string | null>) => void
  ): void {
    for (const [uuid, owner] of this.entries()) visit(owner, uuid, this)
  }

  [Symbol.iterator](): MapIterator<[string, string | null]> {
    return this.entries()
  }
}
