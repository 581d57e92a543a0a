// A crash between writing a command's backups and appending its records, or in the middle of
// writing them, leaves a consistent store: what was committed reads back byte-equal, what was not
// is invisible (a pack is renamed into place whole or not at all), the session reopens and goes
// on, and gc settles or removes what was left.
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BlobStore, sha256 } from '../../src/core/files/blob-store'
import { historyPaths } from '../../src/core/files/history-paths'
import { isUnsettledPack, listPacks, packsDir } from '../../src/core/files/pack-file'
import { collectGarbage } from '../../src/core/rewind/retention'
import { fileChangeRecords } from '../../src/core/rewind/other-sessions'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import { SPARE_NAME, SPARES_FOLDER } from '../../src/core/files/spare-files'
import { sessionsDir, workspaceFolder } from '../../src/core/session/paths'
import { SessionStore } from '../../src/core/session/store'
import { makeWorkspace, openSession } from './fixture'
import { killWhenPaused } from '../support/kill-when-paused'

const FILES = 100

async function killedWhenPaused(home: string, cwd: string, mode: string): Promise<void> {
  await killWhenPaused(join(__dirname, 'batch-crash-child.ts'), [home, cwd, mode])
}

function withFiles() {
  const files: Record<string, string> = {}
  for (let i = 0; i < FILES; i++) files[`f${i}.txt`] = `file ${i}\n`.repeat(40)
  return { files, where: makeWorkspace(files) }
}

describe('a crash while a command is backed up', () => {
  it('after the blobs, before the records: the blobs read back, no record names them, the session goes on', async () => {
    const { files, where } = withFiles()
    await killedWhenPaused(where.home, where.cwd, 'after-blobs')

    // The command's new versions were committed (one unsettled pack) and read back byte-equal.
    const blobs = historyPaths(where.home, where.cwd).blobs
    expect(listPacks(packsDir(blobs)).filter(isUnsettledPack)).toHaveLength(1)
    const store = new BlobStore(blobs)
    for (const text of Object.values(files)) {
      const edited = `${text}edited\n`
      expect(store.read(sha256(Buffer.from(edited))).toString()).toBe(edited)
    }
    // No record of the command: the crash came before them.
    const [log] = readdirSync(sessionsDir(where.home, where.cwd))
    const killed = SessionStore.open(join(sessionsDir(where.home, where.cwd), log ?? ''))
    expect(fileChangeRecords(killed.tree())).toEqual([])

    // The session reopens and goes on: a command, a rewind of it, through the same store.
    const s = await openSession(where, killed)
    try {
      s.prompt('edit again')
      await s.bash(`for f in f*.txt; do echo again >> "$f"; done`)
      await s.engine.rewind(checkpointAt(s.store, 2), 'code')
      for (const [path, text] of Object.entries(files)) expect(s.read(path)).toBe(`${text}edited\n`)
      // gc settles both commands' packs; every version still reads back.
      await collectGarbage(where.home, workspaceFolder(where.cwd))
      expect(listPacks(packsDir(blobs)).filter(isUnsettledPack)).toEqual([])
      const settled = new BlobStore(blobs)
      for (const text of Object.values(files)) {
        for (const version of [text, `${text}edited\n`, `${text}edited\nagain\n`]) {
          expect(settled.read(sha256(Buffer.from(version))).toString()).toBe(version)
        }
      }
    } finally {
      await s.close()
    }
  })

  it('in the middle of the blobs: nothing of the batch is visible, and gc removes its temp file once stale', async () => {
    const { where } = withFiles()
    await killedWhenPaused(where.home, where.cwd, 'mid-batch')
    const blobs = historyPaths(where.home, where.cwd).blobs
    const packs = packsDir(blobs)
    const temps = readdirSync(packs).filter((name) => name.endsWith('.pack.tmp'))
    expect(temps).toHaveLength(1)
    expect(listPacks(packs)).toEqual([])
    const store = new BlobStore(blobs)
    for (let i = 0; i < 100; i++) {
      expect(store.read(sha256(Buffer.from(`old ${i}\n`.repeat(50)))).toString()).toBe(
        `old ${i}\n`.repeat(50)
      )
      expect(await store.has(sha256(Buffer.from(`new ${i}\n`.repeat(50))))).toBe(false)
    }
    // A session opens on that store and backs up as usual.
    const s = await openSession(where)
    try {
      s.prompt('edit')
      await s.bash(`for f in f*.txt; do echo edited >> "$f"; done`)
      expect(fileChangeRecords(s.store.tree())).toHaveLength(FILES)
    } finally {
      await s.close()
    }
    // A young temp file may be a live writer's: kept. A day-old one goes.
    const workspace = workspaceFolder(where.cwd)
    await collectGarbage(where.home, workspace)
    expect(readdirSync(packs).filter((name) => name.endsWith('.tmp'))).toEqual(temps)
    const old = new Date(Date.now() - 2 * 86_400_000)
    utimesSync(join(packs, temps[0] ?? ''), old, old)
    await collectGarbage(where.home, workspace)
    expect(readdirSync(packs).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
  it('leaves the spare files it made ahead (spare-files.ts), or a loose blob’s temp file: gc keeps them while young, removes them once stale', async () => {
    const { where } = withFiles()
    await killedWhenPaused(where.home, where.cwd, 'after-blobs')
    const blobs = historyPaths(where.home, where.cwd).blobs
    // As a writer killed between a loose blob's write and its rename leaves it (that window is
    // too short to hit with a kill).
    const hash = sha256(Buffer.from('cut short'))
    const temp = join(blobs, hash.slice(0, 2), `${hash}.12345-1.tmp`)
    mkdirSync(dirname(temp), { recursive: true })
    writeFileSync(temp, 'cut sh')
    const spares = join(blobs, SPARES_FOLDER)
    const left = readdirSync(spares)
    expect(left.length).toBeGreaterThan(0)
    for (const name of left) expect(name).toMatch(SPARE_NAME)
    const workspace = workspaceFolder(where.cwd)
    await collectGarbage(where.home, workspace)
    expect(readdirSync(spares).sort()).toEqual(left.sort())
    expect(existsSync(temp)).toBe(true)
    const old = new Date(Date.now() - 2 * 86_400_000)
    for (const name of left) utimesSync(join(spares, name), old, old)
    utimesSync(temp, old, old)
    await collectGarbage(where.home, workspace)
    expect(readdirSync(spares)).toEqual([])
    expect(existsSync(temp)).toBe(false)
  })
})
