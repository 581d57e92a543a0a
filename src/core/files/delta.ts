// Copy/insert deltas: a file's content described as runs copied from a similar content (its
// previous version, or a sibling file) plus the bytes that are new. The blob store deflates the
// result, so the encoding is chosen to compress well: a copy's offset is written relative to
// where the previous copy ended, and a file changed in many small places (a renamed identifier
// on every line) repeats the same few op bytes over and over.
//
// Format (varints are LEB128, unsigned):
//   varint baseLength, varint targetLength, then ops until the end:
//   0x00 varint n, n bytes           insert
//   0x01 varint zigzag(d), varint n  copy n bytes from base[cursor + d]; cursor = that + n
import { CodedError } from '../../shared/coded-error'

/** The shortest run worth a copy op; also the width of the hashed windows. */
const MIN_MATCH = 8
/** Contents shorter than this are stored whole: a delta could save only a few bytes. */
const MIN_DELTA_TARGET = 64
/** At most this many base positions are indexed: a 10 MB base costs 16 MB of index, not 80. */
const MAX_INDEXED = 1 << 21
/** A match at least this long is taken at once; a shorter one from the index is passed over. */
const GOOD_MATCH = 24
/** How far either side of where the base goes on a copy is looked for first. */
const NEAR = 16
/** Occurrences of one window compared before giving up on it. */
const MAX_CANDIDATES = 16
/** Byte comparisons per target byte before the delta is given up (a pathological repeat). */
const MAX_WORK_PER_BYTE = 64
/** Windows of a target looked up before a delta is tried (see worthTrying). */
const PROBES = 32
const OP_INSERT = 0
const OP_COPY = 1
/** 31^(MIN_MATCH-1) mod 2^32: what the byte leaving the rolling window weighed. */
const LEAVING_WEIGHT = Array.from({ length: MIN_MATCH - 1 }).reduce<number>(
  (p) => Math.imul(p, 31),
  1
)

export class DeltaError extends CodedError {
  override name = 'DeltaError'
  constructor(message: string) {
    super('unavailable', message)
  }
}

function windowHash(bytes: Uint8Array, at: number): number {
  let h = 0
  for (let k = 0; k < MIN_MATCH; k++) h = (Math.imul(h, 31) + (bytes[at + k] ?? 0)) | 0
  return h
}

/** The hash of the window one byte on: `leaving` drops out at its start, `entering` comes in. */
function rollHash(hash: number, leaving: number, entering: number): number {
  return (Math.imul(hash - Math.imul(leaving, LEAVING_WEIGHT), 31) + entering) | 0
}

/**
 * Where each MIN_MATCH-byte window of a base occurs (the latest occurrences first). Built once
 * per base and reused for every content compared with it (a workspace's first snapshot
 * compares many files with one).
 */
export class DeltaIndex {
  private readonly heads: Int32Array
  /** For the window at position p: the previous position in the same slot (by p / step). */
  private readonly previous: Int32Array
  private readonly step: number
  private readonly shift: number

  constructor(readonly base: Uint8Array) {
    this.step = Math.max(1, Math.ceil(base.length / MAX_INDEXED))
    const windows = Math.max(1, Math.ceil(base.length / this.step))
    let bits = 4
    while (1 << bits < windows) bits++
    this.heads = new Int32Array(1 << bits).fill(-1)
    this.previous = new Int32Array(windows).fill(-1)
    this.shift = 32 - bits
    const last = base.length - MIN_MATCH
    // The window's hash rolls from one position to the next (a fresh hash per position cost
    // eight times the work); every step-th position is indexed.
    let hash = windowHash(base, 0)
    for (let at = 0; at <= last; at++) {
      if (at % this.step === 0) {
        const slot = this.slotOf(hash)
        this.previous[at / this.step] = this.heads[slot] ?? -1
        this.heads[slot] = at
      }
      if (at < last) hash = rollHash(hash, base[at] ?? 0, base[at + MIN_MATCH] ?? 0)
    }
  }

  /** Memory the index holds beside its base. */
  get bytes(): number {
    return this.heads.byteLength + this.previous.byteLength
  }

  /** The first base position in the slot of `hash` (-1 for none); `next` walks the rest. */
  first(hash: number): number {
    return this.heads[this.slotOf(hash)] ?? -1
  }

  next(position: number): number {
    return this.previous[position / this.step] ?? -1
  }

  private slotOf(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> this.shift
  }
}

class ByteWriter {
  private bytes: Uint8Array
  length = 0

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(16, capacity))
  }

  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n))
    grown.set(this.bytes.subarray(0, this.length))
    this.bytes = grown
  }

  byte(value: number): void {
    this.reserve(1)
    this.bytes[this.length++] = value
  }

  varint(value: number): void {
    this.reserve(10)
    let rest = value
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest % 0x80) | 0x80
      rest = Math.floor(rest / 0x80)
    }
    this.bytes[this.length++] = rest
  }

  copyFrom(source: Uint8Array, start: number, end: number): void {
    this.reserve(end - start)
    this.bytes.set(source.subarray(start, end), this.length)
    this.length += end - start
  }

  result(): Buffer {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length)
  }
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1)
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2)

/**
 * The delta for a target that is its base with a few local edits (a new version of a file:
 * lines changed, added or removed here and there), found without an index: runs are compared
 * in native code, and after each edit the two are realigned by looking for a piece of what
 * follows in the target near where the base went on. Null when that does not work out (an edit
 * too big, the file rearranged, too little in common): encodeDelta, with its index, is then the
 * one to ask. A copy is only ever made of bytes compared equal, so a wrong realignment costs
 * size, never correctness.
 */
export function encodeEdits(base: Uint8Array, target: Uint8Array): Buffer | null {
  if (target.length < MIN_DELTA_TARGET) return null
  const tail = commonRun(base, target, Math.min(base.length, target.length), true)
  const baseEnd = base.length - tail
  const targetEnd = target.length - tail
  const maxInserted = Math.min(MAX_EDITED_BYTES, target.length / 2)
  const budget = { searched: 0, limit: SEARCH_WORK_PER_BYTE * target.length + 65_536 }
  const out = new ByteWriter(256)
  out.varint(base.length)
  out.varint(target.length)
  let cursor = 0
  const copy = (from: number, n: number) => {
    out.byte(OP_COPY)
    out.varint(zigzag(from - cursor))
    out.varint(n)
    cursor = from + n
  }
  let inserted = 0
  let t = 0
  let b = 0
  while (t < targetEnd) {
    const limit = Math.min(baseEnd - b, targetEnd - t)
    const same = commonRun(base.subarray(b), target.subarray(t), limit, false)
    if (same > 0) {
      copy(b, same)
      t += same
      b += same
      continue
    }
    const next = realign(base, b, baseEnd, target, t, targetEnd, budget)
    if (next === null || (next.t === t && next.b === b)) return null
    inserted += next.t - t
    if (inserted > maxInserted) return null
    if (next.t > t) {
      out.byte(OP_INSERT)
      out.varint(next.t - t)
      out.copyFrom(target, t, next.t)
    }
    t = next.t
    b = next.b
  }
  if (tail > 0) copy(baseEnd, tail)
  return out.result()
}

/** More edited bytes than this go to encodeDelta, which may find copies inside them. */
const MAX_EDITED_BYTES = 65_536
/** How far into an edit the target is probed for where it meets the base again. */
const REALIGN_STEPS = [0, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
/** The length of a probe, and how far past the expected place the base is searched. */
const PROBE_BYTES = 32
const SEARCH_BYTES = 8192
/** Bytes of base searched per target byte before the edits are left to encodeDelta. */
const SEARCH_WORK_PER_BYTE = 4
/** A target ending in this much that is not in the base is still an edit. */
const MAX_NEW_END = 4096

/**
 * Where target and base agree again after an edit at (t, b): the first probe of the target
 * found in the base near b, backed up over equal bytes. The rest of the target when there is
 * little left; null when no probe is found (or the search budget is spent).
 */
function realign(
  base: Uint8Array,
  b: number,
  baseEnd: number,
  target: Uint8Array,
  t: number,
  targetEnd: number,
  budget: { searched: number; limit: number }
): { t: number; b: number } | null {
  const inBase = bufferOf(base)
  for (const step of REALIGN_STEPS) {
    const at = t + step
    if (at + PROBE_BYTES > targetEnd) break
    const hi = Math.min(baseEnd, b + step + SEARCH_BYTES)
    if (hi - b < PROBE_BYTES) break
    budget.searched += hi - b
    if (budget.searched > budget.limit) return null
    const found = inBase.subarray(b, hi).indexOf(bufferOf(target).subarray(at, at + PROBE_BYTES))
    if (found < 0) continue
    let meetT = at
    let meetB = b + found
    while (meetT > t && meetB > b && target[meetT - 1] === base[meetB - 1]) {
      meetT--
      meetB--
    }
    return { t: meetT, b: meetB }
  }
  // Nothing found: the rest of the target is new, if it is short (an edit at the end).
  return targetEnd - t <= MAX_NEW_END ? { t: targetEnd, b: baseEnd } : null
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
}

/**
 * How many bytes `a` and `b` share from their start (`fromEnd`: from their end), at most `max`:
 * a binary search over spans compared in native code, a dozen compares for a small file.
 */
function commonRun(a: Uint8Array, b: Uint8Array, max: number, fromEnd: boolean): number {
  const span = (of: Uint8Array, from: number, to: number) =>
    fromEnd ? of.subarray(of.length - to, of.length - from) : of.subarray(from, to)
  let same = 0
  let limit = max
  // The first `same` bytes agree; the answer lies in [same, limit].
  while (same < limit) {
    const mid = (same + limit + 1) >>> 1
    if (Buffer.compare(span(a, same, mid), span(b, same, mid)) === 0) same = mid
    else limit = mid - 1
  }
  return same
}

/**
 * The delta that rebuilds `target` from `index.base`, or null when it would not pay: the target
 * is tiny, or less than half of it could be copied (then it is stored whole). Gives up as soon
 * as that is certain, so an unrelated file costs little more than one pass over half of it.
 */
export function encodeDelta(index: DeltaIndex, target: Uint8Array): Buffer | null {
  const base = index.base
  const length = target.length
  if (length < MIN_DELTA_TARGET || base.length < MIN_MATCH) return null
  if (!worthTrying(index, target)) return null
  const maxInserted = Math.floor(length / 2)
  const out = new ByteWriter(length / 4)
  out.varint(base.length)
  out.varint(length)
  let inserted = 0
  let pending = 0 // start of the bytes not yet covered by an op
  let cursor = 0 // where the last copy ended in the base
  const insertUpTo = (end: number) => {
    if (end <= pending) return
    out.byte(OP_INSERT)
    out.varint(end - pending)
    out.copyFrom(target, pending, end)
  }
  const last = length - MIN_MATCH
  const budget = { comparisons: length * MAX_WORK_PER_BYTE }
  let at = 0
  let hash = windowHash(target, 0)
  while (at <= last) {
    const match = bestMatch(index, hash, target, at, cursor, at - pending, budget)
    if (match === null && budget.comparisons < 0) return null
    if (match !== null) {
      let back = 0
      while (
        at - back > pending &&
        match.from - back > 0 &&
        target[at - back - 1] === base[match.from - back - 1]
      ) {
        back++
      }
      inserted += at - back - pending
      if (inserted > maxInserted) return null
      insertUpTo(at - back)
      out.byte(OP_COPY)
      out.varint(zigzag(match.from - back - cursor))
      out.varint(match.length + back)
      cursor = match.from + match.length
      at += match.length
      pending = at
      if (at <= last) hash = windowHash(target, at)
      continue
    }
    if (inserted + (at - pending) > maxInserted) return null
    if (at < last) hash = rollHash(hash, target[at] ?? 0, target[at + MIN_MATCH] ?? 0)
    at++
  }
  inserted += length - pending
  if (inserted > maxInserted) return null
  insertUpTo(length)
  return out.result()
}

interface Match {
  from: number
  length: number
}

/**
 * A run of the base that the target at `at` starts with, if it is worth a copy; null to move on
 * by one byte. Where the base goes on is tried first, nearest offsets first: after a changed
 * run the base usually resumes a few bytes from where the last copy ended (a word replaced by
 * a longer one, a number with more digits). Then the index, whose match must be long: in a file
 * of similar lines a short one is usually the wrong line, and a few bytes on a longer one
 * (extended back over those bytes) finds the right one.
 */
function bestMatch(
  index: DeltaIndex,
  hash: number,
  target: Uint8Array,
  at: number,
  cursor: number,
  changedRun: number,
  budget: { comparisons: number }
): Match | null {
  const base = index.base
  const expected = cursor + changedRun
  const reach = changedRun === 0 ? 0 : NEAR
  for (let k = 0; k <= 2 * reach + 1; k++) {
    // k = 0, 1, 2, 3, … tries expected, expected - 1, expected + 1, expected - 2, …; last, the
    // cursor itself (the changed run was an insert).
    const from = k > 2 * reach ? cursor : expected + (k % 2 === 1 ? -(k + 1) / 2 : k / 2)
    const length = commonLength(base, from, target, at)
    budget.comparisons -= length + 1
    if (length >= MIN_MATCH) return { from, length }
  }
  let best: Match = { from: -1, length: 0 }
  let candidates = 0
  for (let from = index.first(hash); from >= 0; from = index.next(from)) {
    const length = commonLength(base, from, target, at)
    budget.comparisons -= length + 1
    if (length > best.length) best = { from, length }
    if (best.length >= GOOD_MATCH || ++candidates >= MAX_CANDIDATES) break
    if (budget.comparisons < 0) return null
  }
  return best.length >= GOOD_MATCH ||
    (best.length >= MIN_MATCH && at + best.length === target.length)
    ? best
    : null
}

/**
 * Whether enough of the target is found in the base for a delta to be worth looking for:
 * checks a sample, so a file unlike the base costs a few dozen lookups. A sampled window counts
 * when a long run of the base starts like it (GOOD_MATCH bytes, what a copy is taken for), not
 * when its slot merely holds something, nor when its eight bytes recur: slots are shared, and
 * code of one language shares many short runs (keywords, indentation) with any other file of
 * it. Either way a file of varied code would be compared with an unrelated base byte by byte,
 * half of it, before being stored whole.
 */
function worthTrying(index: DeltaIndex, target: Uint8Array): boolean {
  const last = target.length - MIN_MATCH
  let found = 0
  for (let k = 0; k < PROBES; k++) {
    const at = Math.floor((k * last) / (PROBES - 1))
    // Near the end a run cannot be long: what is left of the target is enough.
    const wanted = Math.min(GOOD_MATCH, target.length - at)
    let candidates = 0
    for (let from = index.first(windowHash(target, at)); from >= 0; from = index.next(from)) {
      if (commonLength(index.base, from, target, at, wanted) >= wanted) {
        found++
        break
      }
      if (++candidates >= MAX_CANDIDATES) break
    }
  }
  return found >= PROBES / 4
}

/** A short run is copied byte by byte: a subarray per op cost more than the copy. */
function copyBytes(from: Uint8Array, start: number, to: Uint8Array, at: number, n: number): void {
  if (n > 64) {
    to.set(from.subarray(start, start + n), at)
    return
  }
  for (let k = 0; k < n; k++) to[at + k] = from[start + k] ?? 0
}

/** How many bytes of the base from `from` equal the target's from `at` (at most `max`). */
function commonLength(
  base: Uint8Array,
  from: number,
  target: Uint8Array,
  at: number,
  max = Infinity
): number {
  if (from < 0) return 0
  const end = Math.min(target.length - at, base.length - from, max)
  let length = 0
  while (length < end && target[at + length] === base[from + length]) length++
  return length
}

/** Rebuilds the target. Throws DeltaError on a delta that does not fit this base. */
export function applyDelta(base: Uint8Array, delta: Uint8Array): Buffer {
  let at = 0
  const varint = (): number => {
    let value = 0
    let scale = 1
    for (;;) {
      if (at >= delta.length) throw new DeltaError('the delta ends inside a number')
      const byte = delta[at++] ?? 0
      value += (byte & 0x7f) * scale
      if (byte < 0x80) return value
      scale *= 0x80
      if (scale > 2 ** 49) throw new DeltaError('a number in the delta is too long')
    }
  }
  const baseLength = varint()
  if (baseLength !== base.length) {
    throw new DeltaError(`the delta is for a ${baseLength}-byte base, not ${base.length} bytes`)
  }
  const length = varint()
  if (length > 2 ** 31) throw new DeltaError(`the delta's length ${length} is not plausible`)
  const out = Buffer.allocUnsafe(length)
  let written = 0
  let cursor = 0
  while (at < delta.length) {
    const op = delta[at++]
    if (op === OP_INSERT) {
      const n = varint()
      if (at + n > delta.length || written + n > length) {
        throw new DeltaError('an insert runs past the end')
      }
      copyBytes(delta, at, out, written, n)
      at += n
      written += n
    } else if (op === OP_COPY) {
      const from = cursor + unzigzag(varint())
      const n = varint()
      if (from < 0 || from + n > base.length || written + n > length) {
        throw new DeltaError('a copy reaches outside the base or past the end')
      }
      copyBytes(base, from, out, written, n)
      written += n
      cursor = from + n
    } else {
      throw new DeltaError(`unknown delta op ${op}`)
    }
  }
  if (written !== length) throw new DeltaError(`the delta rebuilt ${written} of ${length} bytes`)
  return out
}
