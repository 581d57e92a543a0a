// Pack files: many blobs in one file, so a workspace's thousands of small backups do not each
// take a disk block. Retention writes them (retention.ts) from blobs no session used lately;
// the blob store reads from them when a blob is not loose (blob-store.ts).
//
// Layout: "RSPK" 0x01 flags 0 0 | each blob's stored bytes, back to back | the index: per blob its
// hash (32 bytes), offset (u64), length (u32) and last use (f64, ms) | trailer: index offset
// (u64), count (u32), "RSPK". Flags: 1 = "unsettled", written by a batch that stored new versions
// raw (blob-store.ts): gc rewrites such a pack with those blobs settled. Written to a temp file and renamed (fsync'd first when other
// copies of its blobs are to be deleted): a pack is whole or absent, and never changes after.
import { CodedError } from '../../shared/coded-error'
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  fstatSync,
  fdatasyncSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync
} from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir, openPrivateFileSync } from '../os/private-files'
import { writeAllSync } from '../os/write-all'

const MAGIC = Buffer.from('RSPK', 'latin1')
const HEADER_BYTES = 8
const FLAGS_AT = 5
const UNSETTLED = 1
const INDEX_ENTRY_BYTES = 32 + 8 + 4 + 8
const TRAILER_BYTES = 8 + 4 + 4

export interface PackedBlob {
  hash: string
  /** The pack file holding it. */
  file: string
  offset: number
  length: number
  /** When a session last used it (the loose blob's mtime when it was packed). */
  usedMs: number
}

export class PackDamagedError extends CodedError {
  override name = 'PackDamagedError'
  constructor(message: string) {
    super('unavailable', message)
  }
}

export function packsDir(blobsDir: string): string {
  return join(blobsDir, 'packs')
}

/** The pack files in `dir` (none when it does not exist). */
export function listPacks(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => /^[0-9a-f]{16}\.pack$/.test(name))
      .map((name) => join(dir, name))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/** A pack's temp file while it is written (a crash mid-batch leaves one: retention removes it). */
export const PACK_TEMP_NAME = /^[0-9a-f]{16}\.pack\.tmp$/

/**
 * A pack being written, blob by blob, to a temp file beside where it will be: readable from here
 * meanwhile (read), visible to every store only once finish() renames it into place.
 */
export class PackWriter {
  readonly file: string
  private readonly temp: string
  private fd: number | null
  private offset = HEADER_BYTES
  /** Blobs added but not yet written, from `unwrittenAt` on: written together (see add). */
  private unwritten: Buffer[] = []
  private unwrittenAt = HEADER_BYTES
  private readonly entries: { hash: string; offset: number; length: number; usedMs: number }[] = []
  private readonly byHash = new Map<string, { offset: number; length: number }>()

  /** Set by markUnsettled: it holds raw blobs for gc to settle (see the module header). */
  private unsettled = false

  constructor(dir: string) {
    ensurePrivateDir(dir)
    this.file = join(dir, `${randomBytes(8).toString('hex')}.pack`)
    this.temp = `${this.file}.tmp`
    this.fd = openPrivateFileSync(this.temp, 'wx')
    try {
      writeAllSync(this.fd, Buffer.concat([MAGIC, Buffer.from([1, 0, 0, 0])]))
    } catch (error) {
      this.abort()
      throw error
    }
  }

  get count(): number {
    return this.entries.length
  }

  has(hash: string): boolean {
    return this.byHash.has(hash)
  }

  markUnsettled(): void {
    this.unsettled = true
  }

  /** Adds a blob (its stored bytes, or their pieces in order); written with the next ones (a write per ~1 MB, not per blob) or when read. */
  add(hash: string, bytes: Buffer | readonly Buffer[], usedMs: number): void {
    if (this.byHash.has(hash)) return
    this.openFd()
    const pieces = Buffer.isBuffer(bytes) ? [bytes] : bytes
    let length = 0
    for (const piece of pieces) {
      this.unwritten.push(piece)
      length += piece.length
    }
    if (this.offset + length - this.unwrittenAt >= WRITE_CHUNK_BYTES) this.writeOut()
    const entry = { hash, offset: this.offset, length, usedMs }
    this.entries.push(entry)
    this.byHash.set(hash, entry)
    this.offset += length
  }

  /** The stored bytes of a blob added here, or null. */
  read(hash: string): Buffer | null {
    const entry = this.byHash.get(hash)
    if (entry === undefined) return null
    if (entry.offset >= this.unwrittenAt) this.writeOut()
    return readAt(this.openFd(), entry.offset, entry.length)
  }

  private writeOut(): void {
    if (this.unwritten.length === 0) return
    const bytes = Buffer.concat(this.unwritten)
    writeAllSync(this.openFd(), bytes, this.unwrittenAt)
    this.unwritten = []
    this.unwrittenAt += bytes.length
  }

  /**
   * Writes the index and trailer, makes them and the blobs durable (fdatasync: a record, a
   * journal or a gc about to delete other copies relies on them once this returns) and renames
   * the pack into place; returns its path.
   */
  finish(): string {
    const fd = this.openFd()
    try {
      this.writeOut()
      if (this.unsettled) writeAllSync(fd, Buffer.from([UNSETTLED]), FLAGS_AT)
      const index = Buffer.alloc(this.entries.length * INDEX_ENTRY_BYTES)
      for (const [i, entry] of this.entries.entries()) {
        const at = i * INDEX_ENTRY_BYTES
        Buffer.from(entry.hash, 'hex').copy(index, at)
        index.writeBigUInt64LE(BigInt(entry.offset), at + 32)
        index.writeUInt32LE(entry.length, at + 40)
        index.writeDoubleLE(entry.usedMs, at + 44)
      }
      const trailer = Buffer.alloc(TRAILER_BYTES)
      trailer.writeBigUInt64LE(BigInt(this.offset), 0)
      trailer.writeUInt32LE(this.entries.length, 8)
      MAGIC.copy(trailer, 12)
      writeAllSync(fd, Buffer.concat([index, trailer]), this.offset)
      fdatasyncSync(fd)
      closeSync(fd)
      this.fd = null
      renameSync(this.temp, this.file)
    } catch (error) {
      this.abort()
      throw error
    }
    return this.file
  }

  /** Drops the pack: nothing of it becomes visible. */
  abort(): void {
    if (this.fd !== null) closeSync(this.fd)
    this.fd = null
    rmSync(this.temp, { force: true })
  }

  private openFd(): number {
    if (this.fd === null) throw new Error(`the pack ${this.file} is finished or dropped`)
    return this.fd
  }
}

/** Writes one pack of `blobs` (stored bytes and last use), durably, and returns its path. */
export function writePack(
  dir: string,
  blobs: readonly { hash: string; bytes: Buffer; usedMs: number }[]
): string {
  const pack = new PackWriter(dir)
  try {
    for (const blob of blobs) pack.add(blob.hash, blob.bytes, blob.usedMs)
  } catch (error) {
    pack.abort()
    throw error
  }
  return pack.finish()
}

/** The blobs a pack holds. PackDamagedError when its index cannot be trusted. */
export function readPackIndex(file: string): PackedBlob[] {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    if (size < HEADER_BYTES + TRAILER_BYTES) throw new PackDamagedError(`${file} is too short`)
    const trailer = readAt(fd, size - TRAILER_BYTES, TRAILER_BYTES)
    if (!trailer.subarray(12).equals(MAGIC)) throw new PackDamagedError(`${file} has no trailer`)
    const indexAt = Number(trailer.readBigUInt64LE(0))
    const count = trailer.readUInt32LE(8)
    if (indexAt + count * INDEX_ENTRY_BYTES !== size - TRAILER_BYTES) {
      throw new PackDamagedError(`${file}: its index does not fit the file`)
    }
    const index = readAt(fd, indexAt, count * INDEX_ENTRY_BYTES)
    return Array.from({ length: count }, (_, i) => {
      const at = i * INDEX_ENTRY_BYTES
      const offset = Number(index.readBigUInt64LE(at + 32))
      const length = index.readUInt32LE(at + 40)
      if (offset < HEADER_BYTES || offset + length > indexAt) {
        throw new PackDamagedError(`${file}: entry ${i} lies outside the pack`)
      }
      return {
        hash: index.subarray(at, at + 32).toString('hex'),
        file,
        offset,
        length,
        usedMs: index.readDoubleLE(at + 44)
      }
    })
  } finally {
    closeSync(fd)
  }
}

/** Whether a pack was written unsettled (see the module header); false for a damaged one. */
export function isUnsettledPack(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const header = Buffer.alloc(HEADER_BYTES)
    const read = readSync(fd, header, 0, HEADER_BYTES, 0)
    return (
      read === HEADER_BYTES &&
      header.subarray(0, 4).equals(MAGIC) &&
      (header[FLAGS_AT] ?? 0) === UNSETTLED
    )
  } finally {
    closeSync(fd)
  }
}

/** The stored bytes of one packed blob (its first `length` bytes when given). */
export function readPacked(blob: PackedBlob, length = blob.length): Buffer {
  const fd = openSync(blob.file, 'r')
  try {
    return readAt(fd, blob.offset, Math.min(length, blob.length))
  } finally {
    closeSync(fd)
  }
}

/**
 * readPacked through a few descriptors kept open: a command that changed a thousand files reads
 * a thousand earlier versions from the same pack. A pack a gc replaced meanwhile still reads
 * through its open descriptor (packs never change; a removed one stays readable until closed).
 */
export class PackReader {
  private readonly open = new Map<string, number>()

  read(blob: PackedBlob, length = blob.length): Buffer {
    let fd = this.open.get(blob.file)
    if (fd === undefined) {
      fd = openSync(blob.file, 'r')
      this.open.set(blob.file, fd)
      for (const [file, old] of this.open) {
        if (this.open.size <= MAX_OPEN_PACKS) break
        closeSync(old)
        this.open.delete(file)
      }
    }
    return readAt(fd, blob.offset, Math.min(length, blob.length))
  }

  /** Closes every descriptor (a gc removed or replaced packs: they are opened afresh). */
  close(): void {
    for (const fd of this.open.values()) closeSync(fd)
    this.open.clear()
  }
}

const MAX_OPEN_PACKS = 4
/** A pack being written writes its blobs in pieces of about this size. */
const WRITE_CHUNK_BYTES = 1 << 20

function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.alloc(length)
  let done = 0
  while (done < length) {
    const n = readSync(fd, out, done, length - done, position + done)
    if (n === 0) throw new PackDamagedError('a pack ends early')
    done += n
  }
  return out
}
