// A batch of the blob store's puts (blob-store.ts openBatch), written together when it commits:
// a few blobs go loose, more go into one pack being written as they come (pack-file.ts), so a
// restore's thousand backups or a command's thousand new versions make one file, not one each.
// Until the commit nothing else sees its blobs; an abort leaves no trace.
import { WriteFailedError } from '../os/write-failure'
import { PackWriter, packsDir } from './pack-file'

/**
 * A batch keeps this many blobs in memory; with more it writes them all into a pack, else loose:
 * a command that changed a few files adds a few loose blobs, a first checkpoint one pack.
 */
const MIN_BATCH_PACKED = 64

/**
 * A blob's stored bytes: whole, or in pieces written back to back (a raw blob is its header and
 * the content as read: no copy of the content to put them together).
 */
export type Stored = Buffer | readonly Buffer[]

export function joined(stored: Stored): Buffer {
  return Buffer.isBuffer(stored) ? stored : Buffer.concat(stored)
}

/**
 * The blobs of one batch: the first few in memory, then (with more) all of them in a pack
 * being written. Commit writes the few loose, or finishes the pack.
 */
export class PendingBatch {
  private readonly held = new Map<string, Stored>()
  private pack: PackWriter | null = null
  /** Whether a blob was added raw: its pack is then marked unsettled, for gc. */
  private holdsRaw = false

  constructor(private readonly dir: string) {}

  has(hash: string): boolean {
    return this.held.has(hash) || this.pack?.has(hash) === true
  }

  read(hash: string): Buffer | null {
    const held = this.held.get(hash)
    return held === undefined ? (this.pack?.read(hash) ?? null) : joined(held)
  }

  add(hash: string, bytes: Stored, raw: boolean): void {
    if (raw) this.holdsRaw = true
    if (this.pack === null && this.held.size < MIN_BATCH_PACKED) {
      this.held.set(hash, bytes)
      return
    }
    if (this.pack === null) {
      this.pack = new PackWriter(packsDir(this.dir))
      for (const [h, b] of this.held) this.pack.add(h, b, Date.now())
      this.held.clear()
    }
    this.pack.add(hash, bytes, Date.now())
  }

  commit(writeLoose: (hash: string, bytes: Buffer) => void): void {
    if (this.pack !== null) {
      try {
        if (this.holdsRaw) this.pack.markUnsettled()
        this.pack.finish()
      } catch (error) {
        throw new WriteFailedError(`a backup in ${this.dir}`, error)
      }
    }
    for (const [hash, bytes] of this.held) writeLoose(hash, joined(bytes))
    this.held.clear()
  }

  abort(): void {
    this.pack?.abort()
    this.held.clear()
  }
}
