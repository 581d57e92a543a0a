// Renames as git finds them: a file gone and a file new whose contents are the same, or at least
// half the same (git's default `-M50%`), count as one file moved, edits and all. Used for both
// sides of a merge (merge-plan.ts): what their branch renamed, and what this branch did.
//
// The score is git's measure taken by lines: the bytes of the lines the two share (each line as
// often as both have it) over the bigger file's bytes, so 50% similar means at least half of the
// bigger file is found in the other. Bounded as git bounds it: only pairs of a gone file and a
// new file are scored, never the rest of the workspace; a pair whose sizes differ by more than
// half cannot reach 50% and is not scored (size buckets); a text file past MAX_SIMILAR_BYTES or
// a binary file pairs only by identical content; past MAX_PAIRS pairs only identical contents
// pair (git's diff.renameLimit does the same). Empty files never pair. The best-scored pairs are taken first, each file
// in one pair at most.
import { sha256 } from '../files/blob-store'
import { looksBinary } from '../files/binary-content'

export interface RenameSide {
  path: string
  content: Buffer
}

export interface Rename {
  from: string
  to: string
  /** Percent similar (100: identical). */
  similarity: number
}

/** Lowest score that counts as a rename (git's default). */
export const RENAME_THRESHOLD = 0.5
/** Bytes of a file past which it pairs only when identical. */
export const MAX_SIMILAR_BYTES = 1024 * 1024
/** Pairs scored at most (gone × new, after the size buckets). */
export const MAX_PAIRS = 250_000

/** The renames among `gone` and `added`, best first; each path in one rename at most. */
export function findRenames(gone: readonly RenameSide[], added: readonly RenameSide[]): Rename[] {
  const renames: Rename[] = []
  const taken = new Set<string>()
  const take = (r: Rename) => {
    if (taken.has(`-${r.from}`) || taken.has(`+${r.to}`)) return
    taken.add(`-${r.from}`)
    taken.add(`+${r.to}`)
    renames.push(r)
  }
  // Identical contents first, as git does: cheap, and never outscored.
  const addedByContent = new Map<string, RenameSide[]>()
  for (const a of added) {
    if (a.content.length === 0) continue
    const key = sha256(a.content)
    addedByContent.set(key, [...(addedByContent.get(key) ?? []), a])
  }
  for (const g of gone) {
    for (const a of addedByContent.get(sha256(g.content)) ?? []) {
      take({ from: g.path, to: a.path, similarity: 100 })
    }
  }
  const scorable = (s: RenameSide) =>
    s.content.length > 0 && s.content.length <= MAX_SIMILAR_BYTES && !looksBinary(s.content)
  const goneLeft = gone.filter((g) => !taken.has(`-${g.path}`) && scorable(g))
  const addedLeft = added
    .filter((a) => !taken.has(`+${a.path}`) && scorable(a))
    .sort((x, y) => x.content.length - y.content.length)
  const candidates: Rename[] = []
  let pairs = 0
  const lines = new Map<RenameSide, Map<string, number>>()
  const linesOf = (s: RenameSide) => {
    let counted = lines.get(s)
    if (counted === undefined) {
      counted = countLines(s.content)
      lines.set(s, counted)
    }
    return counted
  }
  for (const g of goneLeft) {
    const size = g.content.length
    // The new files within a factor of two of this one's size: the only ones that can score 50%.
    for (const a of withinSizes(addedLeft, size * RENAME_THRESHOLD, size / RENAME_THRESHOLD)) {
      if (++pairs > MAX_PAIRS) return renames
      const score = shared(linesOf(g), linesOf(a)) / Math.max(size, a.content.length)
      if (score >= RENAME_THRESHOLD) {
        candidates.push({ from: g.path, to: a.path, similarity: Math.floor(score * 100) })
      }
    }
  }
  candidates.sort((x, y) => y.similarity - x.similarity || (x.to < y.to ? -1 : x.to > y.to ? 1 : 0))
  for (const c of candidates) take(c)
  return renames
}

/** The files of `sorted` (by size) whose size is in [low, high]. */
function* withinSizes(sorted: readonly RenameSide[], low: number, high: number) {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((sorted[mid]?.content.length ?? 0) < low) lo = mid + 1
    else hi = mid
  }
  for (let i = lo; i < sorted.length; i++) {
    const s = sorted[i] as RenameSide
    if (s.content.length > high) return
    yield s
  }
}

/** Each line (with its end) and how often it comes. */
function countLines(content: Buffer): Map<string, number> {
  const counts = new Map<string, number>()
  const text = content.toString('latin1')
  let start = 0
  while (start < text.length) {
    const end = text.indexOf('\n', start)
    const line = end === -1 ? text.slice(start) : text.slice(start, end + 1)
    counts.set(line, (counts.get(line) ?? 0) + 1)
    start += line.length
  }
  return counts
}

/** Bytes of the lines both have, each as often as both have it. */
function shared(a: Map<string, number>, b: Map<string, number>): number {
  const [small, big] = a.size <= b.size ? [a, b] : [b, a]
  let bytes = 0
  for (const [line, n] of small) {
    const m = big.get(line)
    if (m !== undefined) bytes += line.length * Math.min(n, m)
  }
  return bytes
}
