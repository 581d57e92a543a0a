// The hunks of a unified diff between two texts, line by line (Myers' O(ND) algorithm on the
// part between the common prefix and suffix). It exists for speed: jsdiff's diffLines costs
// ~100 µs for two 50-line files differing in one line, and a compare of a thousand files or the
// preview of a thousand-file restore diffs each of them; this costs a few µs. The hunks are
// jsdiff's StructuredPatch hunks (same context, same "\ No newline at end of file" lines), so
// jsdiff's formatPatch writes the text exactly as createTwoFilesPatch did.
import type { StructuredPatchHunk } from 'diff'

/** Lines of context around each change (jsdiff's default). */
export const CONTEXT_LINES = 4
/** Past this many edits the middle is given as removed then added whole: still a valid diff. */
const MAX_EDITS = 4000

const EQUAL = 0
const REMOVE = 1
const ADD = 2

/** The lines of a text, each with its '\n' (the last one may have none). */
function splitLines(text: string): string[] {
  if (text === '') return []
  const parts = text.split('\n')
  const lines = parts.map((line, i) => (i < parts.length - 1 ? `${line}\n` : line))
  if (lines.at(-1) === '') lines.pop()
  return lines
}

export function lineHunks(
  oldText: string,
  newText: string,
  context = CONTEXT_LINES
): StructuredPatchHunk[] {
  const a = splitLines(oldText)
  const b = splitLines(newText)
  return hunksOf(a, b, editScript(a, b), context)
}

/** One op per line: EQUAL (both), REMOVE (a's), ADD (b's), in order; removals before additions. */
function editScript(a: string[], b: string[]): Uint8Array {
  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++
  // Lines compared as numbers: equal text, equal id.
  const ids = new Map<string, number>()
  const idsOf = (lines: string[], from: number, to: number) => {
    const out = new Int32Array(to - from)
    for (let i = from; i < to; i++) {
      const line = lines[i] as string
      let id = ids.get(line)
      if (id === undefined) ids.set(line, (id = ids.size))
      out[i - from] = id
    }
    return out
  }
  const middle = myers(idsOf(a, prefix, a.length - suffix), idsOf(b, prefix, b.length - suffix))
  const ops = new Uint8Array(prefix + middle.length + suffix)
  ops.set(middle, prefix)
  return ops
}

/** The middle's ops, each run of changes with its removals first. */
function myers(a: Int32Array, b: Int32Array): Uint8Array {
  const n = a.length
  const m = b.length
  const max = Math.min(n + m, MAX_EDITS)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d]: v as step d found it (the furthest x on each diagonal k in [-d-1, d+1]).
  const trace: Int32Array[] = []
  let found = -1
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2))
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) {
        found = d
        break
      }
    }
  }
  if (found < 0) return wholeReplace(n, m)
  const reversed: number[] = []
  let x = n
  let y = m
  for (let d = found; d > 0; d--) {
    const prev = trace[d] as Int32Array
    const at = (k: number) => prev[k + d + 1] ?? 0
    const k = x - y
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const prevX = at(prevK)
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) {
      reversed.push(EQUAL)
      x--
      y--
    }
    if (x === prevX) {
      reversed.push(ADD)
      y--
    } else {
      reversed.push(REMOVE)
      x--
    }
  }
  while (x > 0 && y > 0) {
    reversed.push(EQUAL)
    x--
    y--
  }
  return removalsFirst(reversed.reverse())
}

function wholeReplace(n: number, m: number): Uint8Array {
  const ops = new Uint8Array(n + m)
  ops.fill(REMOVE, 0, n)
  ops.fill(ADD, n)
  return ops
}

/** Within each run of changes, the removed lines before the added ones (as jsdiff writes them). */
function removalsFirst(ops: number[]): Uint8Array {
  const out = new Uint8Array(ops.length)
  let i = 0
  let o = 0
  while (i < ops.length) {
    if (ops[i] === EQUAL) {
      out[o++] = EQUAL
      i++
      continue
    }
    let end = i
    while (end < ops.length && ops[end] !== EQUAL) end++
    for (let j = i; j < end; j++) if (ops[j] === REMOVE) out[o++] = REMOVE
    for (let j = i; j < end; j++) if (ops[j] === ADD) out[o++] = ADD
    i = end
  }
  return out
}

/** Groups the changes into hunks with `context` lines around them; gaps up to 2 × context join. */
function hunksOf(
  a: string[],
  b: string[],
  ops: Uint8Array,
  context: number
): StructuredPatchHunk[] {
  // Old and new line index before each op.
  const oldAt = new Int32Array(ops.length + 1)
  const newAt = new Int32Array(ops.length + 1)
  for (let i = 0; i < ops.length; i++) {
    oldAt[i + 1] = (oldAt[i] ?? 0) + (ops[i] === ADD ? 0 : 1)
    newAt[i + 1] = (newAt[i] ?? 0) + (ops[i] === REMOVE ? 0 : 1)
  }
  const hunks: StructuredPatchHunk[] = []
  let i = 0
  while (i < ops.length) {
    if (ops[i] === EQUAL) {
      i++
      continue
    }
    const start = Math.max(lastEqualRunStart(ops, i, context), 0)
    // Extend over changes whose gap of equal lines is at most 2 × context.
    let end = i
    for (;;) {
      while (end < ops.length && ops[end] !== EQUAL) end++
      let gap = end
      while (gap < ops.length && ops[gap] === EQUAL) gap++
      if (gap < ops.length && gap - end <= 2 * context) end = gap
      else break
    }
    const stop = Math.min(end + context, ops.length)
    const lines: string[] = []
    for (let j = start; j < stop; j++) {
      const op = ops[j]
      const line = op === ADD ? (b[newAt[j] ?? 0] as string) : (a[oldAt[j] ?? 0] as string)
      const mark = op === EQUAL ? ' ' : op === REMOVE ? '-' : '+'
      if (line.endsWith('\n')) lines.push(mark + line.slice(0, -1))
      else lines.push(mark + line, '\\ No newline at end of file')
    }
    hunks.push({
      oldStart: (oldAt[start] ?? 0) + 1,
      oldLines: (oldAt[stop] ?? 0) - (oldAt[start] ?? 0),
      newStart: (newAt[start] ?? 0) + 1,
      newLines: (newAt[stop] ?? 0) - (newAt[start] ?? 0),
      lines
    })
    i = stop
  }
  return hunks
}

/** Where the context before the change at `i` starts: up to `context` equal ops back. */
function lastEqualRunStart(ops: Uint8Array, i: number, context: number): number {
  let start = i
  while (start > 0 && i - start < context && ops[start - 1] === EQUAL) start--
  return start
}
