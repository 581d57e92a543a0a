// The workspace's content-addressed backup store: one immutable blob per distinct content, named by
// the sha256 of the raw bytes. Shared by every session of the workspace, so a file's content is
// stored once however many turns or sessions keep it.
//
// On disk a blob is either whole (a zlib stream) or a delta: a header naming the blob it was made
// from (its base), then the zlib-compressed copy/insert ops of delta.ts. A new version of a file
// is stored as a delta from an earlier version; a new file may be one from an earlier whole blob
// of the same kind. A blob is loose (a file of its own), in a pack (pack-file.ts: gc packs idle
// blobs, and a batch of many backups at once is written as one pack), or both. This module
// encodes, chains and reads; where the bytes lie is loose-blobs.ts (a file each), packed-blobs.ts
// (the packs and their indexes) and blob-batch.ts (a batch's, until it commits).
//
// Chains. A delta may be made from a delta, so each version of a file often edited costs what
// its edit costs, not every edit since a whole copy. Reading one applies every delta down to a
// whole blob, so chains are kept short, as git bounds its packs' delta depth:
//   - a file's versions form runs of "steps", each a delta of the version before it, at most
//     CHAIN_STEPS - 1 long;
//   - each run starts at a "key": a delta of the key (or whole blob) the previous run started at,
//     so it carries the edits of one run;
//   - keys chain at most CHAIN_KEYS deep; then the next key is made from the whole blob at the
//     root again (carrying every edit since), or stored whole when that would not pay.
// So a read applies at most CHAIN_KEYS + CHAIN_STEPS - 1 deltas, the store grows with the size
// of the edits (each edit stored about twice), and a snapshot costs the same at turn 400 as at 4.
//
// Raw, then settled. A command that changed many files (a batch written as a pack) stores each
// new version of a file raw, naming its previous version: no inflating of the previous version,
// no delta, no zlib on the command's path (as git writes loose objects first and deltas at gc).
// gc settles them (settled(): the delta of that previous version a put would have made, or
// deflated whole) when it rewrites their pack, which is marked unsettled (pack-file.ts). A few
// changed files (a loose batch) are settled at once, as they are written.
import { CodedError } from '../../shared/coded-error'
import { hash as digestOf } from 'node:crypto'
import { extname } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'
import { WriteFailedError } from '../os/write-failure'
import { PendingBatch, joined } from './blob-batch'
import { applyDelta, DeltaIndex, encodeDelta, encodeEdits } from './delta'
import { HASH, LooseBlobs, MAX_REMEMBERED } from './loose-blobs'
import { PackedBlobs } from './packed-blobs'

/** Level 1 keeps the first checkpoint's snapshot of a big workspace quick; git's loose objects use the same. */
const COMPRESSION_LEVEL = 1

export function sha256(content: Buffer): string {
  // One-shot: twice as fast as createHash on the few KB of a usual file.
  return digestOf('sha256', content, 'hex')
}

/**
 * "RSD1" (older stores: the base is whole) and "RSD2" (the base hash, then the delta's depth and
 * how many steps end at it; see the module header). No zlib stream starts with 0x52, so whole
 * blobs read as they always did.
 */
const DELTA_V1 = Buffer.from('RSD1', 'latin1')
const DELTA_V2 = Buffer.from('RSD2', 'latin1')
const MAGIC_BYTES = 4
const V1_HEADER_BYTES = MAGIC_BYTES + 32
const V2_HEADER_BYTES = V1_HEADER_BYTES + 2
/** "RSW1", the hash of the file's previous version, the raw content (see above). */
const RAW = Buffer.from('RSW1', 'latin1')
const RAW_HEADER_BYTES = MAGIC_BYTES + 32
/** Versions in a run of steps, its key included (see the module header). */
export const CHAIN_STEPS = 16
/** How deep keys chain before one is made from the whole blob again. */
export const CHAIN_KEYS = 16
/** Deltas followed down a chain before it is taken for a loop of damaged headers. */
const MAX_CHAIN_READ = 4 * (CHAIN_KEYS + CHAIN_STEPS)
/** Decoded contents kept for deltas to be made from and read through, least recently used first. */
const DECODED_CACHE_BYTES = 48_000_000
/** Larger contents read on the way down a chain are not kept (see contentOf). */
const MAX_CACHED_LINK_BYTES = DECODED_CACHE_BYTES / (CHAIN_KEYS + CHAIN_STEPS)
/** Delta indexes kept (a kind's base serves many new files; a step's base serves one). */
const INDEX_CACHE_BYTES = 64_000_000
/** Contents stored or read lately, kept in memory; larger ones are read from disk each time. */
const RECENT_CACHE_BYTES = 16_000_000
const MAX_RECENT_CONTENT_BYTES = 1_000_000
/** Larger contents are stored whole: building a delta index for them costs more than it saves. */
const MAX_DELTA_BYTES = 16_000_000
/** Misses in a row after which a kind's base gives way to the next new file stored whole. */
const KIND_BASE_MISSES = 16
/** What the caller knows about content it stores, so it can be stored as a delta. */
export interface StoreHint {
  /** The hash of an earlier version of the same file. */
  previous?: string | null | undefined
  /** The file's workspace path: with no earlier version, a file of the same kind is tried. */
  path?: string | undefined
}

export class BlobMissingError extends CodedError {
  constructor(readonly hash: string) {
    super(
      'not_found',
      `Backup ${hash.slice(0, 12)}… is not in the store (pruned by retention, or never kept)`
    )
    this.name = 'BlobMissingError'
  }
}

export class BlobDamagedError extends CodedError {
  constructor(
    readonly hash: string,
    reason: string
  ) {
    super('unavailable', `Backup ${hash.slice(0, 12)}… is damaged: ${reason}`)
    this.name = 'BlobDamagedError'
  }
}

/** Where a blob sits in its chain: whole (base null, depth 0) or a delta. */
interface Shape {
  base: string | null
  /** Deltas to apply to read it. */
  depth: number
  /** Steps ending at it (0: a key or a whole blob). */
  steps: number
}

/** A delta to make: from `base`, giving the new blob this shape. */
type DeltaPlan = Shape & { base: string }

/**
 * Blobs stored together (the first checkpoint of a workspace, a command that changed many files):
 * past a few, written into one pack file as they come rather than a file each, and visible to
 * other processes only once committed. Commit before anything names them (a session record).
 */
export interface BlobBatch {
  put(content: Buffer, hint?: StoreHint): string
  /** holds(), a packed blob due for renewal copied into this batch rather than written loose. */
  holds(hash: string): boolean
  commit(): void
  abort(): void
}

export class BlobStore {
  /** Per file extension: the base tried for a new file, and how many missed it in a row. */
  private readonly kindBases = new Map<string, { hash: string; bytes: number; misses: number }>()
  private readonly decoded = new LruCache<Buffer>(DECODED_CACHE_BYTES, (c) => c.length)
  private readonly indexes = new LruCache<DeltaIndex>(INDEX_CACHE_BYTES, (i) => i.bytes)
  private readonly shapes = new Map<string, Shape>()
  /** Contents stored or read lately (see remember), least recently added first. */
  private readonly recent = new Map<string, Buffer>()
  private recentBytes = 0
  /** The blobs stored a file each (loose-blobs.ts). */
  private readonly loose: LooseBlobs
  /** The blobs in pack files (packed-blobs.ts). */
  private readonly packs: PackedBlobs
  /** The batches open (blob-batch.ts): their blobs read before their commit, by this store only. */
  private readonly batches = new Set<PendingBatch>()

  constructor(readonly dir: string) {
    this.loose = new LooseBlobs(dir)
    this.packs = new PackedBlobs(dir)
  }

  /** Keeps spare files ready for this store's loose blobs from now on, until close(). */
  keepSpareFiles(): Promise<void> {
    return this.loose.keepSpareFiles()
  }

  /** Removes the spare files not used (the store stays usable, making its files as it goes). */
  close(): Promise<void> {
    return this.loose.close()
  }

  pathOf(hash: string): string {
    return this.loose.pathOf(hash)
  }

  async has(hash: string): Promise<boolean> {
    return this.isStored(hash)
  }

  private isStored(hash: string): boolean {
    return (
      // The packs' index in memory first: a restore's thousand packed backups, each read again
      // at the apply, cost no lookup of a loose file each (with heldIn's, below: a `cli rewind`
      // of 1,000 files 331 -> 295 ms median, bench/files-restore.ts, 2 runs alternated).
      this.packs.has(hash) ||
      this.loose.has(hash) ||
      this.packs.find(hash) !== undefined ||
      [...this.batches].some((b) => b.has(hash))
    )
  }

  /**
   * Keeps `content` and returns its hash. Written to a temp file and renamed, so a crash leaves
   * either no blob or a whole one. Throws (disk full, permission) rather than returning a hash
   * whose blob is not there: callers refuse the change they were backing up.
   *
   * Synchronous on purpose: one blob blocks for well under a millisecond, and the first
   * checkpoint of a big workspace backs up thousands of them, where a round trip through the
   * libuv thread pool per syscall made it four times slower. Callers yield between batches.
   */
  put(content: Buffer, hint: StoreHint = {}): string {
    return this.store(content, hint, null)
  }

  /**
   * Makes the shard folders not made yet (all 256: ~1 MB of folders, what a long session makes
   * anyway), a few at a time between yields. A new folder costs ~0.1–1 ms on a busy ext4, which
   * a turn would otherwise pay on most of its backups until most shards exist (~80% of the first
   * hundred blobs land in a new one). A failure (a full disk) stops it quietly: writeLoose makes
   * a missing folder as it always did.
   */
  makeShardFolders(): Promise<void> {
    return this.loose.makeShardFolders()
  }

  /** A batch of puts written together (see BlobBatch). */
  openBatch(): BlobBatch {
    const batch = new PendingBatch(this.dir)
    this.batches.add(batch)
    const close = () => this.batches.delete(batch)
    return {
      put: (content, hint = {}) => this.store(content, hint, batch),
      holds: (hash) => this.heldIn(hash, batch),
      commit: () => {
        try {
          // A few blobs go loose: settled now, as no gc rewrites loose blobs before packing them.
          // One already loose is used again, not written again (store did not look for it: a
          // command's backup of the file a Write just backed up would cost a file and a sync).
          batch.commit((hash, bytes) => {
            if (!this.loose.holds(hash)) this.loose.write(hash, this.settled(hash, bytes) ?? bytes)
          })
        } finally {
          close()
          // The pack folder changed: the next lookup reads the new pack's index.
          this.packs.changed()
        }
      },
      abort: () => {
        batch.abort()
        close()
      }
    }
  }

  private store(content: Buffer, hint: StoreHint, batch: PendingBatch | null): string {
    const hash = sha256(content)
    this.remember(hash, content)
    // A put into a batch does not look for a loose copy: that is a syscall per blob (~8 µs, a
    // tenth of a command changing 1,000 files), and a blob found loose is rare in a batch big
    // enough for a pack (content a Write backed up, which a command then brought back). One is
    // stored again in the pack, a state gc resolves (retention.ts keeps the loose copy, by the
    // later use); a batch small enough to go loose looks at its commit.
    const held =
      batch === null ? this.heldIn(hash, null) : batch.has(hash) || this.heldPacked(hash, batch)
    if (held) return hash
    const kind = hint.path === undefined ? null : extname(hint.path)
    const previous = hint.previous ?? null
    const raw =
      batch !== null &&
      previous !== null &&
      HASH.test(previous) &&
      content.length <= MAX_DELTA_BYTES
    const { bytes, shape, kindBase } = raw
      ? { bytes: [rawHeader(previous), content], shape: WHOLE, kindBase: null }
      : this.encode(content, previous, kind, batch)
    if (batch === null) this.loose.write(hash, joined(bytes))
    else {
      try {
        batch.add(hash, bytes, raw)
      } catch (error) {
        throw new WriteFailedError(`a backup in ${this.dir}`, error)
      }
    }
    this.rememberShape(hash, shape)
    if (kindBase !== null) this.kindBases.set(kindBase, { hash, bytes: content.length, misses: 0 })
    // The next version of this file is made from this one (a batch's thousands are not kept).
    if (batch === null && content.length <= MAX_DELTA_BYTES) this.decoded.set(hash, content)
    return hash
  }

  /**
   * The stored form of `content`: a delta when one from a fitting base pays, else whole; and the
   * kind (file extension) whose base for new files it becomes, if any.
   */
  private encode(
    content: Buffer,
    previous: string | null,
    kind: string | null,
    batch: PendingBatch | null
  ): { bytes: Buffer; shape: Shape; kindBase: string | null } {
    const whole = (kindBase: string | null = null) => ({
      bytes: deflateSync(content, { level: COMPRESSION_LEVEL }),
      shape: WHOLE,
      kindBase
    })
    const held = (hash: string) => this.heldIn(hash, batch)
    if (content.length > MAX_DELTA_BYTES) return whole()
    if (previous !== null) {
      const plan = this.chainPlan(previous)
      const delta = plan === null ? null : this.deltaFrom(plan, content, held)
      return delta === null ? whole() : { ...delta, kindBase: null }
    }
    // A new file: perhaps much like another of its kind (generated code, fixtures). A miss costs
    // a few dozen lookups (delta.ts worthTrying); after a few in a row, the next file stored
    // whole becomes the base tried, as the old one is unlike what comes now. In a batch (a first
    // checkpoint) only a file about the base's size is tried: on real code deltas between files
    // saved ~1% of the store and took a third of the time; near-identical files (generated
    // code) are about the same size.
    if (kind === null) return whole()
    const kindBase = this.kindBases.get(kind)
    if (kindBase === undefined) return whole(kind)
    const alike = batch === null || Math.abs(kindBase.bytes - content.length) <= content.length / 10
    const delta = alike
      ? this.deltaFrom({ base: kindBase.hash, depth: 1, steps: 0 }, content, held)
      : null
    if (delta !== null) {
      kindBase.misses = 0
      return { ...delta, kindBase: null }
    }
    return whole(++kindBase.misses >= KIND_BASE_MISSES ? kind : null)
  }

  private rememberShape(hash: string, shape: Shape): void {
    if (this.shapes.size >= MAX_REMEMBERED) this.shapes.clear()
    this.shapes.set(hash, shape)
  }

  /**
   * Which delta a new version of `previous` is made as (see the module header), or null to store
   * it whole (the chain cannot be read, or its blobs are gone).
   */
  private chainPlan(previous: string): DeltaPlan | null {
    try {
      const shape = this.shapeOf(previous)
      if (shape.steps + 1 < CHAIN_STEPS) {
        return { base: previous, depth: shape.depth + 1, steps: shape.steps + 1 }
      }
      // The run is full: a new key, made from the key this run started at.
      let key = previous
      for (let k = 0; k < shape.steps; k++) key = this.shapeOf(key).base ?? key
      const keyShape = this.shapeOf(key)
      if (keyShape.depth + 1 <= CHAIN_KEYS) {
        return { base: key, depth: keyShape.depth + 1, steps: 0 }
      }
      // The keys are as deep as they go: from the whole blob at the root again (a chain that
      // never ends, of damaged headers, gets a whole blob instead).
      let root = key
      for (let hops = 0; hops <= MAX_CHAIN_READ; hops++) {
        const base = this.shapeOf(root).base
        if (base === null) return { base: root, depth: 1, steps: 0 }
        root = base
      }
      return null
    } catch {
      // A hint is only a hint: a base pruned or damaged meanwhile means storing whole.
      return null
    }
  }

  /**
   * The stored form gc keeps of a blob a batch stored raw: the delta of the previous version it
   * names that a put would have made (when that version is still stored and the delta pays),
   * else deflated whole. null when `stored` is not raw (nothing to settle). `leaving`: blobs a gc
   * is deleting, never made a base.
   *
   * The delta's depth is the chain's true depth, walked down to its whole blob: a blob another
   * session made from this one while it was raw counted it as whole, so a header's depth may
   * undercount by one settled chain; walking keeps every settled chain, and so every chain
   * made on top of one, within MAX_CHAIN_READ.
   */
  settled(hash: string, stored: Buffer, leaving: ReadonlySet<string> = new Set()): Buffer | null {
    if (!isRaw(stored)) return null
    const content = stored.subarray(RAW_HEADER_BYTES)
    const previous = stored.toString('hex', MAGIC_BYTES, RAW_HEADER_BYTES)
    const plan = this.chainPlan(previous)
    const baseDepth = plan === null ? null : this.trueDepth(plan.base)
    const delta =
      plan === null || baseDepth === null || baseDepth + 1 >= CHAIN_KEYS + CHAIN_STEPS
        ? null
        : this.deltaFrom(
            { ...plan, depth: Math.max(plan.depth, baseDepth + 1) },
            content,
            (h) => !leaving.has(h) && this.isStored(h)
          )
    // A later blob of the same run may be settled as a delta of this one: plan it by this shape.
    this.rememberShape(hash, delta?.shape ?? WHOLE)
    return delta?.bytes ?? deflateSync(content, { level: COMPRESSION_LEVEL })
  }

  /** Deltas read to rebuild `hash`, by its chain's headers; null when the chain cannot be read. */
  private trueDepth(hash: string): number | null {
    try {
      let at = hash
      for (let depth = 0; depth <= MAX_CHAIN_READ; depth++) {
        const base = this.shapeOf(at).base
        if (base === null) return depth
        at = base
      }
    } catch {
      // Gone or damaged: settled whole.
    }
    return null
  }

  /**
   * The delta blob for `content` by `plan`, or null when too little of it is in the base or the
   * base is gone (`held`: whether the store has it, for a put also renewing it: see renewed, so
   * retention sees it in use from now on).
   */
  private deltaFrom(
    plan: DeltaPlan,
    content: Buffer,
    held: (hash: string) => boolean
  ): { bytes: Buffer; shape: Shape } | null {
    let ops: Buffer | null
    try {
      if (!held(plan.base)) return null
      const base = this.contentOf(plan.base)
      if (base.length > MAX_DELTA_BYTES) return null
      // A version with a few local edits (the usual new version) needs no index of its base.
      ops = encodeEdits(base, content) ?? encodeDelta(this.indexOf(plan.base, base), content)
    } catch {
      return null
    }
    if (ops === null) return null
    const header = Buffer.alloc(V2_HEADER_BYTES)
    DELTA_V2.copy(header, 0)
    header.write(plan.base, MAGIC_BYTES, 'hex')
    header[V1_HEADER_BYTES] = plan.depth
    header[V1_HEADER_BYTES + 1] = plan.steps
    return {
      bytes: Buffer.concat([header, deflateSync(ops, { level: COMPRESSION_LEVEL })]),
      shape: plan
    }
  }

  private indexOf(hash: string, content: Buffer): DeltaIndex {
    const cached = this.indexes.get(hash)
    if (cached !== undefined) return cached
    const index = new DeltaIndex(content)
    this.indexes.set(hash, index)
    return index
  }

  /** The blob a delta blob was made from; null for a whole blob. Reads only the header. */
  baseOf(hash: string): string | null {
    return this.shapeOf(hash).base
  }

  /** Where `hash` sits in its chain, from the blob's header (remembered once read). */
  private shapeOf(hash: string): Shape {
    const known = this.shapes.get(hash)
    if (known !== undefined) return known
    const shape = shapeIn(this.storedBytes(hash, V2_HEADER_BYTES))
    if (this.shapes.size >= MAX_REMEMBERED) this.shapes.clear()
    this.shapes.set(hash, shape)
    return shape
  }

  /** Whether the store has `hash`, which counts as using it again (see renewed). */
  holds(hash: string): boolean {
    return this.heldIn(hash, null)
  }

  /** holds(), counting also what `batch` holds (nothing else sees a batch before its commit). */
  private heldIn(hash: string, batch: PendingBatch | null): boolean {
    if (batch?.has(hash) === true) return true
    // One packed within the hour, known from memory, is young as it is: no syscall for it (a
    // restore asks this of the thousand files it overwrites, a command backed them up).
    const known = this.packs.known(hash)
    if (known !== undefined && this.packs.recently(hash, known, Date.now())) return true
    if (this.loose.holds(hash)) return true
    return this.heldPacked(hash, batch)
  }

  /** heldIn, not looking for a loose copy. */
  private heldPacked(hash: string, batch: PendingBatch | null): boolean {
    // A packed blob cannot be given a fresh mtime: it is used again as a loose copy, which the
    // next gc packs (and the older copy goes with its pack's next rewrite). One packed within
    // the hour (a batch) is young enough as it is. A pack another process wrote in the last
    // second may be missed here: its blob is then stored twice, which is all it costs (a read
    // looks again at once).
    const packed = this.packs.find(hash, 1000)
    if (packed === undefined) return false
    const now = Date.now()
    if (this.packs.recently(hash, packed, now)) return true
    const bytes = this.packs.readCopy(packed)
    if (bytes === null) return false
    // In a batch (a restore's backups) the copies of a thousand blobs make one pack, not a
    // thousand files: a new file costs ~0.5 ms on a busy ext4, where the rewind's own writes
    // cost a few µs each.
    if (batch !== null) {
      batch.add(hash, bytes, isRaw(bytes))
      this.packs.copied(hash, now)
    } else this.loose.write(hash, bytes)
    return true
  }

  /** The content of `hash` (shared: do not modify it); BlobMissingError when it is gone. */
  async get(hash: string): Promise<Buffer> {
    return this.read(hash)
  }

  /** get(), synchronously (restores read blobs in batches; see put()). */
  read(hash: string): Buffer {
    const cached = this.recent.get(hash) ?? this.decoded.get(hash)
    // Only while the store still has it: a pruned blob must read as missing here as elsewhere.
    if (cached !== undefined && this.isStored(hash)) return cached
    const content = this.decode(hash, 0)
    if (content.length <= MAX_DELTA_BYTES) this.decoded.set(hash, content)
    this.remember(hash, content)
    return content
  }

  /**
   * A blob's content through the cache of decoded contents: a chain is read from its nearest
   * decoded blob. `depth`: how many deltas up the chain this read began.
   */
  /**
   * A blob's content, decoded through its chain as far as needed. What was asked for is cached;
   * the contents a chain is read through only when a whole chain of them fits the cache: a deep
   * chain of a big file would evict everything else, the previous versions the next deltas are
   * made from among them, and every later version would then be read through its whole chain
   * again (400 turns on three 3.3 MB files took longer each turn).
   */
  private contentOf(hash: string, depth = 0): Buffer {
    const cached = this.decoded.get(hash)
    if (cached !== undefined) return cached
    const content = this.decode(hash, depth)
    const limit = depth === 0 ? MAX_DELTA_BYTES : MAX_CACHED_LINK_BYTES
    if (content.length <= limit) this.decoded.set(hash, content)
    return content
  }

  private decode(hash: string, depth: number): Buffer {
    const stored = this.storedBytes(hash)
    const shape = shapeIn(stored)
    if (isRaw(stored)) {
      // No zlib checksum covers raw bytes: the hash does.
      const content = stored.subarray(RAW_HEADER_BYTES)
      if (sha256(content) !== hash)
        throw new BlobDamagedError(hash, 'its content does not match its hash')
      return content
    }
    if (shape.base === null) return inflate(hash, stored)
    // Far deeper than any chain this store makes: a loop of damaged headers, not a chain.
    if (depth > MAX_CHAIN_READ) {
      throw new BlobDamagedError(hash, 'its chain of deltas does not end in a whole blob')
    }
    const base = this.contentOf(shape.base, depth + 1)
    const opsAt = stored.subarray(0, MAGIC_BYTES).equals(DELTA_V1)
      ? V1_HEADER_BYTES
      : V2_HEADER_BYTES
    let rebuilt: Buffer
    try {
      rebuilt = applyDelta(base, inflateSync(stored.subarray(opsAt)))
    } catch (error) {
      throw new BlobDamagedError(hash, (error as Error).message)
    }
    // A delta applied to the wrong bytes would still produce bytes: check they are the ones kept.
    if (sha256(rebuilt) !== hash) throw new BlobDamagedError(hash, 'its delta does not rebuild it')
    return rebuilt
  }

  /** Keeps a content stored or read lately in memory: a rewind, or its undo, soon needs it. */
  private remember(hash: string, content: Buffer): void {
    if (content.length > MAX_RECENT_CONTENT_BYTES || this.recent.has(hash)) return
    this.recent.set(hash, content)
    this.recentBytes += content.length
    for (const [old, { length }] of this.recent) {
      if (this.recentBytes <= RECENT_CACHE_BYTES) break
      this.recent.delete(old)
      this.recentBytes -= length
    }
  }

  /**
   * The stored bytes of a blob (its first `length` bytes when given: a header). Any copy will do,
   * loose or packed, as each rebuilds the same content: one in a pack already known is read
   * without looking for a loose file first (a missing file costs an exception).
   */
  private storedBytes(hash: string, length?: number): Buffer {
    const known = this.packs.known(hash)
    if (known !== undefined) {
      const bytes = this.packs.readCopy(known, length)
      if (bytes !== null) return bytes
    }
    const loose = this.loose.read(hash, length)
    if (loose !== null) return loose
    const packed = this.packs.bytes(hash, length)
    if (packed !== null) return packed
    for (const batch of this.batches) {
      const pending = batch.read(hash)
      if (pending !== null) return pending
    }
    throw new BlobMissingError(hash)
  }
}

/** A map of values least recently used first, dropping the oldest past a size budget. */
class LruCache<T> {
  private readonly entries = new Map<string, T>()
  private bytes = 0

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: T) => number
  ) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: string, value: T): void {
    const old = this.entries.get(key)
    if (old !== undefined) {
      this.entries.delete(key)
      this.bytes -= this.sizeOf(old)
    }
    this.entries.set(key, value)
    this.bytes += this.sizeOf(value)
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.budget || k === key) break
      this.entries.delete(k)
      this.bytes -= this.sizeOf(v)
    }
  }
}

const WHOLE: Shape = Object.freeze({ base: null, depth: 0, steps: 0 })

function isRaw(stored: Buffer): boolean {
  return stored.length >= RAW_HEADER_BYTES && stored.subarray(0, MAGIC_BYTES).equals(RAW)
}

/** What comes before the content of a raw blob, a new version of `previous` (see RAW). */
function rawHeader(previous: string): Buffer {
  const header = Buffer.allocUnsafe(RAW_HEADER_BYTES)
  RAW.copy(header, 0)
  header.write(previous, MAGIC_BYTES, 'hex')
  return header
}

/** The shape a blob's first bytes give: whole, an RSD1 delta (of a whole blob) or an RSD2 one. */
function shapeIn(stored: Buffer): Shape {
  const magic = stored.subarray(0, MAGIC_BYTES)
  if (magic.equals(DELTA_V1) && stored.length >= V1_HEADER_BYTES) {
    return { base: stored.toString('hex', MAGIC_BYTES, V1_HEADER_BYTES), depth: 1, steps: 0 }
  }
  if (magic.equals(DELTA_V2) && stored.length >= V2_HEADER_BYTES) {
    return {
      base: stored.toString('hex', MAGIC_BYTES, V1_HEADER_BYTES),
      depth: stored[V1_HEADER_BYTES] ?? 1,
      steps: stored[V1_HEADER_BYTES + 1] ?? 0
    }
  }
  return { base: null, depth: 0, steps: 0 }
}

function inflate(hash: string, packed: Buffer): Buffer {
  try {
    return inflateSync(packed)
  } catch (error) {
    throw new BlobDamagedError(hash, (error as Error).message)
  }
}
