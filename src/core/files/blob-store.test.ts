import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { BlobDamagedError, BlobMissingError, BlobStore, sha256 } from './blob-store'

const store = () => new BlobStore(join(mkdtempSync(join(tmpdir(), 'rs-blobs-')), 'blobs'))
const source = (name: string, changed = 'return a + b') =>
  Buffer.from(
    Array.from(
      { length: 60 },
      (_, i) =>
        `export function ${name}${i}(a: number, b: number) { ${i === 30 ? changed : 'return a * b'} }`
    ).join('\n')
  )
const onDisk = (blobs: BlobStore, hash: string) => readFileSync(blobs.pathOf(hash)).length

describe('blob store', () => {
  it('stores a new version of a file as a small delta of the earlier one, and reads it back exactly', () => {
    const blobs = store()
    const v1 = blobs.put(source('f'), { path: 'src/a.ts' })
    const v2 = blobs.put(source('f', 'return a - b'), { previous: v1, path: 'src/a.ts' })
    expect(blobs.baseOf(v1)).toBeNull()
    expect(blobs.baseOf(v2)).toBe(v1)
    expect(onDisk(blobs, v2)).toBeLessThan(onDisk(blobs, v1) / 3)
    // A fresh store (another process) reads it from disk alone.
    const again = new BlobStore(blobs.dir)
    expect(again.read(v2).equals(source('f', 'return a - b'))).toBe(true)
    expect(again.read(v1).equals(source('f'))).toBe(true)
  })

  it('makes a delta of a delta from its whole base, so a read never follows a chain', () => {
    const blobs = store()
    const v1 = blobs.put(source('f'), { path: 'a.ts' })
    const v2 = blobs.put(source('f', 'return a - b'), { previous: v1, path: 'a.ts' })
    const v3 = blobs.put(source('f', 'return a / b'), { previous: v2, path: 'a.ts' })
    expect(blobs.baseOf(v3)).toBe(v1)
    expect(new BlobStore(blobs.dir).read(v3).equals(source('f', 'return a / b'))).toBe(true)
  })

  it('compares a new file with the last whole file of the same kind, and stores unrelated content whole', () => {
    const blobs = store()
    const first = blobs.put(source('alpha'), { path: 'src/alpha.ts' })
    const sibling = blobs.put(source('beta'), { path: 'src/beta.ts' })
    expect(blobs.baseOf(sibling)).toBe(first)
    const text = blobs.put(Buffer.from('Release notes\n'.repeat(3) + 'nothing like the code'), {
      path: 'NOTES.md'
    })
    expect(blobs.baseOf(text)).toBeNull()
    const unrelated = blobs.put(
      Buffer.from(
        Array.from({ length: 400 }, (_, i) => String.fromCharCode(33 + ((i * 37) % 90))).join('')
      ),
      { path: 'src/noise.ts' }
    )
    expect(blobs.baseOf(unrelated)).toBeNull()
  })

  it('stores whole when the hinted base is gone, and reads blobs written before deltas existed', () => {
    const blobs = store()
    const hash = blobs.put(source('f', 'return 0'), { previous: sha256(Buffer.from('pruned')) })
    expect(blobs.baseOf(hash)).toBeNull()
    const old = Buffer.from('a blob from an older store')
    const oldHash = sha256(old)
    mkdirSync(dirname(blobs.pathOf(oldHash)), { recursive: true })
    writeFileSync(blobs.pathOf(oldHash), deflateSync(old))
    expect(blobs.read(oldHash).equals(old)).toBe(true)
  })

  it('says a backup is damaged rather than returning the wrong bytes', () => {
    const blobs = store()
    const v1 = blobs.put(source('f'), { path: 'a.ts' })
    const v2 = blobs.put(source('f', 'return a - b'), { previous: v1, path: 'a.ts' })
    // The delta now names a different (whole) base: applying it would give other content.
    const other = blobs.put(source('g'))
    const packed = readFileSync(blobs.pathOf(v2))
    Buffer.from(other, 'hex').copy(packed, 4)
    writeFileSync(blobs.pathOf(v2), packed)
    expect(() => new BlobStore(blobs.dir).read(v2)).toThrow(BlobDamagedError)
    writeFileSync(blobs.pathOf(v1), 'not zlib')
    expect(() => new BlobStore(blobs.dir).read(v1)).toThrow(BlobDamagedError)
    expect(() => blobs.read(sha256(Buffer.from('never stored')))).toThrow(BlobMissingError)
  })

  it('serves recent contents from memory only while the blob is still stored', () => {
    const blobs = store()
    const hash = blobs.put(source('f'))
    expect(blobs.read(hash).equals(source('f'))).toBe(true)
    // Damage on disk does not reach a content already known by its hash...
    writeFileSync(blobs.pathOf(hash), 'not zlib')
    expect(blobs.read(hash).equals(source('f'))).toBe(true)
    // ...but a pruned blob is missing here as for every other reader.
    rmSync(blobs.pathOf(hash))
    expect(() => blobs.read(hash)).toThrow(BlobMissingError)
  })
})
