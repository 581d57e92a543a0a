// The session tree's map from a record's uuid to a number, built as records are added in file
// order. Our records' ids are version 7 uuids, which sort in the order they were made
// (uuid-v7.ts), so in a log of ours each new id is greater than every one before it: such ids
// are kept in one sorted list, and a new record's duplicate check is one comparison with the
// greatest. Only ids out of that order (foreign sessions' random ids, a hand-edited or merged
// log) go to a hash map. Hashing and inserting every id of a 120,000-record log was a third of
// building its tree (bench/cli-startup.ts), and most readers look few of them up.
//
// A lookup in the sorted list is a binary search: ~17 string comparisons, each reaching a string
// somewhere in the heap (1.4 µs an id in a 100 MB log, twice a map's). A reader that looks up
// many (an export, per node) moves the list into the map once its searches pass a share of it:
// one hash per id, and a map's lookups from then on.
export class UuidIndex {
  /** Ids that came in increasing order, and their values. */
  private readonly sorted: string[] = []
  private readonly sortedValues: number[] = []
  /** Every other id. */
  private readonly others = new Map<string, number>()
  /** The greatest id added: every other one is less, in the list or in the map. */
  private greatest: string | undefined
  /** Binary searches since the list was last moved into the map. */
  private searches = 0

  get(uuid: string): number | undefined {
    if (this.others.size > 0) {
      const other = this.others.get(uuid)
      if (other !== undefined) return other
    }
    const last = this.sorted[this.sorted.length - 1]
    // Past the last (a new id of ours): not there, without a search.
    if (last === undefined || uuid > last) return undefined
    if (++this.searches > SEARCHES_PER_MOVE + this.sorted.length / 16) {
      this.moveSortedToMap()
      return this.others.get(uuid)
    }
    const at = this.search(uuid)
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
    if (this.greatest === undefined || uuid > this.greatest) {
      this.greatest = uuid
      this.sorted.push(uuid)
      this.sortedValues.push(value)
      return true
    }
    if (this.get(uuid) !== undefined) return false
    this.others.set(uuid, value)
    return true
  }

  /** Position of `uuid` in `sorted`, or -1 (a binary search). */
  private search(uuid: string): number {
    let low = 0
    let high = this.sorted.length - 1
    while (low <= high) {
      const mid = (low + high) >>> 1
      const at = this.sorted[mid] as string
      if (at === uuid) return mid
      if (at < uuid) low = mid + 1
      else high = mid - 1
    }
    return -1
  }

  /** The sorted list's ids into the map; ids greater than all of them start a new list. */
  private moveSortedToMap(): void {
    for (let i = 0; i < this.sorted.length; i++)
      this.others.set(this.sorted[i] as string, this.sortedValues[i] as number)
    this.sorted.length = 0
    this.sortedValues.length = 0
    this.searches = 0
  }
}

/** Binary searches always allowed before the list moves to the map (a small log's few). */
const SEARCHES_PER_MOVE = 16
