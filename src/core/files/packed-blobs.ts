// The blob store's packed blobs (blob-store.ts): the pack files (pack-file.ts) gc and big batches
// write, known by their indexes, read again only when the packs folder changed (a pack is never
// changed, only added or removed). A packed blob cannot be given a fresh mtime: one packed, or
// copied into a batch, within the hour counts as young as it is.
import { statSync } from 'node:fs'
import {
  type PackedBlob,
  listPacks,
  PackDamagedError,
  PackIndex,
  packsDir,
  PackReader,
  PackSet
} from './pack-file'
import { MAX_REMEMBERED, RENEW_INTERVAL_MS } from './loose-blobs'

export class PackedBlobs {
  /** Blobs in pack files by hash; null until first needed. */
  private packed: PackSet | null = null
  /** The pack files `packed` was given. */
  private readonly packFiles = new Set<string>()
  private packsStamp = ''
  private packsCheckedAt = 0
  private readonly packReader = new PackReader()
  /** Packed blobs the store copied into a batch (renewed: see BlobStore.heldIn), and when. */
  private readonly copiedAt = new Map<string, number>()

  constructor(private readonly dir: string) {}

  /** Whether a pack already read holds `hash` (no look at the folder). */
  has(hash: string): boolean {
    return this.packed?.has(hash) === true
  }

  /** The packed blob `hash` among the packs already read (no look at the folder). */
  known(hash: string): PackedBlob | undefined {
    return this.packed?.get(hash)
  }

  /** The packs folder changed (a batch wrote a pack): the next lookup reads it again. */
  changed(): void {
    this.packsCheckedAt = 0
  }

  /** `hash` was copied into a batch at `now`: young from then on, as a new pack's blob. */
  copied(hash: string, now: number): void {
    if (this.copiedAt.size >= MAX_REMEMBERED) this.copiedAt.clear()
    this.copiedAt.set(hash, now)
  }

  /** Packed, or copied into a batch, within the hour: young enough as it is. */
  recently(hash: string, packed: PackedBlob, now: number): boolean {
    return now - Math.max(packed.usedMs, this.copiedAt.get(hash) ?? 0) < RENEW_INTERVAL_MS
  }

  /**
   * A packed blob, reloading the pack list when the packs folder changed since last read.
   * `staleMs`: a folder looked at that recently is not looked at again (see heldIn).
   */
  find(hash: string, staleMs = 0): PackedBlob | undefined {
    const found = this.packed?.get(hash)
    if (found !== undefined) return found
    const now = Date.now()
    if (this.packed !== null && now - this.packsCheckedAt < staleMs) return undefined
    this.packsCheckedAt = now
    const stamp = folderStamp(packsDir(this.dir))
    if (this.packed !== null && stamp === this.packsStamp) return undefined
    this.packsStamp = stamp
    // Only the new packs' indexes are read (a workspace's first checkpoint packs 20,000 blobs,
    // and each command that changes many files adds a pack); all again when one went (a gc).
    const files = listPacks(packsDir(this.dir))
    const present = new Set(files)
    if (this.packed === null || [...this.packFiles].some((file) => !present.has(file))) {
      this.forget()
      this.packed = new PackSet()
    }
    const packed = this.packed
    for (const file of files) {
      if (this.packFiles.has(file)) continue
      this.packFiles.add(file)
      try {
        // The index as read, searched in place: no object per entry (pack-file.ts).
        packed.add(PackIndex.read(file))
      } catch (error) {
        // A damaged pack's blobs read as missing; it is kept for whoever can mend it.
        if (error instanceof PackDamagedError || (error as NodeJS.ErrnoException).code === 'ENOENT')
          continue
        throw error
      }
    }
    return packed.get(hash)
  }

  /** The stored bytes of a packed blob, or null when no pack has it. */
  bytes(hash: string, length?: number): Buffer | null {
    for (let attempt = 0; attempt < 2; attempt++) {
      const packed = this.find(hash)
      if (packed === undefined) return null
      const bytes = this.readCopy(packed, length)
      if (bytes !== null) return bytes
    }
    return null
  }

  /** null when its pack is gone (a gc rewrote it): the pack list is read again next time. */
  readCopy(packed: PackedBlob, length?: number): Buffer | null {
    try {
      return this.packReader.read(packed, length)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      this.forget()
      return null
    }
  }

  private forget(): void {
    this.packed = null
    this.packFiles.clear()
    this.packReader.close()
  }
}

/** Changes whenever a pack is added to or removed from `dir`. */
function folderStamp(dir: string): string {
  // No exception for a missing folder: this runs for every new blob, and throwing costs more
  // than the stat.
  const stats = statSync(dir, { bigint: true, throwIfNoEntry: false })
  return stats === undefined ? 'none' : `${stats.ino}:${stats.mtimeNs}`
}
