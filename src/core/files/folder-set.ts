// A set of workspace-relative folder paths ('' is the root) that answers "which of them are at or
// below this path?" in time proportional to the answer, not to the set: Bash change detection asks
// it once per dirty path (the manifest's files under a moved folder, the watches to drop), and a
// command touching a thousand files in a workspace of a thousand folders made that a million
// string comparisons.
//
// Each member is linked to its parent folder, and each folder on the way to the root to its own,
// so a query walks the subtree under the path and nothing else. A FolderMap gives each member a
// value (the folder an ignored one's changes are named under).

export function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/')
  return slash === -1 ? '' : rel.slice(0, slash)
}

/** Whether `path` is one of `paths` or lies below one of them. */
export function isUnder(
  path: string,
  paths: ReadonlySet<string> | ReadonlyMap<string, unknown>
): boolean {
  if (paths.size === 0) return false
  for (let at = path; ; at = parentOf(at)) {
    if (paths.has(at)) return true
    if (at === '') return false
  }
}

export class FolderSet {
  private readonly members = new Set<string>()
  /** Per folder: its child folders that are members or lead to one. */
  private readonly children = new Map<string, Set<string>>()

  get size(): number {
    return this.members.size
  }

  has(dir: string): boolean {
    return this.members.has(dir)
  }

  add(dir: string): void {
    if (this.members.has(dir)) return
    this.members.add(dir)
    for (let child = dir; child !== ''; child = parentOf(child)) {
      const parent = parentOf(child)
      const siblings = this.children.get(parent)
      if (siblings === undefined) this.children.set(parent, new Set([child]))
      else if (siblings.has(child))
        return // linked already, and so is every folder above it
      else siblings.add(child)
    }
  }

  delete(dir: string): void {
    if (!this.members.delete(dir)) return
    // Unlink the folders that now lead nowhere, from `dir` up.
    for (let child = dir; child !== ''; child = parentOf(child)) {
      if (this.members.has(child) || (this.children.get(child)?.size ?? 0) > 0) return
      this.children.delete(child)
      this.children.get(parentOf(child))?.delete(child)
    }
  }

  /** The members that are `rel` or lie below it. */
  under(rel: string): string[] {
    const found: string[] = []
    const stack = [rel]
    for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
      if (this.members.has(dir)) found.push(dir)
      const below = this.children.get(dir)
      if (below !== undefined) stack.push(...below)
    }
    return found
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.members.values()
  }
}

/**
 * Folders of one kind with a value each (the folder an ignored one's changes are named under),
 * where "the ones at or below this path" costs what it finds.
 */
export class FolderMap<V> {
  private readonly values = new Map<string, V>()
  private readonly set = new FolderSet()

  get size(): number {
    return this.values.size
  }

  get(dir: string): V | undefined {
    return this.values.get(dir)
  }

  put(dir: string, value: V): void {
    this.values.set(dir, value)
    this.set.add(dir)
  }

  /** Removes and returns the members at or below `rel`. */
  takeUnder(rel: string): Map<string, V> {
    const taken = new Map<string, V>()
    for (const dir of this.set.under(rel)) {
      taken.set(dir, this.values.get(dir) as V)
      this.values.delete(dir)
      this.set.delete(dir)
    }
    return taken
  }
}
