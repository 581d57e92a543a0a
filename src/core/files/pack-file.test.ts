import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  listPacks,
  PackDamagedError,
  PackIndex,
  readPackIndex,
  readPacked,
  writePack
} from './pack-file'

const blob = (i: number) => ({
  hash: i.toString(16).padStart(64, '0'),
  bytes: Buffer.from(`stored bytes of blob ${i}`.repeat(i + 1)),
  usedMs: 1_700_000_000_000 + i
})

describe('pack files', () => {
  it('give back each blob and when it was last used', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-pack-'))
    const blobs = Array.from({ length: 20 }, (_, i) => blob(i))
    const file = writePack(dir, blobs)
    expect(listPacks(dir)).toEqual([file])
    const index = readPackIndex(file)
    expect(index.map((e) => [e.hash, e.usedMs])).toEqual(blobs.map((b) => [b.hash, b.usedMs]))
    for (const [i, entry] of index.entries()) {
      expect(readPacked(entry).equals(blobs[i]?.bytes ?? Buffer.alloc(0))).toBe(true)
    }
  })

  it('refuse an index that does not fit the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-pack-'))
    const file = writePack(dir, [blob(1), blob(2)])
    const whole = readFileSync(file)
    writeFileSync(file, whole.subarray(0, whole.length - 5))
    expect(() => readPackIndex(file)).toThrow(PackDamagedError)
    const shifted = Buffer.from(whole)
    shifted.writeUInt32LE(3, whole.length - 8) // one more entry than there is room for
    writeFileSync(file, shifted)
    expect(() => readPackIndex(file)).toThrow(PackDamagedError)
  })

  it('are found by hash through the raw index, whatever order the blobs were added in', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-pack-'))
    // Hashes out of order, as a batch adds them (the order files are met in).
    const blobs = Array.from({ length: 300 }, (_, i) => blob((i * 7919) % 1000))
    const file = writePack(dir, blobs)
    const index = PackIndex.read(file)
    expect(index.count).toBe(300)
    for (const b of blobs) {
      const found = index.find(b.hash)
      expect(found?.usedMs).toBe(b.usedMs)
      expect(found === undefined ? null : readPacked(found).equals(b.bytes)).toBe(true)
    }
    expect(index.find(blob(1001).hash)).toBeUndefined()
    expect(index.find('not a hash')).toBeUndefined()
    const hashes = readPackIndex(file).map((e) => e.hash)
    expect(hashes).toEqual([...hashes].sort())
  })

  it('find the blobs of a pack written before indexes were sorted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-pack-'))
    const blobs = [5, 3, 9, 1, 7].map(blob)
    // The layout as older versions wrote it: header byte 6 zero, the index in the order added.
    const header = Buffer.from([...Buffer.from('RSPK', 'latin1'), 1, 0, 0, 0])
    let offset = header.length
    const entries = blobs.map((b) => {
      const entry = Buffer.alloc(52)
      Buffer.from(b.hash, 'hex').copy(entry, 0)
      entry.writeBigUInt64LE(BigInt(offset), 32)
      entry.writeUInt32LE(b.bytes.length, 40)
      entry.writeDoubleLE(b.usedMs, 44)
      offset += b.bytes.length
      return entry
    })
    const trailer = Buffer.alloc(16)
    trailer.writeBigUInt64LE(BigInt(offset), 0)
    trailer.writeUInt32LE(blobs.length, 8)
    Buffer.from('RSPK', 'latin1').copy(trailer, 12)
    const file = join(dir, '0123456789abcdef.pack')
    writeFileSync(file, Buffer.concat([header, ...blobs.map((b) => b.bytes), ...entries, trailer]))
    const index = PackIndex.read(file)
    for (const b of blobs) {
      const found = index.find(b.hash)
      expect(found === undefined ? null : readPacked(found).equals(b.bytes)).toBe(true)
    }
    expect(index.find(blob(4).hash)).toBeUndefined()
    expect(readPackIndex(file).map((e) => e.hash)).toEqual(blobs.map((b) => b.hash))
  })
})
