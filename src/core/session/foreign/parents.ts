// Foreign formats chain their messages through records we do not draw (Claude Code's progress and
// system records, pi's model changes and labels). Dropping such a record must not cut the chain:
// its id is aliased to its own nearest drawn ancestor, and later parent links resolve through it.
export class ParentResolver {
  /** Each drawn record's parent (resolved to a drawn record, or null for a root). */
  private readonly drawn = new Map<string, string | null>()
  private readonly skipped = new Map<string, string | null>()

  /** A record mapped to a conversation node, under its (resolved) parent. */
  node(id: string, parent: string | null = null): void {
    this.drawn.set(id, parent)
  }

  /** A record not drawn: children pointing at it hang from its parent instead. */
  skip(id: string, parent: string | null): void {
    this.skipped.set(id, this.resolve(parent))
  }

  isNode(id: string): boolean {
    return this.drawn.has(id)
  }

  /** Whether the id was seen at all, drawn or not. */
  known(id: string): boolean {
    return this.drawn.has(id) || this.skipped.has(id)
  }

  /**
   * The parent a drawn record was given, resolved through the records skipped since (undefined
   * for an id that is not a drawn record).
   */
  parentOf(id: string): string | null | undefined {
    const parent = this.drawn.get(id)
    return parent === undefined ? undefined : this.resolve(parent)
  }

  /**
   * The drawn records above `id`, nearest first. A file may name parents in a loop (records
   * pointing at later ones, edited by hand): the walk ends after as many steps as there are
   * drawn records, so it ends.
   */
  *ancestors(id: string): Generator<string> {
    let steps = this.drawn.size
    for (let at = this.parentOf(id); at !== null && at !== undefined && steps-- > 0;) {
      yield at
      at = this.parentOf(at)
    }
  }

  /** The drawn ancestor an id stands for; an id never seen is returned as is (missing parent). */
  resolve(parent: string | null | undefined): string | null {
    if (parent === null || parent === undefined) return null
    if (this.drawn.has(parent)) return parent
    const alias = this.skipped.get(parent)
    return alias === undefined ? parent : alias
  }
}
