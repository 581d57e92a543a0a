// How deep a session record may nest. Every reader of a record recurses into it somewhere
// (JSON.stringify overflows the stack at ~4,000 levels; masking secrets, token estimates and the
// page's views walk content too), so a hostile line nested 200,000 deep would otherwise open as
// "Maximum call stack size exceeded" and leave each later view of the session failing. No tool
// writes more than a few dozen levels: a record past the limit is refused when written
// (store.ts) and skipped as malformed when read (jsonl.ts), so nothing past it ever sees one.

/** The deepest nesting of arrays and objects a record may have. */
export const MAX_RECORD_DEPTH = 1000

/**
 * Whether `line`, the JSON text `value` was parsed from (or serialized to), nests deeper than
 * MAX_RECORD_DEPTH. Each level costs at least two characters ('[' and ']'), so a shorter line is
 * never walked: most lines of a session are not, which keeps this off the cost of opening one.
 */
export function nestsTooDeep(line: string, value: unknown): boolean {
  return line.length > 2 * MAX_RECORD_DEPTH && deeperThanLimit(value)
}

/**
 * Whether `root` nests arrays and objects deeper than MAX_RECORD_DEPTH. Walks with a stack of
 * its own: no recursion to overflow on the way.
 */
export function deeperThanLimit(root: unknown): boolean {
  const limit = MAX_RECORD_DEPTH
  if (!isContainer(root)) return false
  const containers: object[] = [root]
  const depths: number[] = [0]
  const visit = (child: unknown, depth: number) => {
    if (!isContainer(child)) return
    containers.push(child)
    depths.push(depth)
  }
  while (containers.length > 0) {
    const container = containers.pop() as Record<string, unknown>
    const depth = depths.pop() as number
    if (depth === limit) return true
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) visit(container[i], depth + 1)
    } else {
      // for…in, not Object.values: no array made per object (a quarter of the cost on a 100 MB log).
      for (const key in container) visit(container[key], depth + 1)
    }
  }
  return false
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null
