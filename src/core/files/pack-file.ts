// Pack files: many blobs in one file, so a workspace's thousands of small backups do not each
// take a disk block. Retention writes them (retention.ts) from blobs no session used lately;
// the blob store reads from them when a blob is not loose (blob-store.ts).
//
// Layout: "RSPK" 0x01 0 0 0 | each blob's stored bytes, back to back | the index: per blob its
// hash (32 bytes), offset (u64), length (u32) and last use (f64, ms) | trailer: index offset
// (u64), count (u32), "RSPK". Written to a temp file, fsync'd and renamed: a pack is whole or
// absent, and never changes after.
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  fstatSync,
  fsyncSync,
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
const HEADER = Buffer.concat([MAGIC, Buffer.from([1, 0, 0, 0])])
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

export class PackDamagedError extends Error {
  override name = 'PackDamagedError'
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

/** Writes one pack of `blobs` (stored bytes and last use) and returns its path. */
export function writePack(
  dir: string,
  blobs: readonly { hash: string; bytes: Buffer; usedMs: number }[]
): string {
  ensurePrivateDir(dir)
  const file = join(dir, `${randomBytes(8).toString('hex')}.pack`)
  const temp = `${file}.tmp`
  const index = Buffer.alloc(blobs.length * INDEX_ENTRY_BYTES)
  const fd = openPrivateFileSync(temp, 'wx')
  try {
    writeAllSync(fd, HEADER)
    let offset = HEADER.length
    for (const [i, blob] of blobs.entries()) {
      const at = i * INDEX_ENTRY_BYTES
      Buffer.from(blob.hash, 'hex').copy(index, at)
      index.writeBigUInt64LE(BigInt(offset), at + 32)
      index.writeUInt32LE(blob.bytes.length, at + 40)
      index.writeDoubleLE(blob.usedMs, at + 44)
      writeAllSync(fd, blob.bytes)
      offset += blob.bytes.length
    }
    const trailer = Buffer.alloc(TRAILER_BYTES)
    trailer.writeBigUInt64LE(BigInt(offset), 0)
    trailer.writeUInt32LE(blobs.length, 8)
    MAGIC.copy(trailer, 12)
    writeAllSync(fd, index)
    writeAllSync(fd, trailer)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    rmSync(temp, { force: true })
    throw error
  }
  closeSync(fd)
  renameSync(temp, file)
  return file
}

/** The blobs a pack holds. PackDamagedError when its index cannot be trusted. */
export function readPackIndex(file: string): PackedBlob[] {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    if (size < HEADER.length + TRAILER_BYTES) throw new PackDamagedError(`${file} is too short`)
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
      if (offset < HEADER.length || offset + length > indexAt) {
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

/** The stored bytes of one packed blob. */
export function readPacked(blob: PackedBlob): Buffer {
  const fd = openSync(blob.file, 'r')
  try {
    return readAt(fd, blob.offset, blob.length)
  } finally {
    closeSync(fd)
  }
}

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
