// A backup is on the disk before anything names it: a session record, a restore journal, a gc
// deleting other copies. A power cut cannot be staged here, so this checks the call that gives
// the promise: every blob file, loose or pack, is fdatasync'd before the store hands it back.
import fs, { fstatSync, mkdtempSync, statSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BlobStore } from '../../src/core/files/blob-store'
import { listPacks, packsDir } from '../../src/core/files/pack-file'

/** The inodes fdatasync'd since the test began. */
let synced = new Set<number>()
const { fdatasyncSync } = fs
beforeEach(() => {
  synced = new Set()
  fs.fdatasyncSync = (fd: number) => {
    synced.add(fstatSync(fd).ino)
    fdatasyncSync(fd)
  }
  syncBuiltinESMExports()
})
afterEach(() => {
  fs.fdatasyncSync = fdatasyncSync
  syncBuiltinESMExports()
})

const store = () => new BlobStore(join(mkdtempSync(join(tmpdir(), 'rs-durable-')), 'blobs'))
const content = (i: number) => Buffer.from(`version ${i} of a file\n`.repeat(40))

describe('backups on the disk before they are named', () => {
  it('a loose blob, written into a spare file or a file of its own', async () => {
    const plain = store()
    const hash = plain.put(content(1))
    expect(synced.has(statSync(plain.pathOf(hash)).ino)).toBe(true)

    const spared = store()
    await spared.keepSpareFiles()
    const again = spared.put(content(2), { path: 'a.txt' })
    expect(synced.has(statSync(spared.pathOf(again)).ino)).toBe(true)
    await spared.close()
  })

  it("a batch's blobs: a few loose, many in one pack", () => {
    const blobs = store()
    const few = blobs.openBatch()
    const loose = [1, 2, 3].map((i) => few.put(content(i)))
    few.commit()
    for (const hash of loose) expect(synced.has(statSync(blobs.pathOf(hash)).ino)).toBe(true)

    const many = blobs.openBatch()
    for (let i = 10; i < 110; i++) many.put(content(i))
    many.commit()
    const [pack] = listPacks(packsDir(blobs.dir))
    expect(pack).toBeDefined()
    expect(synced.has(statSync(pack ?? '').ino)).toBe(true)
  })
})
