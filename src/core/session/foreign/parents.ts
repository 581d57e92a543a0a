// Foreign formats chain their messages through records we do not draw (Claude Code's progress and
// system records, pi's model changes and labels). Dropping such a record must not cut the chain:
// its id is aliased to its own nearest drawn ancestor, and later parent links resolve through it.
export class ParentResolver {
  private readonly drawn = new Set<string>()
  private readonly skipped = new Map<string, string | null>()

  /** A record mapped to a conversation node. */
  node(id: string): void {
    this.drawn.add(id)
  }

  /** A record not drawn: children pointing at it hang from its parent instead. */
  skip(id: string, parent: string | null): void {
    this.skipped.set(id, this.resolve(parent))
  }

  isNode(id: string): boolean {
    return this.drawn.has(id)
  }

  /** The drawn ancestor an id stands for; an id never seen is returned as is (missing parent). */
  resolve(parent: string | null | undefined): string | null {
    if (parent === null || parent === undefined) return null
    if (this.drawn.has(parent)) return parent
    const alias = this.skipped.get(parent)
    return alias === undefined ? parent : alias
  }
}
