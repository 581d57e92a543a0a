// Detects what a command (Bash, or any tool that bypasses Write/Edit) created, modified or
// deleted in the workspace. The first call takes a baseline: a stat manifest of every tracked
// file plus a backup of its content (the one-time cost: a later change by a command must have
// its "before" content at hand). After that, each call re-stats only what the watcher saw move,
// hashes only files whose stat changed, and backs up only content the store does not hold yet;
// its cost follows the number of paths that moved, not the size of the workspace.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { type BlobBatch, type BlobStore, sha256 } from './blob-store'
import { FolderSet, parentOf } from './folder-set'
import { IgnoreRules } from './ignore-rules'
import {
  type FileStat,
  sameStat,
  scanTree,
  scanUnnamed,
  statOf,
  uncheckableReason,
  type UnnamedFiles,
  yieldToEventLoop
} from './workspace-scan'
import type { WorkspaceWatcher } from './workspace-watcher'

interface Entry {
  stat: FileStat
  /** sha256 of the content; null when the file is over the size cap (not backed up). */
  hash: string | null
}

export type DetectedChange =
  | {
      kind: 'tracked'
      path: string
      before: string | null
      after: string | null
      /** Permission bits with `before` / `after` (absent where the file did not exist). */
      beforeMode?: number | undefined
      afterMode?: number | undefined
    }
  | { kind: 'untracked'; path: string; reason: string }

const UNNAMED_REASON = 'its name is not valid UTF-8, and file history records UTF-8 names only'

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/** Files hashed and backed up between two yields to the event loop. */
const FILES_PER_BATCH = 64

/** The tracked files by path, and by folder so "everything under a/b" costs no full scan. */
class Manifest {
  readonly files = new Map<string, Entry>()
  private readonly byDir = new Map<string, Set<string>>()
  /** The folders of byDir, linked so the ones under a path are found without visiting the rest. */
  private readonly dirs = new FolderSet()

  set(rel: string, entry: Entry): void {
    this.files.set(rel, entry)
    const dir = parentOf(rel)
    const set = this.byDir.get(dir)
    if (set !== undefined) set.add(rel)
    else {
      this.byDir.set(dir, new Set([rel]))
      this.dirs.add(dir)
    }
  }

  delete(rel: string): void {
    if (!this.files.delete(rel)) return
    const dir = parentOf(rel)
    const set = this.byDir.get(dir)
    set?.delete(rel)
    if (set?.size === 0) {
      this.byDir.delete(dir)
      this.dirs.delete(dir)
    }
  }

  /** The entries at `rel` (a file) or below it (a folder). */
  under(rel: string): Map<string, Entry> {
    const found = new Map<string, Entry>()
    const file = this.files.get(rel)
    if (file !== undefined) found.set(rel, file)
    for (const dir of this.dirs.under(rel)) {
      for (const path of this.byDir.get(dir) ?? []) {
        const entry = this.files.get(path)
        if (entry !== undefined) found.set(path, entry)
      }
    }
    return found
  }
}

export class WorkspaceChanges {
  private manifest: Manifest | null = null
  /**
   * Files under names that are not UTF-8, per tracked folder holding such names (see
   * workspace-scan.ts): compared by stat only, their changes reported as not tracked. No watch
   * reaches inside such a folder, so every refresh re-reads these folders (there are few).
   */
  private unnamed = new Map<string, UnnamedFiles>()
  /**
   * Paths the system refuses to look at (longer than PATH_MAX), with why: reported as not
   * tracked when found or when their area moves, never a reason to drop the other changes.
   * What the manifest holds under them is kept as it is (it cannot be checked either).
   */
  private unchecked = new Map<string, string>()
  private rules: IgnoreRules
  /** Set during a refresh that must not stop at a failed backup (see refresh). */
  private unstored: string[] | null = null
  /** Where a refresh's backups go (see refresh). */
  private batch: BlobBatch | null = null

  constructor(
    private readonly root: string,
    private readonly blobs: BlobStore,
    private readonly watcher: WorkspaceWatcher,
    private readonly sizeCapBytes: number
  ) {
    this.rules = new IgnoreRules(root)
  }

  /**
   * Brings the manifest up to date and returns what changed since the previous call (nothing on
   * the first call, which takes the baseline). A backup failure throws, which refuses a command
   * about to run. After a command (`unstored` given) there is nothing left to refuse: a change
   * whose new content cannot be stored is still returned (its hash names no blob) and the path
   * and reason go to `unstored`. Stopping there instead would leave the manifest half updated
   * and the command's changes recorded nowhere, so no rewind could put those files back.
   */
  async refresh(unstored?: string[]): Promise<DetectedChange[]> {
    this.unstored = unstored ?? null
    // One batch per refresh: a baseline or a command that changed many files writes one pack,
    // not a file per backup. Committed before the changes are returned (and recorded), and also
    // when the refresh fails: the manifest may name what the batch holds.
    const batch = this.blobs.openBatch()
    this.batch = batch
    try {
      let changes: DetectedChange[]
      try {
        changes = await this.refreshManifest()
      } catch (error) {
        this.commitOrForget(batch)
        throw error
      }
      try {
        batch.commit()
      } catch (error) {
        // The manifest names backups that are not there: the next refresh takes a new baseline.
        this.manifest = null
        if (this.unstored === null) throw error
        for (const change of changes) {
          if (change.kind === 'tracked' && change.after !== null) {
            this.unstored.push(`${change.path} (${(error as Error).message})`)
          }
        }
      }
      return changes
    } finally {
      this.unstored = null
      this.batch = null
    }
  }

  private commitOrForget(batch: BlobBatch): void {
    try {
      batch.commit()
    } catch {
      batch.abort()
      this.manifest = null
    }
  }

  private async refreshManifest(): Promise<DetectedChange[]> {
    if (this.manifest === null) {
      this.watcher.take()
      const manifest = new Manifest()
      await this.fullScan(manifest)
      this.manifest = manifest
      return []
    }
    await this.watcher.flush()
    const dirty = this.watcher.take()
    const changes =
      dirty === 'everything' || [...dirty].some((p) => p.endsWith('.gitignore'))
        ? await this.fullScan(this.manifest)
        : await this.partialScan(this.manifest, dirty)
    return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  private async fullScan(manifest: Manifest): Promise<DetectedChange[]> {
    // .gitignore files may have changed: read them afresh.
    this.rules = new IgnoreRules(this.root)
    this.watcher.unwatchUnder('')
    const scan = await scanTree(this.root, this.rules)
    this.watcher.watchDirs(scan.dirs)
    const known = new Map(manifest.files)
    for (const path of known.keys()) if (isUnder(path, scan.unchecked)) known.delete(path)
    const changes = await this.update(manifest, known, scan.files)
    // Only the ones not known before: a full scan runs for many reasons, not because they moved.
    for (const [path, reason] of scan.unchecked) {
      if (!this.unchecked.has(path)) changes.push({ kind: 'untracked', path, reason })
    }
    this.unchecked = scan.unchecked
    const holders = new Set([...this.unnamed.keys(), ...scan.unnamed.keys()])
    return [...changes, ...this.updateUnnamed(holders, scan.unnamed)]
  }

  private async partialScan(manifest: Manifest, dirty: Set<string>): Promise<DetectedChange[]> {
    const changes: DetectedChange[] = []
    // Folders to look at for names that are not UTF-8: those that held some, and those where
    // the watcher saw a name it could only give as U+FFFD.
    const holders = new Set(this.unnamed.keys())
    const fresh = new Map<string, UnnamedFiles>()
    for (const rel of dirty) {
      if (rel.includes('\uFFFD')) holders.add(parentOf(rel))
      // A path ignored as a file and as a folder is tracked neither way: not even looked at.
      const ignored = this.rules.isIgnored(rel, false) && this.rules.isIgnored(rel, true)
      // A tracked file is usually there, changed: opened at once. Any other path (a new file,
      // or a temp file already gone, as `sed -i` leaves one per file) is lstat'ed first, which
      // costs no exception when there is nothing.
      const abs = join(this.root, rel)
      for (const path of this.unchecked.keys()) {
        if (path === rel || path.startsWith(`${rel}/`)) this.unchecked.delete(path)
      }
      let found: Found
      try {
        found = ignored
          ? { kind: 'none' }
          : manifest.files.has(rel)
            ? openFound(abs, { unreadable: 'lstat' })
            : lstatFound(abs)
      } catch (error) {
        // Too long a path to look at: said so, and the command's other paths go on.
        const reason = uncheckableReason(error)
        if (reason === null) throw error
        this.unchecked.set(rel, reason)
        changes.push({ kind: 'untracked', path: rel, reason })
        continue
      }
      try {
        // A folder that moved or vanished takes its watches along; a new one gets watched.
        this.watcher.unwatchUnder(rel)
        const now = new Map<string, FileStat>()
        const known = manifest.under(rel)
        let opened: { path: string; fd: number } | undefined
        if (found.kind === 'folder' && !this.rules.isIgnored(rel, true)) {
          const scan = await scanTree(this.root, this.rules, rel)
          this.watcher.watchDirs(scan.dirs)
          for (const [path, stat] of scan.files) now.set(path, stat)
          for (const [holder, files] of scan.unnamed) {
            holders.add(holder)
            fresh.set(holder, files)
          }
          for (const [path, reason] of scan.unchecked) {
            this.unchecked.set(path, reason)
            changes.push({ kind: 'untracked', path, reason })
          }
          for (const path of known.keys()) if (isUnder(path, scan.unchecked)) known.delete(path)
        } else if (found.kind === 'file' && !this.rules.isIgnored(rel, false)) {
          now.set(rel, found.stat)
          if (found.fd !== null) opened = { path: rel, fd: found.fd }
        }
        changes.push(...(await this.update(manifest, known, now, opened)))
      } finally {
        if (found.kind === 'file' && found.fd !== null) closeSync(found.fd)
      }
    }
    return [...changes, ...this.updateUnnamed(holders, fresh)]
  }

  /**
   * Brings the unnamed files of `holders` up to date (from `fresh` where a scan just read them,
   * read afresh otherwise) and reports each one created, changed or gone as not tracked.
   */
  private updateUnnamed(
    holders: Iterable<string>,
    fresh: Map<string, UnnamedFiles>
  ): DetectedChange[] {
    const changes: DetectedChange[] = []
    for (const holder of holders) {
      const before = this.unnamed.get(holder) ?? new Map<string, FileStat>()
      const now = fresh.get(holder) ?? scanUnnamed(this.root, this.rules, holder)
      for (const path of new Set([...before.keys(), ...now.keys()])) {
        const was = before.get(path)
        const is = now.get(path)
        if (was !== undefined && is !== undefined && sameStat(was, is)) continue
        changes.push({ kind: 'untracked', path, reason: UNNAMED_REASON })
      }
      if (now.size === 0) this.unnamed.delete(holder)
      else this.unnamed.set(holder, now)
    }
    return changes
  }

  /**
   * Makes `manifest` agree with `now` over the paths of `known` ∪ `now`: unchanged stats are
   * kept, the rest hashed and backed up (`opened`: a file of `now` already open, its stat that
   * descriptor's). Returns the changes.
   */
  private async update(
    manifest: Manifest,
    known: Map<string, Entry>,
    now: Map<string, FileStat>,
    opened?: { path: string; fd: number }
  ): Promise<DetectedChange[]> {
    const changes: DetectedChange[] = []
    for (const [path, before] of known) {
      if (now.has(path)) continue
      manifest.delete(path)
      this.report(changes, path, before, undefined)
    }
    let hashed = 0
    for (const [path, stat] of now) {
      const before = known.get(path)
      if (before !== undefined && sameStat(before.stat, stat)) continue
      const after = this.backUp(path, stat, before?.hash, opened?.path === path ? opened.fd : null)
      if (after === null) manifest.delete(path)
      else manifest.set(path, after)
      this.report(changes, path, before, after ?? undefined)
      if (++hashed % FILES_PER_BATCH === 0) await yieldToEventLoop()
    }
    return changes
  }

  private report(
    changes: DetectedChange[],
    path: string,
    before: Entry | undefined,
    after: Entry | undefined
  ): void {
    if (before?.hash === null || after?.hash === null) {
      const cap = Math.round(this.sizeCapBytes / 1_000_000)
      changes.push({ kind: 'untracked', path, reason: `larger than the ${cap} MB backup cap` })
      return
    }
    const beforeHash = before?.hash ?? null
    const afterHash = after?.hash ?? null
    if (beforeHash !== afterHash) {
      changes.push({
        kind: 'tracked',
        path,
        before: beforeHash,
        after: afterHash,
        beforeMode: before?.stat.mode,
        afterMode: after?.stat.mode
      })
    }
  }

  /**
   * `previous`: the hash the manifest had for the file, the base its new version is stored as a
   * delta of; `opened`: the file open already, `stat` its descriptor's. null when the path holds
   * no regular file any more.
   */
  private backUp(
    path: string,
    stat: FileStat,
    previous: string | null | undefined,
    opened: number | null
  ): Entry | null {
    if (stat.size > this.sizeCapBytes) return { stat, hash: null }
    // One descriptor for the stat and the read: the stat kept is the one taken before the bytes
    // were read, so a write during the read shows as a changed stat next time (read again), never
    // as a new stat beside old bytes.
    let now = stat
    let content: Buffer
    if (opened !== null) content = readAll(opened, stat.size)
    else {
      // A file it cannot read fails here, refusing the command (or listed as not stored).
      const found = openFound(join(this.root, path), { unreadable: 'throw' })
      if (found.kind !== 'file' || found.fd === null) return null
      try {
        now = found.stat
        if (now.size > this.sizeCapBytes) return { stat: now, hash: null }
        content = readAll(found.fd, now.size)
      } finally {
        closeSync(found.fd)
      }
    }
    if (content.length > this.sizeCapBytes) return { stat: now, hash: null }
    try {
      const hint = { previous, path }
      return { stat: now, hash: (this.batch ?? this.blobs).put(content, hint) }
    } catch (error) {
      if (this.unstored === null) throw error
      this.unstored.push(`${path} (${(error as Error).message})`)
      return { stat: now, hash: sha256(content) }
    }
  }
}

/** Whether `path` is one of `paths` or lies below one of them. */
function isUnder(path: string, paths: ReadonlyMap<string, unknown>): boolean {
  if (paths.size === 0) return false
  for (let at = path; ; at = parentOf(at)) {
    if (paths.has(at)) return true
    if (at === '') return false
  }
}

/**
 * What a path holds, by one open and fstat (the usual dirty path is a changed file, read next
 * through the same descriptor: no lstat first). A regular file is left open for the caller to
 * close; fd null where it cannot be opened (no read permission), its stat then lstat's. Not
 * through a symlink (ELOOP: not tracked), and no wait on a FIFO put there (O_NONBLOCK).
 */
type Found = { kind: 'file'; fd: number | null; stat: FileStat } | { kind: 'folder' | 'none' }

function openFound(abs: string, options: { unreadable: 'lstat' | 'throw' }): Found {
  let fd: number
  try {
    fd = openSync(abs, READ_FLAGS)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // ELOOP: a symlink; ENXIO: a socket.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENXIO') {
      return { kind: 'none' }
    }
    if ((code !== 'EACCES' && code !== 'EPERM') || options.unreadable === 'throw') throw error
    // Unreadable: what it is comes from lstat (a folder is then walked as before; a file fails
    // where it is read, as before).
    return lstatFound(abs)
  }
  let stats: Stats
  try {
    stats = fstatSync(fd)
  } catch (error) {
    closeSync(fd)
    throw error
  }
  if (stats.isFile()) return { kind: 'file', fd, stat: statOf(stats) }
  closeSync(fd)
  return { kind: stats.isDirectory() ? 'folder' : 'none' }
}

/** What a path holds, by lstat: a file is not opened (fd null). */
function lstatFound(abs: string): Found {
  let stats: Stats | undefined
  try {
    stats = lstatSync(abs, { throwIfNoEntry: false })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error
  }
  if (stats?.isDirectory() === true) return { kind: 'folder' }
  return stats?.isFile() === true
    ? { kind: 'file', fd: null, stat: statOf(stats) }
    : { kind: 'none' }
}

/**
 * The content of the regular file open at `fd`, whose size a stat just gave: one read where the
 * size still holds (a read of one byte more that comes back short is the end of the file),
 * where readFileSync stats again and reads once more to see the end.
 */
function readAll(fd: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafe(size + 1)
  let length = 0
  for (;;) {
    const wanted = buffer.length - length
    const read = readSync(fd, buffer, length, wanted, null)
    length += read
    if (read === 0 || (read < wanted && length === size)) return buffer.subarray(0, length)
    // Grown since the stat: read on until the end, in a bigger buffer.
    if (length === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2)
      buffer.copy(bigger, 0, 0, length)
      buffer = bigger
    }
  }
}
