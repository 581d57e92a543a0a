import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  BlobDamagedError,
  BlobMissingError,
  BlobStore,
  CHAIN_KEYS,
  CHAIN_STEPS,
  sha256
} from './blob-store'

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
  it('makes the shard folders not there, keeps those there as they are, and takes no file for one', async () => {
    const blobs = store()
    const kept = blobs.put(source('kept'))
    const keptShard = dirname(blobs.pathOf(kept))
    // A file where another shard folder goes (a hand's or another version's): not a folder.
    const other = blobs.pathOf(sha256(Buffer.from('other\n')))
    const fileShard = dirname(other)
    if (fileShard === keptShard) throw new Error('the two hashes share a shard: pick another')
    writeFileSync(fileShard, '')
    await blobs.makeShardFolders()
    expect(blobs.read(kept).equals(source('kept'))).toBe(true)
    expect(statSync(fileShard).isFile()).toBe(true)
    // The file stopped the making quietly: a blob bound for it is refused with the store named.
    expect(() => blobs.put(Buffer.from('other\n'))).toThrow(/backup/i)
    rmSync(fileShard)
    await blobs.makeShardFolders()
    const shards = readdirSync(dirname(keptShard)).filter((name) => /^[0-9a-f]{2}$/.test(name))
    expect(shards).toHaveLength(256)
    expect(blobs.read(blobs.put(Buffer.from('other\n'))).toString()).toBe('other\n')
  })

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

  it('chains versions as deltas of deltas, bounded in depth, re-based from the whole blob when full', () => {
    const blobs = store()
    // A long file edited in one line per version, the edits adding up (in its first 40 lines,
    // so a key made from the whole blob again still pays).
    const lines = Array.from({ length: 400 }, (_, i) => `const line${i} = ${i} // some code here`)
    const versions: string[] = []
    const sizes: number[] = []
    let previous: string | null = null
    const total = CHAIN_KEYS * CHAIN_STEPS + 40
    for (let v = 0; v < total; v++) {
      lines[(v * 37) % 40] = `const line${(v * 37) % 40} = ${v} // edited`
      const hash: string = blobs.put(Buffer.from(lines.join('\n')), { previous, path: 'a.ts' })
      versions.push(hash)
      sizes.push(onDisk(blobs, hash))
      previous = hash
    }
    const depthOf = (hash: string) => {
      let depth = 0
      for (let h = blobs.baseOf(hash); h !== null; h = blobs.baseOf(h)) depth++
      return depth
    }
    const depths = versions.map(depthOf)
    expect(depths[0]).toBe(0)
    expect(Math.max(...depths)).toBe(CHAIN_KEYS + CHAIN_STEPS - 1)
    // Once keys went as deep as they go, a key is made from the whole blob again.
    // (The first key is made from it too, CHAIN_STEPS versions in.)
    expect(blobs.baseOf(versions[CHAIN_STEPS] ?? '')).toBe(versions[0])
    const rebased = versions.findIndex((v, i) => i > CHAIN_STEPS && blobs.baseOf(v) === versions[0])
    expect(rebased).toBe((CHAIN_KEYS + 1) * CHAIN_STEPS)
    expect(depths[rebased + 1]).toBe(2)
    // Each version costs about its edit, not every edit since the whole blob: the last hundred
    // cost about what the first hundred did (one re-based key among them).
    const cost = (from: number, to: number) => sizes.slice(from, to).reduce((a, b) => a + b, 0)
    expect(cost(total - 100, total)).toBeLessThan(2 * cost(1, 101))
    // A fresh store (another process) reads every version exactly.
    const fresh = new BlobStore(blobs.dir)
    lines.splice(
      0,
      lines.length,
      ...Array.from({ length: 400 }, (_, i) => `const line${i} = ${i} // some code here`)
    )
    for (const [v, hash] of versions.entries()) {
      lines[(v * 37) % 40] = `const line${(v * 37) % 40} = ${v} // edited`
      expect(fresh.read(hash).toString()).toBe(lines.join('\n'))
    }
  })

  it('stores a batch of many blobs as one pack that other stores read once committed', () => {
    const blobs = store()
    const batch = blobs.openBatch()
    const hashes = Array.from({ length: 100 }, (_, i) =>
      batch.put(source(`f${i}`), { path: `${i}.ts` })
    )
    // Readable here at once, by nobody else before the commit.
    expect(blobs.read(hashes[99] ?? '').equals(source('f99'))).toBe(true)
    expect(() => new BlobStore(blobs.dir).read(hashes[0] ?? '')).toThrow(BlobMissingError)
    batch.commit()
    const fresh = new BlobStore(blobs.dir)
    for (const [i, hash] of hashes.entries())
      expect(fresh.read(hash).equals(source(`f${i}`))).toBe(true)
    expect(readdirSync(join(blobs.dir, 'packs'))).toHaveLength(1)
    expect(existsSync(blobs.pathOf(hashes[0] ?? ''))).toBe(false)
    // A small batch goes loose, and an aborted one leaves nothing.
    const small = blobs.openBatch()
    const one = small.put(source('single'))
    small.commit()
    expect(existsSync(blobs.pathOf(one))).toBe(true)
    const dropped = blobs.openBatch()
    const gone = Array.from({ length: 100 }, (_, i) => dropped.put(source(`g${i}`)))
    dropped.abort()
    expect(() => new BlobStore(blobs.dir).read(gone[5] ?? '')).toThrow(BlobMissingError)
    expect(readdirSync(join(blobs.dir, 'packs'))).toHaveLength(1)
    // A store that read the pack list finds a pack added since, and none that went (a gc).
    const [first] = readdirSync(join(blobs.dir, 'packs'))
    const later = blobs.openBatch()
    const added = Array.from({ length: 100 }, (_, i) => later.put(source(`h${i}`)))
    later.commit()
    expect(fresh.read(added[3] ?? '').equals(source('h3'))).toBe(true)
    const reading = new BlobStore(blobs.dir)
    expect(reading.read(added[0] ?? '').equals(source('h0'))).toBe(true)
    rmSync(join(blobs.dir, 'packs', first ?? ''))
    expect(() => reading.read(hashes[2] ?? '')).toThrow(BlobMissingError)
    expect(reading.read(added[5] ?? '').equals(source('h5'))).toBe(true)
  })

  it('writes a small batch loose, leaving a blob already loose as it is', () => {
    const blobs = store()
    const written = blobs.put(source('backed up by a Write'))
    const inode = statSync(blobs.pathOf(written)).ino
    // A command's detection backs up the file the Write left, and one it changed.
    const batch = blobs.openBatch()
    expect(batch.put(source('backed up by a Write'))).toBe(written)
    const changed = batch.put(source('changed by the command'))
    batch.commit()
    expect(statSync(blobs.pathOf(written)).ino).toBe(inode)
    expect(new BlobStore(blobs.dir).read(changed).equals(source('changed by the command'))).toBe(
      true
    )
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
