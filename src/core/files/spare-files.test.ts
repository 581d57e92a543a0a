import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BlobStore, sha256 } from './blob-store'
import { SPARE_NAME, SPARES_FOLDER, SpareFiles } from './spare-files'

const blobsDir = () => join(mkdtempSync(join(tmpdir(), 'rs-spares-')), 'blobs')
const umask = process.umask()
afterEach(() => {
  process.umask(umask)
})

describe('spare files', () => {
  it('are made ahead, private whatever the umask, handed out one each, refilled, and removed on close', async () => {
    process.umask(0)
    const dir = join(blobsDir(), SPARES_FOLDER)
    const spares = new SpareFiles(dir)
    expect(spares.take()).toBeNull()
    await spares.fill()
    const made = readdirSync(dir)
    expect(made.length).toBe(16)
    for (const name of made) {
      expect(name).toMatch(SPARE_NAME)
      const stats = statSync(join(dir, name))
      expect(stats.size).toBe(0)
      expect(stats.mode & 0o777).toBe(0o600)
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    const taken = new Set<string>()
    for (let i = 0; i < 9; i++) taken.add(spares.take() ?? '')
    expect(taken.size).toBe(9)
    await spares.fill()
    expect(readdirSync(dir).length).toBe(16 + 9)
    await spares.close()
    // Only the taken ones are left: their takers own them now.
    expect(
      readdirSync(dir)
        .map((name) => join(dir, name))
        .sort()
    ).toEqual([...taken].sort())
    expect(spares.take()).toBeNull()
  })

  it('a full disk (or any failure) leaves none, and takes fall back', async () => {
    const parent = blobsDir()
    const spares = new SpareFiles(join(parent, 'missing', '\0bad'))
    await spares.fill()
    expect(spares.take()).toBeNull()
  })
})

describe('a blob store keeping spare files', () => {
  it('writes loose blobs into them: private, byte-equal, no temp file made', async () => {
    const dir = blobsDir()
    const blobs = new BlobStore(dir)
    await blobs.keepSpareFiles()
    const spares = join(dir, SPARES_FOLDER)
    const content = Buffer.from('export const a = 1\n'.repeat(100))
    const hash = blobs.put(content, { path: 'src/a.ts' })
    expect(readdirSync(spares).length).toBe(15)
    const fresh = new BlobStore(dir)
    expect(fresh.read(hash).equals(content)).toBe(true)
    expect(statSync(blobs.pathOf(hash)).mode & 0o777).toBe(0o600)
    expect(readdirSync(join(dir, hash.slice(0, 2)))).toEqual([hash])
    await blobs.close()
    expect(readdirSync(spares)).toEqual([])
  })

  it('a spare removed under it (a gc) costs nothing: the blob is written as a file of its own', async () => {
    const dir = blobsDir()
    const blobs = new BlobStore(dir)
    await blobs.keepSpareFiles()
    rmSync(join(dir, SPARES_FOLDER), { recursive: true })
    const contents = Array.from({ length: 20 }, (_, i) => Buffer.from(`version ${i}\n`.repeat(30)))
    const hashes = contents.map((content) => blobs.put(content))
    expect(hashes).toEqual(contents.map(sha256))
    const fresh = new BlobStore(dir)
    for (const [i, hash] of hashes.entries())
      expect(fresh.read(hash).equals(contents[i] ?? Buffer.alloc(0))).toBe(true)
    await blobs.close()
    expect(existsSync(join(dir, SPARES_FOLDER))).toBe(true)
  })
})
