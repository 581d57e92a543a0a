// Retention of a workspace's backups: a cap on size (default 2 GB) and on age (default 30 days),
// pruning oldest first, never what the latest 100 checkpoints of each session's active path
// need, nor what the restores within reach of each session's undo and redo need (its timeline),
// nor anything touched in the last day (a live session's baseline snapshot is referenced by no
// record yet). A blob stored as a delta keeps its base: the base goes only with the last delta
// made from it.
import { closeSync, promises as fs, openSync, rmSync, statSync, utimesSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import * as z from 'zod'
import { listJournals, type RestoreJournal } from './journal'
import { fileChangeRecords } from './other-sessions'
import { parseSessionFileName } from '../session/paths'
import { SessionStore } from '../session/store'
import { isPrompt } from '../session/tree'
import { KeyedFileCache, regularFileStampAt, sameStamp } from '../sources/file-cache'
import { jsonlFilesIn } from '../sources/session-index'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { changesAlong } from './file-targets'
import { journalsWithinReach } from './timeline'
import { BlobStore } from '../files/blob-store'
import { type HistoryPaths, historyPathsAt } from '../files/history-paths'
import {
  type PackedBlob,
  isUnsettledPack,
  listPacks,
  packsDir,
  readPackIndex,
  readPacked,
  PACK_TEMP_NAME,
  writePack
} from '../files/pack-file'
import { RESERVE_FOLDER, RESERVE_NAME } from '../files/disk-reserve'
import { SPARE_NAME, SPARES_FOLDER } from '../files/spare-files'
import { removeStaleFiles } from '../files/stale-files'
import { diskSize } from '../../shared/disk-size'

export interface RetentionPolicy {
  maxBytes: number
  maxAgeDays: number
  /** Checkpoints at the end of each session's active path whose backups are always kept. */
  keepCheckpoints: number
  /** Blobs used this recently are kept whatever the caps say. */
  graceHours: number
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  maxBytes: 2_000_000_000,
  maxAgeDays: 30,
  keepCheckpoints: 100,
  graceHours: 24
}

interface BlobFile {
  hash: string
  /** The loose blob file, or null for a blob in a pack. */
  file: string | null
  bytes: number
  /**
   * Its last use: the loose file's mtime, or the last use a pack recorded; the later of the two
   * for a blob both loose and packed.
   */
  mtimeMs: number
}

export interface SessionUsage {
  sessionId: string
  file: string
  createdAt: string
  checkpoints: number
  /** On-disk size of the distinct blobs its records name (blobs shared with others count here too). */
  bytes: number
  /** Blobs its records name that retention removed: those changes can no longer be restored. */
  missingBlobs: number
}

export interface WorkspaceUsage {
  /** The workspace's folder name under file-history (history-paths.ts). */
  workspace: string
  blobBytes: number
  blobCount: number
  /** Blobs no session record names: baseline snapshots for Bash and restore backups. */
  unreferencedBytes: number
  journals: number
  sessions: SessionUsage[]
}

export interface GcReport {
  workspace: string
  deletedBlobs: number
  /** Loose blobs moved into a new pack file (see pack-file.ts). */
  packedBlobs: number
  freedBytes: number
  deletedJournals: number
  remainingBytes: number
  /** Set when the size cap could not be met without deleting what must be kept. */
  overCapReason: string | null
}

/** The workspaces that have file history, by folder name (history-paths.ts). */
export async function listHistoryWorkspaces(home: string): Promise<string[]> {
  try {
    return (await fs.readdir(join(home, 'file-history'))).sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

export async function workspaceUsage(home: string, workspace: string): Promise<WorkspaceUsage> {
  const paths = historyPathsAt(join(home, 'file-history', workspace))
  const { blobs } = await listBlobs(paths)
  const byHash = new Map(blobs.map((b) => [b.hash, b]))
  const referenced = new Set<string>()
  const sessions = sessionsOf(home, workspace, DEFAULT_RETENTION.keepCheckpoints).map(
    ({ sessionId, file, createdAt, usage }) => {
      let bytes = 0
      let missingBlobs = 0
      for (const hash of usage.referenced) {
        referenced.add(hash)
        const blob = byHash.get(hash)
        if (blob === undefined) missingBlobs++
        else bytes += blob.bytes
      }
      return { sessionId, file, createdAt, checkpoints: usage.checkpoints, bytes, missingBlobs }
    }
  )
  return {
    workspace,
    blobBytes: sum(blobs.map((b) => b.bytes)),
    blobCount: blobs.length,
    unreferencedBytes: sum(blobs.filter((b) => !referenced.has(b.hash)).map((b) => b.bytes)),
    journals: (await listJournals(paths.restores)).length,
    sessions
  }
}

export async function collectGarbage(
  home: string,
  workspace: string,
  policy: RetentionPolicy = DEFAULT_RETENTION,
  options: {
    dryRun?: boolean
    now?: number
    /** Pack at most this many idle blobs in this run (default: all of them). */
    packLimit?: number
  } = {}
): Promise<GcReport> {
  const now = options.now ?? Date.now()
  const paths = historyPathsAt(join(home, 'file-history', workspace))
  const journals = await listJournals(paths.restores)
  const { blobs, packs, temps } = await listBlobs(paths)
  const withinReach = new Set<string>()
  // No backup and no journal (sessions that never backed a file up): nothing to keep, so no log
  // is read. A host's first start over 10,000 such sessions read each of them whole here, and
  // built the session index on the way, before it served its page (docs/performance.md).
  const needed =
    blobs.length === 0 && journals.length === 0
      ? new Set<string>()
      : neededBlobs(home, workspace, policy.keepCheckpoints, withinReach)
  const keptJournals = journalsToKeep(journals, withinReach)
  for (const journal of keptJournals) {
    for (const op of journal.ops) for (const h of [op.from, op.to]) if (h !== null) needed.add(h)
  }
  const graceStart = now - policy.graceHours * 3_600_000
  const ageLimit = now - policy.maxAgeDays * 86_400_000
  const candidates = blobs
    .filter((b) => !needed.has(b.hash) && b.mtimeMs < graceStart)
    .sort((a, b) => a.mtimeMs - b.mtimeMs)
  let remaining = sum(blobs.map((b) => b.bytes))
  const chosen: BlobFile[] = []
  for (const blob of candidates) {
    if (blob.mtimeMs >= ageLimit && remaining <= policy.maxBytes) break
    chosen.push(blob)
    remaining -= blob.bytes
  }
  const doomed = withoutBasesOfKept(paths, blobs, chosen)
  remaining += sum(chosen.filter((b) => !doomed.includes(b)).map((b) => b.bytes))
  const oldJournals = journals.filter(
    (j) => !keptJournals.includes(j) && Date.parse(j.createdAt) < ageLimit
  )
  let packedBlobs = 0
  if (options.dryRun !== true) {
    const doomedHashes = new Set(doomed.map((b) => b.hash))
    // What a writer that died left: a batch's pack cut short (its blobs were never named by a
    // record), spares it never took (spare-files.ts), its disk reserve (disk-reserve.ts: a live
    // session renews its own hourly), a loose blob's temp file.
    removeStaleFiles(packsDir(paths.blobs), PACK_TEMP_NAME, graceStart)
    removeStaleFiles(join(paths.blobs, SPARES_FOLDER), SPARE_NAME, graceStart)
    removeStaleFiles(join(paths.root, RESERVE_FOLDER), RESERVE_NAME, graceStart)
    for (const temp of temps) if (temp.mtimeMs < graceStart) await fs.rm(temp.file, { force: true })
    const store = new BlobStore(paths.blobs)
    rewritePacks(paths, store, packs, blobs, doomedHashes)
    for (const blob of doomed) if (blob.file !== null) await fs.rm(blob.file, { force: true })
    for (const j of oldJournals) await fs.rm(join(paths.restores, `${j.id}.json`), { force: true })
    const idle = blobs.filter(
      (b) => b.file !== null && !doomedHashes.has(b.hash) && b.mtimeMs < graceStart
    )
    packedBlobs = await packIdleBlobs(
      paths,
      store,
      idle.slice(0, options.packLimit ?? idle.length),
      doomedHashes
    )
  }
  return {
    workspace,
    deletedBlobs: doomed.length,
    packedBlobs,
    freedBytes: sum(doomed.map((b) => b.bytes)),
    deletedJournals: oldJournals.length,
    remainingBytes: remaining,
    overCapReason:
      remaining > policy.maxBytes
        ? `still ${remaining} bytes: the rest is needed by the latest ${policy.keepCheckpoints} checkpoints, the restores a session can still undo or redo, or was used in the last ${policy.graceHours} hours`
        : null
  }
}

/** How often opening a session prunes its workspace on its own. */
const AUTO_GC_INTERVAL_MS = 86_400_000

/**
 * Claims the workspace's retention for today if it was last run more than a day ago (a stamp
 * file says when): the stamp is written before any pruning, and checked and written under an
 * exclusive claim file, so of two openings at once (two tabs, two processes) one prunes and the
 * other finds it claimed. Retention applies so without anyone running `gc`, at most once a day
 * per workspace.
 */
export async function claimRetentionIfDue(
  home: string,
  workspace: string,
  now = Date.now()
): Promise<boolean> {
  const paths = historyPathsAt(join(home, 'file-history', workspace))
  const stamp = gcStampOf(paths)
  if (!(await ranLongAgo(stamp, now))) return false
  ensurePrivateDir(paths.root)
  const claim = `${stamp}.claim`
  try {
    closeSync(openSync(claim, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    // Another opening holds it for the microseconds below; one a crash left there goes now, and
    // the next opening claims.
    if (now - (statSync(claim, { throwIfNoEntry: false })?.mtimeMs ?? now) > STALE_CLAIM_MS) {
      rmSync(claim, { force: true })
    }
    return false
  }
  try {
    if (!(await ranLongAgo(stamp, now))) return false
    writePrivateFileSync(stamp, new Date(now).toISOString())
    return true
  } finally {
    rmSync(claim, { force: true })
  }
}

/** A claim file older than this was left by a process that died holding it. */
const STALE_CLAIM_MS = 60_000

async function ranLongAgo(stamp: string, now: number): Promise<boolean> {
  const last = await fs
    .stat(stamp)
    .then((s) => s.mtimeMs)
    .catch(() => 0)
  return now - last >= AUTO_GC_INTERVAL_MS
}

/** The file whose time says when retention last ran in a workspace. */
function gcStampOf(paths: HistoryPaths): string {
  return join(paths.root, 'last-gc')
}

/**
 * The day's pruning of a workspace whose retention was claimed (claimRetentionIfDue), as lines
 * for the user: what was pruned, or why pruning could not run. It never fails the opening.
 */
export async function pruneClaimed(home: string, historyRoot: string): Promise<string[]> {
  try {
    const pruned = await collectGarbage(home, basename(historyRoot), DEFAULT_RETENTION, {
      packLimit: PACK_LIMIT_WHEN_DUE
    })
    if (pruned.deletedBlobs === 0) return []
    return [
      `Retention pruned ${pruned.deletedBlobs} old backup${pruned.deletedBlobs === 1 ? '' : 's'} (${diskSize(pruned.freedBytes)}); rewinds to the oldest checkpoints may no longer restore every file.`
    ]
  } catch (error) {
    return [retentionFailure(error)]
  }
}

/** Why a run of the day's retention could not run, as a line for the user. */
export function retentionFailure(error: unknown): string {
  return `Backup retention could not run: ${(error as Error).message}`
}

/**
 * The pruning a session's opening runs waits for it, so it packs a bounded share of a big
 * workspace's idle blobs per day (a few hundred milliseconds) rather than all at once.
 */
const PACK_LIMIT_WHEN_DUE = 2000

/** Hashes the latest `keep` checkpoints of every session's active path need. */
function neededBlobs(
  home: string,
  workspace: string,
  keep: number,
  /** Filled with the journals each session's undo and redo can still reach. */
  withinReach: Set<string>
): Set<string> {
  const needed = new Set<string>()
  for (const { usage } of sessionsOf(home, workspace, keep)) {
    for (const id of usage.withinReach) withinReach.add(id)
    for (const hash of usage.needed) needed.add(hash)
  }
  return needed
}

/**
 * `chosen` less every blob that a blob staying in the store is read through: its base, that
 * base's base, and so on down its chain of deltas to a whole blob.
 */
function withoutBasesOfKept(paths: HistoryPaths, all: BlobFile[], chosen: BlobFile[]): BlobFile[] {
  if (chosen.length === 0) return chosen
  const store = new BlobStore(paths.blobs)
  const leaving = new Set(chosen.map((b) => b.hash))
  // Every blob in here has had its chain walked (or is being walked): a walk stops at one.
  const keptBases = new Set<string>()
  for (const blob of all) {
    if (leaving.has(blob.hash)) continue
    for (let hash: string | null = blob.hash; hash !== null;) {
      let base: string | null
      try {
        base = store.baseOf(hash)
      } catch {
        break // gone meanwhile: nothing of it to keep readable
      }
      if (base === null || keptBases.has(base)) break
      keptBases.add(base)
      hash = base
    }
  }
  return chosen.filter((b) => !keptBases.has(b.hash))
}

/**
 * Each session's last journal, its last recorded one (what undo reads: a later restore that
 * failed and was rolled back leaves the one before it undoable), every unfinished one, and those
 * within reach of a session's undo and redo.
 */
function journalsToKeep(journals: RestoreJournal[], withinReach: Set<string>): RestoreJournal[] {
  const lastOf = new Map<string, RestoreJournal>()
  const lastRecordedOf = new Map<string, RestoreJournal>()
  for (const j of journals) {
    lastOf.set(j.sessionId, j)
    if (j.state === 'recorded') lastRecordedOf.set(j.sessionId, j)
  }
  return journals.filter(
    (j) =>
      lastOf.get(j.sessionId) === j ||
      lastRecordedOf.get(j.sessionId) === j ||
      j.state === 'pending' ||
      j.state === 'applied' ||
      withinReach.has(j.id)
  )
}

/** What one session's records name: kept per session log, read again only when it changed. */
const SessionBlobs = z.object({
  /** Checkpoints on its active path. */
  checkpoints: z.number().int(),
  /** Every blob its file_change records name, on every branch. */
  referenced: z.array(z.string()),
  /** The blobs the latest `keep` checkpoints of its active path need. */
  keep: z.number().int(),
  needed: z.array(z.string()),
  /** The restore journals its undo and redo can still reach (rewind/timeline.ts). */
  withinReach: z.array(z.string())
})
type SessionBlobs = z.infer<typeof SessionBlobs>

/**
 * The sessions whose backups are in file-history/<workspace>: those in sessions/<workspace>,
 * whatever workspace their header names (an older folder is shared by every workspace whose
 * path encodes the same, and by their backups). A file with no header (empty) names no blob.
 *
 * What each names is cached under the data home (sources/file-cache.ts) by its log's size and
 * mtime: the daily gc and du open only the logs that changed since they last looked.
 */
function sessionsOf(home: string, workspace: string, keep: number) {
  const folder = join(home, 'sessions', workspace)
  const cache = new KeyedFileCache(
    home,
    'blobs',
    folder,
    (v): v is SessionBlobs => SessionBlobs.safeParse(v).success
  )
  cache.refresh()
  // The folder's logs by name and stamp alone, not through the session index: its summaries
  // are not needed here, and building them read every log a second time (in a worker beside a
  // host whose list was building the same index: background-retention.ts).
  const listed = jsonlFilesIn(folder).flatMap((name) => {
    const named = parseSessionFileName(name)
    const file = join(folder, name)
    const stamp = named === null ? null : regularFileStampAt(file)
    if (named === null || stamp === null) return []
    const cached = cache.get(name)
    let usage = cached?.value
    if (cached === undefined || !sameStamp(cached.stamp, stamp) || cached.value.keep !== keep) {
      try {
        usage = blobsNamedBy(file, keep)
      } catch {
        return [] // no session (no usable header) or unreadable: it names nothing we can know
      }
      cache.set(name, stamp, usage)
    }
    return [{ ...named, file, name, usage: usage as SessionBlobs }]
  })
  cache.keepOnly(new Set(listed.map((s) => s.name)))
  cache.save()
  return listed
}

function blobsNamedBy(file: string, keep: number): SessionBlobs {
  const store = SessionStore.open(file, { readOnly: true })
  try {
    const tree = store.tree()
    const hashes = (records: { before: string | null; after: string | null }[]) => [
      ...new Set(records.flatMap((r) => [r.before, r.after]).filter((h): h is string => h !== null))
    ]
    const path = tree.activePath()
    const prompts = path.filter(isPrompt)
    const first = keep > 0 ? prompts.at(-keep) : undefined
    const recent = keep <= 0 ? [] : first === undefined ? path : path.slice(path.indexOf(first))
    return {
      checkpoints: tree.checkpoints().length,
      referenced: hashes(fileChangeRecords(tree)),
      keep,
      needed: hashes(changesAlong(tree, recent)),
      withinReach: [...journalsWithinReach(tree)]
    }
  } finally {
    store.close()
  }
}

interface StoredBlobs {
  /** Every blob of the workspace: loose ones, then packed ones not also loose. */
  blobs: BlobFile[]
  /** Temp files of loose blobs a writer left (killed between their write and rename). */
  temps: { file: string; mtimeMs: number }[]
  /** What each pack file holds. */
  packs: Map<string, PackedBlob[]>
}

async function listBlobs(paths: HistoryPaths): Promise<StoredBlobs> {
  const blobs: BlobFile[] = []
  const packs = new Map<string, PackedBlob[]>()
  const temps: StoredBlobs['temps'] = []
  let shards: string[]
  try {
    shards = await fs.readdir(paths.blobs)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { blobs, packs, temps }
    throw error
  }
  for (const shard of shards.filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    for (const name of await fs.readdir(join(paths.blobs, shard))) {
      if (LOOSE_TEMP_NAME.test(name)) {
        const file = join(paths.blobs, shard, name)
        const stats = await fs.stat(file).catch(() => null)
        if (stats !== null) temps.push({ file, mtimeMs: stats.mtimeMs })
        continue
      }
      if (!/^[0-9a-f]{64}$/.test(name)) continue
      const file = join(paths.blobs, shard, name)
      const stats = await fs.stat(file)
      blobs.push({ hash: name, file, bytes: stats.size, mtimeMs: stats.mtimeMs })
    }
  }
  const loose = new Map(blobs.map((b) => [b.hash, b]))
  const packed = new Map<string, BlobFile>()
  for (const pack of listPacks(packsDir(paths.blobs))) {
    const entries = readPackIndex(pack)
    packs.set(pack, entries)
    for (const blob of entries) {
      // A blob loose and packed counts once, as loose, by its last use: the loose copy was used
      // again since it was packed, or a batch packed again one it found only loose (blob-store.ts
      // store). One in two packs (copied into a new one when used again) counts once, by its last
      // use.
      const looseCopy = loose.get(blob.hash)
      if (looseCopy !== undefined) {
        looseCopy.mtimeMs = Math.max(looseCopy.mtimeMs, blob.usedMs)
        continue
      }
      const known = packed.get(blob.hash)
      if (known !== undefined) {
        known.mtimeMs = Math.max(known.mtimeMs, blob.usedMs)
        continue
      }
      const file: BlobFile = {
        hash: blob.hash,
        file: null,
        bytes: blob.length,
        mtimeMs: blob.usedMs
      }
      packed.set(blob.hash, file)
      blobs.push(file)
    }
  }
  return { blobs, packs, temps }
}

/** A loose blob's temp file: `<hash>.<pid>-<n>.tmp` (blob-store.ts writeNewFile). */
const LOOSE_TEMP_NAME = /^[0-9a-f]{64}\.\d+-\d+\.tmp$/

/** Loose blobs packed together at most once per gc, and only when there are enough to pay. */
const MIN_BLOBS_TO_PACK = 16

/**
 * Moves loose blobs nobody used lately into one new pack file, then removes the loose files:
 * thousands of small backups stop taking a disk block each. Returns how many were packed.
 */
async function packIdleBlobs(
  paths: HistoryPaths,
  store: BlobStore,
  idle: BlobFile[],
  doomed: ReadonlySet<string>
): Promise<number> {
  if (idle.length < MIN_BLOBS_TO_PACK) return 0
  const entries: { hash: string; bytes: Buffer; usedMs: number; file: string }[] = []
  for (const blob of idle) {
    if (blob.file === null) continue
    try {
      // A raw blob (an unsettled pack's, used again and so written loose) is packed settled.
      const bytes = await fs.readFile(blob.file)
      entries.push({
        hash: blob.hash,
        bytes: store.settled(blob.hash, bytes, doomed) ?? bytes,
        usedMs: blob.mtimeMs,
        file: blob.file
      })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  writePack(packsDir(paths.blobs), entries)
  // Only once the pack is durable: a crash before this leaves each blob both loose and packed.
  for (const entry of entries) await fs.rm(entry.file, { force: true })
  // Emptied shard folders go too (a folder is a disk block); a store that writes there again
  // makes its folder anew.
  for (const shard of new Set(entries.map((e) => dirname(e.file)))) {
    await fs.rmdir(shard).catch(() => undefined)
  }
  return entries.length
}

/**
 * Rewrites each pack that holds a doomed blob without it (a pack never changes in place), and
 * each unsettled pack with its raw blobs settled (blob-store.ts), and drops packs left empty.
 * The new pack is durable before the old one goes: a crash in between leaves a blob in both,
 * each copy rebuilding the same content.
 */
function rewritePacks(
  paths: HistoryPaths,
  store: BlobStore,
  byPack: Map<string, PackedBlob[]>,
  blobs: BlobFile[],
  doomed: Set<string>
): void {
  const loose = new Map(blobs.flatMap((b) => (b.file === null ? [] : [[b.hash, b.file] as const])))
  for (const [pack, entries] of byPack) {
    // Packed copies of blobs that are also loose are dropped too; the loose copy keeps the later
    // use of the two (listBlobs), set before the packed copy goes.
    const keep = entries.filter((e) => !doomed.has(e.hash) && !loose.has(e.hash))
    const unsettled = isUnsettledPack(pack)
    if (keep.length === entries.length && !unsettled) continue
    for (const e of entries) {
      const file = doomed.has(e.hash) ? undefined : loose.get(e.hash)
      if (file !== undefined) keepLaterUse(file, e.usedMs)
    }
    if (keep.length > 0) {
      // In pack order, so a file's earlier version is settled before the later ones made from it.
      writePack(
        packsDir(paths.blobs),
        keep.map((e) => {
          const bytes = readPacked(e)
          return {
            hash: e.hash,
            bytes: store.settled(e.hash, bytes, doomed) ?? bytes,
            usedMs: e.usedMs
          }
        })
      )
    }
    rmSync(pack, { force: true })
  }
}

/**
 * Gives a loose blob the mtime `usedMs` when that is later than its own (gone: nothing to do).
 * Its mtime is read again, not taken from listBlobs: a session may have used it since.
 */
function keepLaterUse(file: string, usedMs: number): void {
  const stats = statSync(file, { throwIfNoEntry: false })
  if (stats === undefined || stats.mtimeMs >= usedMs) return
  const time = new Date(usedMs)
  utimesSync(file, time, time)
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0)
}
