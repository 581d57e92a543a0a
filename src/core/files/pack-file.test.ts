import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listPacks, PackDamagedError, readPackIndex, readPacked, writePack } from './pack-file'

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
})
