import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BlobStore, sha256 } from '../files/blob-store'
import { listPacks, packsDir, readPackIndex, writePack } from '../files/pack-file'
import { DEFAULT_RETENTION, collectGarbage, workspaceUsage } from './retention'
import { workspaceFolder } from '../session/paths'
import { checkpointAt } from './checkpoint-at'
import { type WorkspaceSession, newSession, openSession } from '../../../test/rewind/fixture'
import { writeManySessions } from '../../../test/support/many-sessions'

const open: WorkspaceSession[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close()
})

const DAY = 86_400_000

/** Three turns, each rewriting a.txt; every blob then made `ageDays` old. */
async function threeTurns(ageDays: number) {
  const s = await newSession({ 'a.txt': 'v0' })
  open.push(s)
  for (const v of ['v1', 'v2', 'v3']) {
    s.prompt(`write ${v}`)
    await s.write('a.txt', v)
    s.reply('ok')
  }
  ageLooseBlobs(s.history.paths.blobs, ageDays)
  return { s, workspace: workspaceFolder(s.cwd) }
}

/** The loose blob files of a store (not its packs). */
const looseBlobs = (dir: string) =>
  readdirSync(dir)
    .filter((shard) => shard !== 'packs')
    .flatMap((shard) => readdirSync(join(dir, shard)).map((blob) => join(dir, shard, blob)))

/** Makes every loose blob `days` old, as if no session had used it since. */
function ageLooseBlobs(dir: string, days: number): void {
  const old = new Date(Date.now() - days * DAY)
  for (const file of looseBlobs(dir)) utimesSync(file, old, old)
}

const blobOf = (text: string) => sha256(Buffer.from(text))

describe('retention', () => {
  it('prunes backups past the age limit, never what the latest checkpoints need', async () => {
    const { s, workspace } = await threeTurns(40)
    const policy = { ...DEFAULT_RETENTION, keepCheckpoints: 1 }
    const report = await collectGarbage(s.home, workspace, policy)
    // v0 and v1 are only needed to go back before checkpoints 1 and 2.
    expect(report.deletedBlobs).toBe(2)
    expect(await s.history.blobs.has(blobOf('v0'))).toBe(false)
    expect(await s.history.blobs.has(blobOf('v1'))).toBe(false)
    expect(await s.history.blobs.has(blobOf('v2'))).toBe(true)
    expect(await s.history.blobs.has(blobOf('v3'))).toBe(true)
    // Going back to checkpoint 1 now says what cannot be restored, and changes nothing else.
    const plan = await s.engine.planRewind(checkpointAt(s.store, 1), 'code')
    expect(plan.unrestorable).toEqual([
      {
        path: 'a.txt',
        reason:
          'its content at that point is not in the backup store (pruned by retention, or it could not be stored)'
      }
    ])
    expect(plan.files).toEqual([])
    await s.engine.rewind(checkpointAt(s.store, 3), 'code')
    expect(s.read('a.txt')).toBe('v2')
    const usage = await workspaceUsage(s.home, workspace)
    expect(usage.sessions[0]?.missingBlobs).toBe(2)
  })

  it('keeps young backups under the age limit until the size cap needs room, oldest first', async () => {
    const { s, workspace } = await threeTurns(10)
    const kept = await collectGarbage(s.home, workspace, {
      ...DEFAULT_RETENTION,
      keepCheckpoints: 1
    })
    expect(kept.deletedBlobs).toBe(0)
    const capped = await collectGarbage(s.home, workspace, {
      ...DEFAULT_RETENTION,
      keepCheckpoints: 1,
      maxBytes: 0
    })
    expect(capped.deletedBlobs).toBe(2)
    expect(capped.overCapReason).toMatch(/needed by the latest 1 checkpoints/)
  })

  it('runs on its own when a session opens, at most once a day', async () => {
    const { s } = await threeTurns(40)
    const orphan = s.history.blobs.put(Buffer.from('named by no record'))
    utimesSync(s.history.blobs.pathOf(orphan), new Date(0), new Date(0))
    // The fixture's open already ran it (nothing was old then): make it due again.
    const stamp = join(s.history.paths.root, 'last-gc')
    utimesSync(stamp, new Date(0), new Date(0))
    const next = await openSession({ base: s.base, cwd: s.cwd, home: s.home })
    open.push(next)
    expect(next.notices.join('\n')).toMatch(/Retention pruned 1 old backup \(\d+ B\)/)
    expect(await s.history.blobs.has(orphan)).toBe(false)
    expect(await s.history.blobs.has(blobOf('v0'))).toBe(true)
    const again = await openSession({ base: s.base, cwd: s.cwd, home: s.home })
    open.push(again)
    expect(again.notices.join('\n')).not.toMatch(/Retention/)
  })

  it('reads no session log of a workspace that holds no backup and no journal', async () => {
    const home = mkdtempSync(join(tmpdir(), 'rs-gc-empty-'))
    const cwd = mkdtempSync(join(tmpdir(), 'rs-gc-empty-ws-'))
    writeManySessions(home, cwd, 5, 4096)
    const report = await collectGarbage(home, workspaceFolder(cwd))
    expect(report.deletedBlobs).toBe(0)
    // Neither the session index nor what each log names (built only by reading every log).
    expect(existsSync(join(home, 'index'))).toBe(false)
  })

  it('keeps what undoing the last rewind needs, and anything used within the grace period', async () => {
    const { s, workspace } = await threeTurns(40)
    s.hand('a.txt', 'hand edit')
    await s.engine.rewind(checkpointAt(s.store, 1), 'both')
    const hand = blobOf('hand edit')
    utimesSync(s.history.blobs.pathOf(hand), new Date(0), new Date(0))
    await collectGarbage(s.home, workspace, { ...DEFAULT_RETENTION, keepCheckpoints: 0 })
    expect(await s.history.blobs.has(hand)).toBe(true)
    await s.engine.undo()
    expect(s.read('a.txt')).toBe('hand edit')
  })

  it('keeps what undoing the last rewind needs after a later rewind failed and was rolled back', async () => {
    const { s, workspace } = await threeTurns(40)
    s.hand('a.txt', 'hand edit')
    await s.engine.rewind(checkpointAt(s.store, 3), 'both')
    // A second rewind fails while writing (its backup vanished between preview and apply): its
    // journal, rolled back, is now the session's newest, but the first rewind is still undoable.
    const plan = await s.engine.planRewind(checkpointAt(s.store, 1), 'both')
    rmSync(s.history.blobs.pathOf(blobOf('v0')))
    await expect(s.engine.apply(plan)).rejects.toThrow(/not in the store/)
    expect((await s.engine.timeline()).undoable).not.toBeNull()
    const hand = blobOf('hand edit')
    utimesSync(s.history.blobs.pathOf(hand), new Date(0), new Date(0))
    await collectGarbage(s.home, workspace, { ...DEFAULT_RETENTION, keepCheckpoints: 0 })
    expect(await s.history.blobs.has(hand)).toBe(true)
    await s.engine.undo()
    expect(s.read('a.txt')).toBe('hand edit')
  })

  it('keeps what undo can reach many steps back: older journals and the hand edits they saved', async () => {
    const { s, workspace } = await threeTurns(40)
    s.hand('a.txt', 'first hand edit')
    await s.engine.rewind(checkpointAt(s.store, 3), 'code')
    s.hand('a.txt', 'second hand edit')
    await s.engine.rewind(checkpointAt(s.store, 2), 'code')
    // Forty days on, nothing used since: only what undo can still reach must stay.
    const report = await collectGarbage(
      s.home,
      workspace,
      { ...DEFAULT_RETENTION, keepCheckpoints: 0 },
      { now: Date.now() + 40 * DAY }
    )
    expect(report.deletedBlobs).toBeGreaterThan(0)
    await s.engine.undo()
    expect(s.read('a.txt')).toBe('second hand edit')
    await s.engine.undo()
    expect(s.read('a.txt')).toBe('first hand edit')
  })

  it('keeps the chain a needed delta is read through, and lets it go with its last delta', async () => {
    const long = (v: string) => `${'a line of a long file\n'.repeat(20)}version ${v}\n`
    const s = await newSession({ 'a.txt': long('0') })
    open.push(s)
    for (const v of ['1', '2', '3', '4']) {
      s.prompt(`write ${v}`)
      await s.write('a.txt', long(v))
      s.reply('ok')
    }
    const blobs = s.history.blobs
    const versions = ['0', '1', '2', '3', '4'].map((v) => blobOf(long(v)))
    // v0 was kept whole; each later version is a delta made from the one before it.
    expect(versions.map((v) => blobs.baseOf(v))).toEqual([null, ...versions.slice(0, 4)])
    ageLooseBlobs(blobs.dir, 40)
    const workspace = workspaceFolder(s.cwd)
    // Only checkpoint 4 must stay restorable: it needs v3 and v4, so v3's chain (v2, v1, v0)
    // stays too, though no kept checkpoint names them.
    const kept = await collectGarbage(s.home, workspace, {
      ...DEFAULT_RETENTION,
      keepCheckpoints: 1
    })
    expect(kept.deletedBlobs).toBe(0)
    expect(new BlobStore(blobs.dir).read(blobOf(long('4'))).toString()).toBe(long('4'))
    // Nothing needed any more: the chain goes with its last delta.
    const all = await collectGarbage(s.home, workspace, {
      ...DEFAULT_RETENTION,
      keepCheckpoints: 0,
      graceHours: -1
    })
    expect(all.deletedBlobs).toBe(5)
    expect(await blobs.has(blobOf(long('0')))).toBe(false)
    expect(all.remainingBytes).toBe(0)
  })

  it('never prunes a blob from under a delta that stays, however deep its chain', async () => {
    const long = (v: number) => `${'a line of a long file\n'.repeat(20)}version ${v}\n`
    const s = await newSession({ 'a.txt': long(0) })
    open.push(s)
    for (let v = 1; v <= 40; v++) {
      s.prompt(`write ${v}`)
      await s.write('a.txt', long(v))
      s.reply('ok')
    }
    ageLooseBlobs(s.history.blobs.dir, 40)
    await collectGarbage(s.home, workspaceFolder(s.cwd), {
      ...DEFAULT_RETENTION,
      keepCheckpoints: 1
    })
    // Every version the kept checkpoint names reads back in a fresh store.
    expect(new BlobStore(s.history.blobs.dir).read(blobOf(long(40))).toString()).toBe(long(40))
    expect(new BlobStore(s.history.blobs.dir).read(blobOf(long(39))).toString()).toBe(long(39))
  })

  it('packs idle blobs into one file that restores, reuse and later pruning all read', async () => {
    const text = (i: number) => `file ${i}\n${'a line the files share\n'.repeat(10)}`
    const changed = (i: number) => `${text(i)}changed\n`
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, text(i)]))
    const s = await newSession(files)
    open.push(s)
    s.prompt('change the first ten')
    await s.bash(`for i in 0 1 2 3 4 5 6 7 8 9; do echo changed >> f$i.txt; done`)
    s.prompt('change the other ten')
    await s.bash(`for i in 10 11 12 13 14 15 16 17 18 19; do echo changed >> f$i.txt; done`)
    s.reply('ok')
    const blobs = s.history.blobs
    const looseCount = () => looseBlobs(blobs.dir).length
    ageLooseBlobs(blobs.dir, 2)
    const workspace = workspaceFolder(s.cwd)
    // A bounded share per run (the daily run at a session's opening), then the rest.
    const first = await collectGarbage(s.home, workspace, DEFAULT_RETENTION, { packLimit: 16 })
    expect([first.deletedBlobs, first.packedBlobs, looseCount()]).toEqual([0, 16, 24])
    const report = await collectGarbage(s.home, workspace)
    expect([report.deletedBlobs, report.packedBlobs, looseCount()]).toEqual([0, 24, 0])
    expect(readdirSync(join(blobs.dir, 'packs'))).toHaveLength(2)
    expect(new BlobStore(blobs.dir).read(blobOf(changed(3))).toString()).toBe(changed(3))

    // Only the last checkpoint stays restorable: the pack is rewritten without the rest.
    const pruned = await collectGarbage(s.home, workspace, {
      ...DEFAULT_RETENTION,
      keepCheckpoints: 1,
      maxAgeDays: 1
    })
    // f0's first version stays: the kept versions of f10–f19 are deltas made from it.
    expect(blobs.baseOf(blobOf(text(15)))).toBe(blobOf(text(0)))
    expect(pruned.deletedBlobs).toBe(19)
    expect((await workspaceUsage(s.home, workspace)).blobCount).toBe(21)
    expect(await blobs.has(blobOf(changed(3)))).toBe(false)

    await s.engine.rewind(checkpointAt(s.store, 2), 'code')
    expect([s.read('f3.txt'), s.read('f15.txt')]).toEqual([changed(3), text(15)])
    // The restore's backup used the changed versions of f10–f19 again: loose (young) once more.
    expect(existsSync(blobs.pathOf(blobOf(changed(15))))).toBe(true)
    expect(existsSync(blobs.pathOf(blobOf(text(15))))).toBe(false)
    await s.engine.undo()
    expect(s.read('f15.txt')).toBe(changed(15))
  })
  it('renews the old packed backups a restore names in one new pack, not a file each', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`f${i}.txt`, `file ${i}\n`])
    )
    const s = await newSession(files)
    open.push(s)
    s.prompt('change them all')
    await s.bash('for f in f*.txt; do echo changed >> $f; done')
    s.reply('ok')
    const dir = s.history.paths.blobs
    const loose = looseBlobs(dir).length
    const packs = readdirSync(packsDir(dir)).length
    // Two hours on: every backup is in a pack written more than an hour ago.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 2 * 3_600_000)
    try {
      await s.engine.rewind(checkpointAt(s.store, 1), 'code')
      expect(s.read('f7.txt')).toBe('file 7\n')
      // The 100 changed versions the restore backed up again: one pack, no loose copies.
      expect(looseBlobs(dir)).toHaveLength(loose)
      expect(readdirSync(packsDir(dir))).toHaveLength(packs + 1)
      await s.engine.undo()
      expect(s.read('f7.txt')).toBe('file 7\nchanged\n')
    } finally {
      vi.useRealTimers()
    }
  })

  it('counts a blob in two packs by its last use, whichever pack is read first', async () => {
    const orders: [string, string][] = [
      ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'],
      ['bbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaa']
    ]
    for (const [older, newer] of orders) {
      const home = mkdtempSync(join(tmpdir(), 'rs-two-packs-'))
      const workspace = 'two-packs'
      const blobs = join(home, 'file-history', workspace, 'blobs')
      const store = new BlobStore(blobs)
      const content = Buffer.from('used again an hour ago\n')
      const hash = store.put(content)
      const bytes = readFileSync(store.pathOf(hash))
      const pack = (name: string, usedMs: number) =>
        renameSync(
          writePack(packsDir(blobs), [{ hash, bytes, usedMs }]),
          join(packsDir(blobs), `${name}.pack`)
        )
      pack(older, Date.now() - 40 * DAY)
      pack(newer, Date.now() - 3_600_000)
      rmSync(store.pathOf(hash))
      const report = await collectGarbage(home, workspace)
      expect(report.deletedBlobs, `${older} the older pack`).toBe(0)
      expect(new BlobStore(blobs).read(hash)).toEqual(content)
    }
  })

  it('counts once a blob a batch stored again while it was loose, and keeps its loose copy', async () => {
    const { home, workspace, blobs, hash, content } = await loosePackedAgain(0)
    const packed = () => listPacks(packsDir(blobs)).flatMap((p) => readPackIndex(p))
    expect(packed().map((e) => e.hash)).toContain(hash)
    expect(existsSync(new BlobStore(blobs).pathOf(hash))).toBe(true)
    expect((await workspaceUsage(home, workspace)).blobCount).toBe(101)
    // gc drops the packed copy (the loose one is kept) and loses nothing.
    const report = await collectGarbage(home, workspace)
    expect(report.deletedBlobs).toBe(0)
    expect(packed().map((e) => e.hash)).not.toContain(hash)
    expect(packed()).toHaveLength(100)
    expect(new BlobStore(blobs).read(hash)).toEqual(content)
  })

  it('counts a blob loose and packed by its later use: an old loose copy packed again today stays', async () => {
    const { home, workspace, blobs, hash, content } = await loosePackedAgain(40)
    // Past the age limit by its loose copy, used today by its packed one: kept, and the loose
    // copy that stays carries today's use (the packed one is dropped).
    const report = await collectGarbage(home, workspace)
    expect(report.deletedBlobs).toBe(0)
    expect(new BlobStore(blobs).read(hash)).toEqual(content)
    expect(Date.now() - statSync(new BlobStore(blobs).pathOf(hash)).mtimeMs).toBeLessThan(DAY)
    const again = await collectGarbage(home, workspace)
    expect(again.deletedBlobs).toBe(0)
    expect(new BlobStore(blobs).read(hash)).toEqual(content)
  })
})

/**
 * A Write's backup (loose, `ageDays` old), then a command bringing that content back among 100
 * others: a batch does not look for loose copies (a syscall per blob), so it packs one too.
 */
async function loosePackedAgain(ageDays: number) {
  const home = mkdtempSync(join(tmpdir(), 'rs-loose-and-packed-'))
  const workspace = 'loose-and-packed'
  const blobs = join(home, 'file-history', workspace, 'blobs')
  const content = Buffer.from('what a Write backed up, brought back by a command\n')
  const store = new BlobStore(blobs)
  const hash = store.put(content)
  const old = new Date(Date.now() - ageDays * DAY)
  utimesSync(store.pathOf(hash), old, old)
  const batch = new BlobStore(blobs).openBatch()
  expect(batch.put(content)).toBe(hash)
  for (let i = 0; i < 100; i++) batch.put(Buffer.from(`file ${i} as the command left it\n`))
  batch.commit()
  return { home, workspace, blobs, hash, content }
}
