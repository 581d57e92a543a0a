// The workspace's content-addressed backup store: one immutable file per distinct content,
// named by the sha256 of the raw bytes. Shared by every session of the workspace, so a file's
// content is stored once however many turns or sessions keep it.
//
// On disk a blob is either whole (a zlib stream) or a delta (DELTA_MAGIC, the 32-byte hash of a
// whole blob it was made from, then the zlib-compressed copy/insert ops of delta.ts). A new
// version of a file is stored as a delta from an earlier version; a new file as one from the
// last whole blob with the same extension. A delta's base is always a whole blob, so reading
// any blob costs at most two files (and the base is usually cached). Retention keeps a delta's
// base as long as the delta, and packs blobs nobody used for a day into pack files
// (pack-file.ts), which this store reads when a blob is not loose.
import { createHash } from 'node:crypto'
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync
} from 'node:fs'
import { dirname, extname, join } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { WriteFailedError } from '../os/write-failure'
import { applyDelta, DeltaIndex, encodeDelta } from './delta'
import {
  type PackedBlob,
  listPacks,
  PackDamagedError,
  packsDir,
  readPackIndex,
  readPacked
} from './pack-file'

/** Level 1 keeps the first checkpoint's snapshot of a big workspace quick; git's loose objects use the same. */
const COMPRESSION_LEVEL = 1

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}

const HASH = /^[0-9a-f]{64}$/
/** "RSD1": no zlib stream starts with 0x52, so whole blobs (and older stores) read as before. */
const DELTA_MAGIC = Buffer.from('RSD1', 'latin1')
const DELTA_HEADER_BYTES = DELTA_MAGIC.length + 32
/** Decoded bases kept in memory: a restore reads many deltas of one base. */
const BASE_CACHE_BYTES = 32_000_000
/** Contents stored or read lately, kept in memory; larger ones are read from disk each time. */
const RECENT_CACHE_BYTES = 16_000_000
const MAX_RECENT_CONTENT_BYTES = 1_000_000
const RENEW_INTERVAL_MS = 3_600_000
const MAX_RENEWALS_REMEMBERED = 200_000
/** Larger contents are stored whole: building a delta index for them costs more than it saves. */
const MAX_DELTA_BYTES = 16_000_000

/** What the caller knows about content it stores, so it can be stored as a delta. */
export interface StoreHint {
  /** The hash of an earlier version of the same file. */
  previous?: string | null | undefined
  /** The file's workspace path: with no earlier version, a file of the same kind is tried. */
  path?: string | undefined
}

let tempCount = 0

export class BlobMissingError extends Error {
  constructor(readonly hash: string) {
    super(`Backup ${hash.slice(0, 12)}… is not in the store (pruned by retention, or never kept)`)
    this.name = 'BlobMissingError'
  }
}

export class BlobDamagedError extends Error {
  constructor(
    readonly hash: string,
    reason: string
  ) {
    super(`Backup ${hash.slice(0, 12)}… is damaged: ${reason}`)
    this.name = 'BlobDamagedError'
  }
}

interface CachedBase {
  content: Buffer
  index: DeltaIndex | null
}

export class BlobStore {
  /** Shard folders known to exist, so a put costs no mkdir. */
  private readonly shards = new Set<string>()
  /** The last whole blob stored per file extension: the base tried for a new file. */
  private readonly lastWholeByKind = new Map<string, string>()
  /** Decoded whole blobs used as bases, least recently used first. */
  private readonly bases = new Map<string, CachedBase>()
  private cachedBytes = 0
  /** Contents stored or read lately (see remember), least recently added first. */
  private readonly recent = new Map<string, Buffer>()
  private recentBytes = 0
  private readonly renewedAt = new Map<string, number>()
  /** Blobs in pack files (pack-file.ts) by hash; null until first needed. */
  private packed: Map<string, PackedBlob> | null = null
  private packsStamp = ''

  constructor(readonly dir: string) {}

  pathOf(hash: string): string {
    // A hash comes from session records; a malformed one must not become a path.
    if (!HASH.test(hash)) throw new Error(`Not a sha256 hash: ${JSON.stringify(hash)}`)
    return join(this.dir, hash.slice(0, 2), hash)
  }

  async has(hash: string): Promise<boolean> {
    return this.isStored(hash)
  }

  private isStored(hash: string): boolean {
    return existsSync(this.pathOf(hash)) || this.findPacked(hash) !== undefined
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
    const hash = sha256(content)
    this.remember(hash, content)
    if (this.holds(hash)) return hash
    const kind = hint.path === undefined ? null : extname(hint.path)
    const delta = this.deltaFor(
      content,
      hint.previous ?? (kind === null ? undefined : this.lastWholeByKind.get(kind))
    )
    this.writeLoose(hash, delta ?? deflateSync(content, { level: COMPRESSION_LEVEL }))
    if (delta === null && kind !== null) this.lastWholeByKind.set(kind, hash)
    return hash
  }

  /**
   * Writes a blob file (temp + rename, so a crash leaves none or a whole one). A failure names
   * the backup folder (it may be on another disk than the workspace): the caller says what it
   * refused because of it.
   */
  private writeLoose(hash: string, stored: Buffer): void {
    const target = this.pathOf(hash)
    const shard = dirname(target)
    // pid + counter: unique without asking the OS for random bytes per blob.
    const temp = `${target}.${process.pid}-${++tempCount}.tmp`
    try {
      if (!this.shards.has(shard)) {
        ensurePrivateDir(shard)
        this.shards.add(shard)
      }
      // 0600 whatever the backed-up file's mode was: that mode is kept in the records.
      try {
        writePrivateFileSync(temp, stored)
      } catch (error) {
        // A gc removed the shard folder once packing emptied it: make it again.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        ensurePrivateDir(shard)
        writePrivateFileSync(temp, stored)
      }
      renameSync(temp, target)
    } catch (error) {
      rmSync(temp, { force: true })
      throw new WriteFailedError(`a backup in ${this.dir}`, error)
    }
    this.renewedAt.set(hash, Date.now())
  }

  /**
   * The blob file for `content` as a delta from `candidate` (or its base), or null to store it
   * whole (no usable base, or too little in common). Using a base renews its mtime, so
   * retention sees it in use from now on.
   */
  private deltaFor(content: Buffer, candidate: string | null | undefined): Buffer | null {
    if (candidate === undefined || candidate === null || content.length > MAX_DELTA_BYTES) {
      return null
    }
    let base: string
    let cached: CachedBase
    try {
      // A delta is made from whole blobs only: from a delta's base when the hint is a delta.
      base = this.bases.has(candidate) ? candidate : (this.baseOf(candidate) ?? candidate)
      cached = this.wholeBase(base)
      if (cached.content.length > MAX_DELTA_BYTES) return null
      if (!this.holds(base)) return null
    } catch {
      // A hint is only a hint: a base pruned or damaged meanwhile means storing whole.
      return null
    }
    cached.index ??= new DeltaIndex(cached.content)
    const ops = encodeDelta(cached.index, content)
    if (ops === null) return null
    return Buffer.concat([
      DELTA_MAGIC,
      Buffer.from(base, 'hex'),
      deflateSync(ops, { level: COMPRESSION_LEVEL })
    ])
  }

  /**
   * Whether the blob is still there, giving it a fresh mtime: retention prunes by age, and an
   * old blob that a live session just started relying on must count as young. At most once an
   * hour per blob (the grace period is a day): a restore reuses a thousand blobs, the first
   * snapshot of a big workspace makes thousands of deltas from a few bases.
   */
  private renewed(hash: string): boolean {
    const now = Date.now()
    if (now - (this.renewedAt.get(hash) ?? 0) < RENEW_INTERVAL_MS) return true
    if (this.renewedAt.size >= MAX_RENEWALS_REMEMBERED) this.renewedAt.clear()
    const time = new Date(now)
    try {
      utimesSync(this.pathOf(hash), time, time)
    } catch (error) {
      // Pruned a moment ago: the caller stores it again (or makes no delta of it).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw error
    }
    this.renewedAt.set(hash, now)
    return true
  }

  /** The whole blob a delta blob was made from; null for a whole blob. Reads only the header. */
  baseOf(hash: string): string | null {
    const header = Buffer.alloc(DELTA_HEADER_BYTES)
    let fd: number
    try {
      fd = openSync(this.pathOf(hash), 'r')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      return deltaBaseIn(this.storedBytes(hash))
    }
    try {
      const n = readSync(fd, header, 0, header.length, 0)
      return deltaBaseIn(header.subarray(0, n))
    } finally {
      closeSync(fd)
    }
  }

  /** Whether the store has `hash`, which counts as using it again (see renewed). */
  holds(hash: string): boolean {
    if (existsSync(this.pathOf(hash)) && this.renewed(hash)) return true
    // A packed blob cannot be given a fresh mtime: it is used again as a loose copy, which the
    // next gc packs (and the older copy goes with its pack's next rewrite).
    const packed = this.packedBytes(hash)
    if (packed === null) return false
    this.writeLoose(hash, packed)
    return true
  }

  /** A packed blob, reloading the pack list when the packs folder changed since last read. */
  private findPacked(hash: string): PackedBlob | undefined {
    const found = this.packed?.get(hash)
    if (found !== undefined) return found
    const stamp = folderStamp(packsDir(this.dir))
    if (this.packed !== null && stamp === this.packsStamp) return undefined
    this.packsStamp = stamp
    this.packed = new Map()
    for (const file of listPacks(packsDir(this.dir))) {
      let blobs: PackedBlob[]
      try {
        blobs = readPackIndex(file)
      } catch (error) {
        // A damaged pack's blobs read as missing; it is kept for whoever can mend it.
        if (error instanceof PackDamagedError || (error as NodeJS.ErrnoException).code === 'ENOENT')
          continue
        throw error
      }
      for (const blob of blobs) if (!this.packed.has(blob.hash)) this.packed.set(blob.hash, blob)
    }
    return this.packed.get(hash)
  }

  /** The content of `hash` (shared: do not modify it); BlobMissingError when it is gone. */
  async get(hash: string): Promise<Buffer> {
    return this.read(hash)
  }

  /** get(), synchronously (restores read blobs in batches; see put()). */
  read(hash: string): Buffer {
    const recent = this.recent.get(hash)
    // Only while the store still has it: a pruned blob must read as missing here as elsewhere.
    if (recent !== undefined && this.isStored(hash)) return recent
    const content = this.decode(hash)
    this.remember(hash, content)
    return content
  }

  private decode(hash: string): Buffer {
    const packed = this.storedBytes(hash)
    const base = deltaBaseIn(packed)
    if (base === null) return inflate(hash, packed)
    const { content } = this.wholeBase(base)
    let rebuilt: Buffer
    try {
      rebuilt = applyDelta(content, inflateSync(packed.subarray(DELTA_HEADER_BYTES)))
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

  private storedBytes(hash: string): Buffer {
    try {
      return readFileSync(this.pathOf(hash))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const packed = this.packedBytes(hash)
    if (packed === null) throw new BlobMissingError(hash)
    return packed
  }

  /** The stored bytes of a packed blob, or null when no pack has it. */
  private packedBytes(hash: string): Buffer | null {
    for (let attempt = 0; attempt < 2; attempt++) {
      const packed = this.findPacked(hash)
      if (packed === undefined) return null
      try {
        return readPacked(packed)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        this.packed = null // a gc rewrote that pack: look again
      }
    }
    return null
  }

  /** A whole blob's content, through the cache of bases. */
  private wholeBase(hash: string): CachedBase {
    const hit = this.bases.get(hash)
    if (hit !== undefined) {
      this.bases.delete(hash)
      this.bases.set(hash, hit)
      return hit
    }
    const packed = this.storedBytes(hash)
    if (deltaBaseIn(packed) !== null) {
      throw new BlobDamagedError(hash, 'it is a delta, but a delta was made from it')
    }
    const entry: CachedBase = { content: inflate(hash, packed), index: null }
    this.bases.set(hash, entry)
    this.cachedBytes += entry.content.length
    for (const [old, { content }] of this.bases) {
      if (this.cachedBytes <= BASE_CACHE_BYTES || old === hash) break
      this.bases.delete(old)
      this.cachedBytes -= content.length
    }
    return entry
  }
}

/** Changes whenever a pack is added to or removed from `dir`. */
function folderStamp(dir: string): string {
  // No exception for a missing folder: this runs for every new blob, and throwing costs more
  // than the stat.
  const stats = statSync(dir, { bigint: true, throwIfNoEntry: false })
  return stats === undefined ? 'none' : `${stats.ino}:${stats.mtimeNs}`
}

function deltaBaseIn(packed: Buffer): string | null {
  if (packed.length < DELTA_HEADER_BYTES) return null
  if (!packed.subarray(0, DELTA_MAGIC.length).equals(DELTA_MAGIC)) return null
  return packed.subarray(DELTA_MAGIC.length, DELTA_HEADER_BYTES).toString('hex')
}

function inflate(hash: string, packed: Buffer): Buffer {
  try {
    return inflateSync(packed)
  } catch (error) {
    throw new BlobDamagedError(hash, (error as Error).message)
  }
}
