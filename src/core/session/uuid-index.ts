// The session tree's map from a record's uuid to a number, built as records are added in file
// order. Our records' ids are version 7 uuids, which sort in the order they were made
// (uuid-v7.ts), so in a log of ours each new id is greater than every one before it: such ids
// are kept in one sorted list, looked up by binary search, and a new record's duplicate check is
// one comparison with the last. Only ids out of that order (foreign sessions' random ids, a
// hand-edited or merged log) go to a hash map. Hashing and inserting every id of a 120,000-record
// log was a third of building its tree (bench/cli-startup.ts).
export class UuidIndex {
  /** Ids that came in increasing order, and their values. */
  private readonly sorted: string[] = []
  private readonly sortedValues: number[] = []
  /** Every other id. */
  private readonly others = new Map<string, number>()

  get(uuid: string): number | undefined {
    if (this.others.size > 0) {
      const other = this.others.get(uuid)
      if (other !== undefined) return other
    }
    const at = this.indexOf(uuid)
    return at === -1 ? undefined : this.sortedValues[at]
  }

  has(uuid: string): boolean {
    return this.get(uuid) !== undefined
  }

  /**
   * Adds `uuid` with `value` unless it is there already; false then (nothing changed). A new id
   * of ours costs one comparison.
   */
  addNew(uuid: string, value: number): boolean {
    const last = this.sorted[this.sorted.length - 1]
    if (last === undefined || uuid > last) {
      // Greater than every id before it: each of the others was less than the last sorted id
      // when it came, and that only grows.
      this.sorted.push(uuid)
      this.sortedValues.push(value)
      return true
    }
    if (this.get(uuid) !== undefined) return false
    this.others.set(uuid, value)
    return true
  }

  /** Position of `uuid` in `sorted`, or -1. */
  private indexOf(uuid: string): number {
    let high = this.sorted.length - 1
    // Past the last (a new id of ours): not there, without a search.
    const last = this.sorted[high]
    if (last === undefined || uuid > last) return -1
    let low = 0
    while (low <= high) {
      const mid = (low + high) >>> 1
      const at = this.sorted[mid] as string
      if (at === uuid) return mid
      if (at < uuid) low = mid + 1
      else high = mid - 1
    }
    return -1
  }
}
