// The blob store's loose blobs (blob-store.ts): a file per blob, <dir>/<first two hex>/<hash>,
// written into a spare file made ahead (spare-files.ts) or a new temp file, synced, then renamed,
// so a crash leaves none or a whole one. A loose blob's mtime says when it was last used
// (renewed): retention prunes by age, so one a live session relies on again counts as young.
import {
  type Dirent,
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  utimesSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import { yieldToEventLoop } from '../os/event-loop'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { WriteFailedError } from '../os/write-failure'
import { writeAllSync } from '../os/write-all'
import { SPARES_FOLDER, SpareFiles } from './spare-files'

export const HASH = /^[0-9a-f]{64}$/
/** A shard folder's name: the first two hex digits of its blobs' hashes. */
const SHARD = /^[0-9a-f]{2}$/
/** A blob used again within this long is young enough as it is: not renewed again. */
export const RENEW_INTERVAL_MS = 3_600_000
/** Entries a per-blob memory holds before it starts over. */
export const MAX_REMEMBERED = 200_000

let tempCount = 0

export class LooseBlobs {
  /** Shard folders known to exist, so a put costs no mkdir. */
  private readonly shards = new Set<string>()
  /** When each blob was last written or given a fresh mtime (see renewed). */
  private readonly renewedAt = new Map<string, number>()
  /** Files made ahead for loose blobs (spare-files.ts), for a store that lives through turns. */
  private spares: SpareFiles | null = null
  private closed = false

  constructor(private readonly dir: string) {}

  /** Keeps spare files ready for this store's loose blobs from now on, until close(). */
  keepSpareFiles(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.spares ??= new SpareFiles(join(this.dir, SPARES_FOLDER))
    return this.spares.fill()
  }

  /**
   * Removes the spare files not used, and makes no more (the store stays usable, making its
   * files as it goes).
   */
  async close(): Promise<void> {
    this.closed = true
    const spares = this.spares
    this.spares = null
    await spares?.close()
  }

  pathOf(hash: string): string {
    // A hash comes from session records; a malformed one must not become a path.
    if (!HASH.test(hash)) throw new Error(`Not a sha256 hash: ${JSON.stringify(hash)}`)
    return join(this.dir, hash.slice(0, 2), hash)
  }

  /**
   * Makes the shard folders not made yet (all 256: ~1 MB of folders, what a long session makes
   * anyway), a few at a time between yields. A new folder costs ~0.1–1 ms on a busy ext4, which
   * a turn would otherwise pay on most of its backups until most shards exist (~80% of the first
   * hundred blobs land in a new one). A failure (a full disk) stops it quietly: writeLoose makes
   * a missing folder as it always did. Those there already are learnt from one readdir: a mkdir
   * and a stat each delayed a chat on a store made before by 25 ms (bench/summarize-process.ts).
   */
  async makeShardFolders(): Promise<void> {
    this.noteShardFoldersThere()
    for (let shard = 0; shard < 256; shard++) {
      const dir = join(this.dir, shard.toString(16).padStart(2, '0'))
      if (this.shards.has(dir)) continue
      try {
        ensurePrivateDir(dir)
      } catch {
        return
      }
      this.shards.add(dir)
      // The host's other work (IPC, a prompt being typed) goes on meanwhile.
      if (shard % 16 === 15) await yieldToEventLoop()
    }
  }

  /** Adds the shard folders already there to those known (none when the store has no folder). */
  private noteShardFoldersThere(): void {
    let entries: Dirent[]
    try {
      entries = readdirSync(this.dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (entry.isDirectory() && SHARD.test(entry.name)) this.shards.add(join(this.dir, entry.name))
    }
  }

  /** Whether `hash` is stored as a loose file (nothing renewed). */
  has(hash: string): boolean {
    return existsSync(this.pathOf(hash))
  }

  /** Whether `hash` is stored as a loose file, which counts as using it again (renewed). */
  holds(hash: string): boolean {
    return existsSync(this.pathOf(hash)) && this.renewed(hash)
  }

  /** A loose blob's stored bytes (the first `length` when given), or null when there is none. */
  read(hash: string, length?: number): Buffer | null {
    return readLoose(this.pathOf(hash), length)
  }

  /**
   * Writes a blob file (into a spare or a new temp file, synced, then renamed: a crash leaves none
   * or a whole one). A failure names the backup folder (it may be on another disk than the
   * workspace): the caller says what it refused because of it.
   */
  write(hash: string, stored: Buffer): void {
    const target = this.pathOf(hash)
    const shard = dirname(target)
    try {
      if (!this.shards.has(shard)) {
        ensurePrivateDir(shard)
        this.shards.add(shard)
      }
    } catch (error) {
      throw new WriteFailedError(`a backup in ${this.dir}`, error)
    }
    const spare = this.spares?.take() ?? null
    if (spare === null || !writeInto(spare, target, stored)) this.writeNewFile(target, stored)
    this.renewedAt.set(hash, Date.now())
  }

  private writeNewFile(target: string, stored: Buffer): void {
    const shard = dirname(target)
    // pid + counter: unique without asking the OS for random bytes per blob.
    const temp = `${target}.${process.pid}-${++tempCount}.tmp`
    try {
      // 0600 whatever the backed-up file's mode was: that mode is kept in the records.
      try {
        writePrivateFileSync(temp, stored, { durable: true })
      } catch (error) {
        // A gc removed the shard folder once packing emptied it: make it again.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        ensurePrivateDir(shard)
        writePrivateFileSync(temp, stored, { durable: true })
      }
      renameSync(temp, target)
    } catch (error) {
      rmSync(temp, { force: true })
      throw new WriteFailedError(`a backup in ${this.dir}`, error)
    }
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
    if (this.renewedAt.size >= MAX_REMEMBERED) this.renewedAt.clear()
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
}

/**
 * Writes `bytes` into `spare` and renames it to `target`. False, the spare removed, when the spare
 * is gone (a gc removed it) or cannot be written: the caller then makes a file of its own, which
 * says what went wrong if that fails too.
 */
function writeInto(spare: string, target: string, bytes: Buffer): boolean {
  try {
    const fd = openSync(spare, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW)
    try {
      writeAllSync(fd, bytes)
      fdatasyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(spare, target)
    return true
  } catch {
    rmSync(spare, { force: true })
    return false
  }
}

/** A loose blob's stored bytes (the first `length` when given), or null when there is none. */
function readLoose(file: string, length?: number): Buffer | null {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  try {
    if (length === undefined) return readFileSync(fd)
    const buffer = Buffer.alloc(length)
    return buffer.subarray(0, readSync(fd, buffer, 0, length, 0))
  } finally {
    closeSync(fd)
  }
}
