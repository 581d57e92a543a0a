// A command that changed many files stores their new versions raw in an unsettled pack (no delta,
// no zlib on its path); gc settles them into deltas of their previous versions. Every content
// must read back byte-equal before and after, in a store that opens afresh, and gc must leave the
// store as small as deltas made at once would (docs/file-history.md, "Raw, then settled").
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  statSync,
  utimesSync,
  writeSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BlobDamagedError, BlobStore, sha256 } from '../../src/core/files/blob-store'
import { isUnsettledPack, listPacks, packsDir, readPackIndex } from '../../src/core/files/pack-file'
import { historyPathsAt } from '../../src/core/files/history-paths'
import { collectGarbage } from '../../src/core/rewind/retention'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { workspaceFolder } from '../../src/core/session/paths'
import { sessionsClosedAfterEach } from './fixture'

const { session } = sessionsClosedAfterEach()

const FILES = 120

/** Files of a few KB, unlike one another, so a delta pays only against the file's own past. */
function workspaceFiles(): Record<string, string> {
  const files: Record<string, string> = {}
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from(
      { length: 60 },
      (_, l) => `export const v${i}_${l} = ${JSON.stringify(sha256(Buffer.from(`${i}:${l}`)))}`
    )
    files[`src/m${i % 7}/f${i}.ts`] = `${lines.join('\n')}\n`
  }
  return files
}

const packBytes = (blobs: string) =>
  listPacks(packsDir(blobs)).reduce((sum, file) => sum + statSync(file).size, 0)

describe('new versions stored raw by a command, settled by gc', () => {
  it('read back byte-equal before and after gc, which makes them deltas of their previous versions', async () => {
    const files = workspaceFiles()
    const s = await session(files)
    s.prompt('baseline')
    await s.history.prepareForCommands()
    s.prompt('prepend a line to every file')
    await s.bash(`for f in $(find src -name '*.ts'); do sed -i '1s|^|// edited\\n|' "$f"; done`)
    const blobs = s.history.paths.blobs
    const edited = Object.entries(files).map(([path, text]) => ({
      path,
      before: sha256(Buffer.from(text)),
      after: sha256(Buffer.from(`// edited\n${text}`)),
      text
    }))

    // The command's pack is unsettled and holds the new versions whole and raw.
    expect(listPacks(packsDir(blobs)).filter(isUnsettledPack)).toHaveLength(1)
    const before = new BlobStore(blobs)
    for (const { before: old, after, text } of edited) {
      expect(before.read(after).toString()).toBe(`// edited\n${text}`)
      expect(before.baseOf(after)).toBeNull()
      expect(before.read(old).toString()).toBe(text)
    }
    const rawBytes = packBytes(blobs)

    const report = await collectGarbage(s.home, workspaceFolder(s.cwd))
    expect(report.deletedBlobs).toBe(0)
    expect(listPacks(packsDir(blobs)).filter(isUnsettledPack)).toHaveLength(0)
    const after = new BlobStore(blobs)
    for (const { before: old, after: hash, text } of edited) {
      expect(after.read(hash).equals(Buffer.from(`// edited\n${text}`))).toBe(true)
      expect(after.baseOf(hash)).toBe(old)
      expect(after.read(old).toString()).toBe(text)
    }
    // 120 raw copies of ~5 KB gave way to 120 deltas of a line each.
    expect(packBytes(blobs)).toBeLessThan(rawBytes - FILES * 4000)

    // The session that stored them goes on reading and rewinding through the settled pack.
    await s.engine.rewind(checkpointAt(s.store, 2), 'code')
    for (const { path, text } of edited) expect(s.read(path)).toBe(text)
    await s.engine.undo()
    for (const { path, text } of edited) expect(s.read(path)).toBe(`// edited\n${text}`)
  })

  it('stores the new versions of a command that changed a few files as deltas at once', async () => {
    const s = await session({ 'a.ts': 'x'.repeat(3000), 'b.ts': 'y'.repeat(3000) })
    s.prompt('baseline')
    await s.history.prepareForCommands()
    s.prompt('edit both')
    await s.bash(`sed -i '1s|^|// edited\\n|' a.ts b.ts`)
    const store = new BlobStore(s.history.paths.blobs)
    for (const [name, ch] of [
      ['a.ts', 'x'],
      ['b.ts', 'y']
    ] as const) {
      const text = ch.repeat(3000)
      const hash = sha256(Buffer.from(`// edited\n${text}`))
      expect(store.baseOf(hash)).toBe(sha256(Buffer.from(text)))
      expect(store.read(hash).toString()).toBe(`// edited\n${text}`)
      expect(s.read(name)).toBe(`// edited\n${text}`)
    }
    expect(listPacks(packsDir(s.history.paths.blobs)).filter(isUnsettledPack)).toHaveLength(0)
  })

  it('keeps every version readable when gc settles a file changed by several commands in one pack run', async () => {
    const files = workspaceFiles()
    const s = await session(files)
    s.prompt('baseline')
    await s.history.prepareForCommands()
    for (const round of [1, 2, 3]) {
      s.prompt(`round ${round}`)
      await s.bash(
        `for f in $(find src -name '*.ts'); do sed -i '1s|^|// r${round}\\n|' "$f"; done`
      )
    }
    const blobs = s.history.paths.blobs
    expect(listPacks(packsDir(blobs)).filter(isUnsettledPack)).toHaveLength(3)
    await collectGarbage(s.home, workspaceFolder(s.cwd))
    expect(readdirSync(packsDir(blobs)).filter((n) => n.endsWith('.tmp'))).toEqual([])
    const store = new BlobStore(blobs)
    for (const text of Object.values(files)) {
      let version = text
      for (const round of [1, 2, 3]) {
        const previous = sha256(Buffer.from(version))
        version = `// r${round}\n${version}`
        const hash = sha256(Buffer.from(version))
        expect(store.read(hash).toString()).toBe(version)
        expect(store.baseOf(hash)).toBe(previous)
      }
    }
  })

  it('never settles a blob as a delta of a previous version the same gc deletes', async () => {
    const home = mkdtempSync(join(tmpdir(), 'rs-settle-'))
    const workspace = '-ws-0000'
    const blobs = new BlobStore(historyPathsAt(join(home, 'file-history', workspace)).blobs)
    // Old versions loose and 40 days old, named by no session: this gc deletes them.
    const old = Array.from({ length: 70 }, (_, i) =>
      blobs.put(Buffer.from(`v0 ${i}\n`.repeat(200)))
    )
    const aged = new Date(Date.now() - 40 * 86_400_000)
    for (const hash of old) utimesSync(blobs.pathOf(hash), aged, aged)
    // Their new versions, raw in an unsettled pack, young: kept.
    const batch = blobs.openBatch()
    const fresh = old.map((previous, i) =>
      batch.put(Buffer.from(`v1 ${i}\n${`v0 ${i}\n`.repeat(200)}`), { previous })
    )
    batch.commit()
    const report = await collectGarbage(home, workspace)
    expect(report.deletedBlobs).toBe(70)
    const after = new BlobStore(blobs.dir)
    for (const [i, hash] of fresh.entries()) {
      expect(after.baseOf(hash)).toBeNull()
      expect(after.read(hash).toString()).toBe(`v1 ${i}\n${`v0 ${i}\n`.repeat(200)}`)
    }
  })

  it('reads a raw blob whose bytes were damaged as damaged, never as other content', () => {
    const blobs = new BlobStore(mkdtempSync(join(tmpdir(), 'rs-raw-damaged-')))
    const batch = blobs.openBatch()
    const hashes = Array.from({ length: 70 }, (_, i) => {
      const previous = blobs.put(Buffer.from(`old ${i}\n`.repeat(100)))
      return batch.put(Buffer.from(`new ${i}\n`.repeat(100)), { previous })
    })
    batch.commit()
    const [pack] = listPacks(packsDir(blobs.dir))
    const entry = readPackIndex(pack ?? '').find((e) => e.hash === hashes[5])
    const fd = openSync(pack ?? '', 'r+')
    // A byte of the content, past the raw header (magic and the previous version's hash).
    writeSync(fd, Buffer.from('X'), 0, 1, (entry?.offset ?? 0) + 40)
    closeSync(fd)
    const fresh = new BlobStore(blobs.dir)
    expect(() => fresh.read(hashes[5] ?? '')).toThrow(BlobDamagedError)
    expect(fresh.read(hashes[6] ?? '').toString()).toBe(`new 6\n`.repeat(100))
  })
})
