// Detects what a command (Bash, or any tool that bypasses Write/Edit) created, modified or
// deleted in the workspace. The first call takes a baseline: a stat manifest of every tracked
// file plus a backup of its content (the one-time cost: a later change by a command must have
// its "before" content at hand). After that, each call re-stats only what the watcher saw move,
// hashes only files whose stat changed, and backs up only content the store does not hold yet;
// its cost follows the number of paths that moved, not the size of the workspace.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs'
import { basename, join } from 'node:path'
import { type BlobBatch, type BlobStore, sha256 } from './blob-store'
import { FolderMap, FolderSet, isUnder, parentOf } from './folder-set'
import { IgnoreRules } from './ignore-rules'
import { SeenFolders } from './seen-folders'
import { isGitFolderName } from '../os/git-folder-name'
import { workspacePathAsWritten } from './workspace-paths'
import {
  type IgnoredFilesPolicy,
  MAX_IGNORED_FILES_KNOWN,
  MAX_IGNORED_FOLDERS,
  type NotBackedUpReason,
  type UnbackedChange,
  folderName,
  ignoredFilesPolicy
} from './ignored-files'
import {
  type FileStat,
  type ScanResult,
  emptyScan,
  sameStat,
  scanTree,
  scanUnnamed,
  statOf,
  uncheckableReason,
  type UnnamedFiles
} from './workspace-scan'
import type { WorkspaceWatcher } from './workspace-watcher'
import { yieldToEventLoop } from '../os/event-loop'

interface Entry {
  stat: FileStat
  /** sha256 of the content; null when it is not backed up (`held` says why). */
  hash: string | null
  held?: 'size' | 'budget'
  /** Git ignores it: backed up within the budget only (ignored-files.ts). */
  ignored?: true
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
  /** A folder that was not there at the last look (made, or moved in: seen-folders.ts). */
  | { kind: 'folder'; path: string }
  /** A change to what git ignores that was not backed up, named by its folder. */
  | ({ kind: 'unbacked' } & UnbackedChange)

const UNNAMED_REASON = 'its name is not valid UTF-8, and file history records UTF-8 names only'

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/** Files hashed and backed up between two yields to the event loop. */
const FILES_PER_BATCH = 64

/** The files by path, and by folder so "everything under a/b" costs no full scan. */
class Manifest {
  readonly files = new Map<string, Entry>()
  /** Ignored files held, and those of them backed up (their count and bytes: the budget). */
  ignoredKnown = 0
  backedUp = { files: 0, bytes: 0 }
  private readonly byDir = new Map<string, Set<string>>()
  /** The folders of byDir, linked so the ones under a path are found without visiting the rest. */
  private readonly dirs = new FolderSet()

  set(rel: string, entry: Entry): void {
    const old = this.files.get(rel)
    if (old !== undefined) this.count(old, -1)
    this.count(entry, 1)
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
    const old = this.files.get(rel)
    if (old === undefined) return
    this.count(old, -1)
    this.files.delete(rel)
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

  private count(entry: Entry, sign: 1 | -1): void {
    if (entry.ignored !== true) return
    this.ignoredKnown += sign
    if (entry.hash === null) return
    this.backedUp.files += sign
    this.backedUp.bytes += sign * entry.stat.size
  }
}

/** What a scan of part of the workspace found about what git ignores there (see merge). */
type IgnoredArea = Pick<ScanResult, 'ignoredDirs' | 'skipped' | 'unread'>

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
  /** Ignored folders read (and watched), and skip folders watched: the folder each is named under. */
  private ignoredDirs = new FolderMap<string>()
  /** The skip folders among ignoredDirs: watched for their own entries, never read. */
  private skipDirs = new Set<string>()
  /** Ignored folders left unread (past the room): named when their area moves. */
  private unreadDirs = new FolderMap<string>()
  /** The folders seen at the last look: a command's new ones are named. */
  private readonly folders = new SeenFolders()
  /** Paths named by file_change records: covered whatever the budget (pin). */
  private readonly pinned = new Set<string>()
  /**
   * Pinned paths no watch vouches for (not in the manifest, or in a folder not watched: inside
   * a skip folder, past the room): looked at directly by every refresh. Few.
   */
  private loose = new Set<string>()
  private rules: IgnoreRules
  /** Set during a refresh that must not stop at a failed backup (see refresh). */
  private unstored: string[] | null = null
  /** Where a refresh's backups go (see refresh). */
  private batch: BlobBatch | null = null

  constructor(
    private readonly root: string,
    private readonly blobs: BlobStore,
    private readonly watcher: WorkspaceWatcher,
    private readonly sizeCapBytes: number,
    private readonly policy: IgnoredFilesPolicy = ignoredFilesPolicy()
  ) {
    this.rules = new IgnoreRules(root)
  }

  /**
   * Paths file_change records name (a Write's, a command's, a restore's): each stays covered
   * from now on, in a skip folder or past the budget too, so that what a tool backed up once can
   * always be restored. Seen from the next refresh.
   */
  pin(paths: Iterable<string>): void {
    for (const path of paths) {
      if (this.pinned.has(path) || !isWorkspacePath(this.root, path)) continue
      this.pinned.add(path)
      this.loose.add(path)
    }
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
      await this.checkLoose(manifest)
      this.manifest = manifest
      return []
    }
    await this.watcher.flush()
    const dirty = this.watcher.take()
    const changes =
      dirty === 'everything' || [...dirty].some((p) => this.movesRules(p))
        ? await this.fullScan(this.manifest)
        : await this.partialScan(this.manifest, dirty)
    changes.push(...(await this.checkLoose(this.manifest)))
    const key = (c: DetectedChange) => (c.kind === 'unbacked' ? c.folder : c.path)
    return changes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  }

  /** A .gitignore that decides what is tracked (none inside an ignored folder does). */
  private movesRules(rel: string): boolean {
    return rel.endsWith('.gitignore') && this.ignoredDirs.get(parentOf(rel)) === undefined
  }

  private async fullScan(manifest: Manifest): Promise<DetectedChange[]> {
    // .gitignore files may have changed: read them afresh.
    this.rules = new IgnoreRules(this.root)
    this.watcher.unwatchUnder('')
    const scan = await scanTree(this.root, this.rules, '', {
      skipFolders: this.policy.skipFolders,
      filesLeft: MAX_IGNORED_FILES_KNOWN,
      foldersLeft: MAX_IGNORED_FOLDERS
    })
    this.watcher.watchDirs([...scan.dirs, ...scan.skipped])
    const before = { unread: this.unreadDirs.takeUnder(''), skipped: this.skipDirs }
    this.ignoredDirs.takeUnder('')
    this.skipDirs = new Set()
    this.merge(scan)
    const known = new Map(manifest.files)
    for (const path of known.keys()) if (isUnder(path, scan.unchecked)) known.delete(path)
    const changes = await this.update(manifest, known, scan.files, scan.ignored, {
      walked: { dirs: new Set(scan.dirs), partial: scan.partial }
    })
    changes.push(...this.foldersWalked('', scan, [...before.unread.keys(), ...before.skipped]))
    // Only what is new: a full scan runs for many reasons, not because these moved.
    for (const [path, reason] of scan.unchecked) {
      if (!this.unchecked.has(path)) changes.push({ kind: 'untracked', path, reason })
    }
    this.unchecked = scan.unchecked
    for (const [dir, folder] of scan.unread) {
      if (!before.unread.has(dir)) changes.push(unbacked(folder, 'unread'))
    }
    for (const dir of scan.skipped) {
      if (!before.skipped.has(dir)) changes.push(unbacked(dir, 'skipped'))
    }
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
      // Never a .git folder (a watched folder is none, so only the last name can be one).
      if (isGitFolderName(basename(rel))) continue
      if (rel.includes('\uFFFD')) holders.add(parentOf(rel))
      const parent = parentOf(rel)
      // Inside a skip folder (watched for its own entries only): never looked at, but for the
      // pinned files there, which checkLoose looks at.
      if (this.skipDirs.has(parent)) {
        if (!this.pinned.has(rel)) changes.push(unbacked(parent, 'skipped'))
        for (const path of manifest.under(rel).keys()) this.loose.add(path)
        continue
      }
      // The folder the changes of an ignored path are named under; null while it is tracked.
      const group = this.ignoredDirs.get(parent) ?? null
      // A tracked file is usually there, changed: opened at once. Any other path (a new file,
      // or a temp file already gone, as `sed -i` leaves one per file) is lstat'ed first, which
      // costs no exception when there is nothing.
      const abs = join(this.root, rel)
      for (const path of this.unchecked.keys()) {
        if (path === rel || path.startsWith(`${rel}/`)) this.unchecked.delete(path)
      }
      let found: Found
      try {
        found = manifest.files.has(rel) ? openFound(abs, { unreadable: 'lstat' }) : lstatFound(abs)
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
        const known = manifest.under(rel)
        // What was known of the ignored folders there is found again, or gone (named below).
        const was = {
          unread: this.unreadDirs.takeUnder(rel),
          ignored: this.ignoredDirs.takeUnder(rel)
        }
        const skippedBefore = [...was.ignored.keys()].filter((dir) => this.skipDirs.delete(dir))
        let scan = emptyScan()
        let walked: Walked | undefined
        let opened: { path: string; fd: number } | undefined
        if (found.kind === 'folder') {
          scan = await this.scanFolder(manifest, rel, group, known)
          walked = { dirs: new Set(scan.dirs), partial: scan.partial }
          this.watcher.watchDirs([...scan.dirs, ...scan.skipped])
          changes.push(...this.foldersWalked(rel, scan, [...was.unread.keys(), ...skippedBefore]))
          for (const [holder, files] of scan.unnamed) {
            holders.add(holder)
            fresh.set(holder, files)
          }
          for (const [path, reason] of scan.unchecked) {
            this.unchecked.set(path, reason)
            changes.push({ kind: 'untracked', path, reason })
          }
          for (const path of known.keys()) if (isUnder(path, scan.unchecked)) known.delete(path)
          // A folder that appeared or moved: what is in it is new, seen or not.
          for (const folder of scan.unread.values()) changes.push(unbacked(folder, 'unread'))
          for (const dir of scan.skipped) changes.push(unbacked(dir, 'skipped'))
        } else if (found.kind === 'file') {
          this.folders.gone(rel)
          const ignored = group !== null || this.rules.isIgnored(rel, false)
          if (ignored && !known.has(rel) && manifest.ignoredKnown >= MAX_IGNORED_FILES_KNOWN) {
            changes.push(unbacked(group ?? parent, 'unread'))
          } else {
            scan.files.set(rel, found.stat)
            if (ignored) scan.ignored.add(rel)
            if (found.fd !== null) opened = { path: rel, fd: found.fd }
          }
        } else {
          this.folders.gone(rel)
          // Gone, with whatever file history did not read there.
          for (const folder of was.unread.values()) changes.push(unbacked(folder, 'unread'))
          for (const dir of skippedBefore) changes.push(unbacked(dir, 'skipped'))
        }
        this.merge(scan)
        changes.push(
          ...(await this.update(manifest, known, scan.files, scan.ignored, { walked, opened }))
        )
      } finally {
        if (found.kind === 'file' && found.fd !== null) closeSync(found.fd)
      }
    }
    return [...changes, ...this.updateUnnamed(holders, fresh)]
  }

  /**
   * Walks folder `rel` that appeared or moved (`group`: the folder its parent's ignored changes
   * are named under, null when the parent is tracked), with the room left for ignored files and
   * folders once what was known under it (`known`, and the folders taken out of the maps) is
   * given back.
   */
  private async scanFolder(
    manifest: Manifest,
    rel: string,
    group: string | null,
    known: Map<string, Entry>
  ): Promise<ScanResult> {
    const own = group ?? (this.rules.isIgnored(rel, true) ? rel : null)
    let ignoredHere = 0
    for (const entry of known.values()) if (entry.ignored === true) ignoredHere++
    const room = {
      skipFolders: this.policy.skipFolders,
      filesLeft: MAX_IGNORED_FILES_KNOWN - (manifest.ignoredKnown - ignoredHere),
      foldersLeft: MAX_IGNORED_FOLDERS - this.ignoredDirs.size
    }
    if (own !== null && (room.foldersLeft <= 0 || this.policy.skipFolders.has(basename(rel)))) {
      // A skip folder is watched for its own entries, never read; past the room, neither.
      const scan = emptyScan()
      if (room.foldersLeft <= 0) scan.unread.set(rel, own)
      else {
        scan.skipped.push(rel)
        scan.ignoredDirs.set(rel, rel)
      }
      return scan
    }
    // An ignored folder takes its own place in the room.
    if (own !== null) room.foldersLeft--
    return scanTree(this.root, this.rules, rel, room, own)
  }

  /**
   * The folders a walk of `rel` found that were not there (SeenFolders.walked); `notRead`: the
   * folders there that were left unread or skipped until now.
   */
  private foldersWalked(
    rel: string,
    scan: Pick<ScanResult, 'dirs' | 'skipped'>,
    notRead: readonly string[]
  ): DetectedChange[] {
    return this.folders
      .walked(rel, [...scan.dirs, ...scan.skipped], new Set(notRead))
      .map((path) => ({ kind: 'folder', path }))
  }

  /** Takes in what a scan found about ignored folders (their old entries were taken out). */
  private merge(scan: IgnoredArea): void {
    for (const [dir, folder] of scan.ignoredDirs) this.ignoredDirs.put(dir, folder)
    for (const dir of scan.skipped) this.skipDirs.add(dir)
    for (const [dir, folder] of scan.unread) this.unreadDirs.put(dir, folder)
  }

  /**
   * Looks at the loose paths directly (pinned files no watch vouches for) and records what
   * changed; those now in a watched folder are no longer loose.
   */
  private async checkLoose(manifest: Manifest): Promise<DetectedChange[]> {
    if (this.loose.size === 0) return []
    const now = emptyScan()
    const known = new Map<string, Entry>()
    for (const path of this.loose) {
      const entry = manifest.files.get(path)
      if (entry !== undefined) known.set(path, entry)
      let found: Found
      try {
        found = lstatInside(this.root, path)
      } catch (error) {
        if (uncheckableReason(error) === null) throw error
        continue
      }
      if (found.kind !== 'file') continue
      now.files.set(path, found.stat)
      if (entry?.ignored === true || this.isIgnoredFile(path)) now.ignored.add(path)
    }
    // What is not there was looked for: gone.
    const changes = await this.update(manifest, known, now.files, now.ignored)
    for (const path of this.loose) {
      if (manifest.files.has(path) && this.watcher.watching(parentOf(path))) {
        this.loose.delete(path)
      }
    }
    return changes
  }

  private isIgnoredFile(rel: string): boolean {
    return this.ignoredDirs.get(parentOf(rel)) !== undefined || this.rules.isIgnored(rel, false)
  }

  /** The folder a change to ignored file `rel` is named under. */
  private groupOf(rel: string): string {
    const parent = parentOf(rel)
    return this.ignoredDirs.get(parent) ?? this.unreadDirs.get(parent) ?? parent
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
   * kept, the rest hashed and backed up (`ignored`: the paths of `now` git ignores; `opened`: a
   * file of `now` already open, its stat that descriptor's). With `walked`, `now` is what a walk
   * found: a known file it did not meet in a folder it did not read whole (a skip folder, past
   * the room) is looked at directly; without, a known file not in `now` is gone. Returns the
   * changes.
   */
  private async update(
    manifest: Manifest,
    known: Map<string, Entry>,
    now: Map<string, FileStat>,
    ignored: Set<string>,
    options: { walked?: Walked | undefined; opened?: { path: string; fd: number } | undefined } = {}
  ): Promise<DetectedChange[]> {
    const { walked, opened } = options
    const changes: DetectedChange[] = []
    for (const [path, before] of known) {
      if (now.has(path)) continue
      const dir = parentOf(path)
      if (walked !== undefined && (!walked.dirs.has(dir) || walked.partial.has(dir))) {
        // Not met by the walk: there or not, only a look tells. No watch vouches for it now.
        const found = lstatInside(this.root, path)
        if (found.kind === 'file') {
          now.set(path, found.stat)
          if (before.ignored === true) ignored.add(path)
          this.loose.add(path)
          continue
        }
      }
      manifest.delete(path)
      this.report(changes, path, before, undefined)
    }
    let hashed = 0
    for (const [path, stat] of now) {
      const before = known.get(path)
      if (before !== undefined && sameStat(before.stat, stat)) {
        // A .gitignore changed: the same file, now ignored or tracked, counts that way.
        if ((before.ignored === true) !== ignored.has(path)) {
          const { ignored: _was, ...entry } = before
          manifest.set(path, ignored.has(path) ? { ...entry, ignored: true } : entry)
        }
        continue
      }
      const fd = opened?.path === path ? opened.fd : null
      const after = this.backUp(manifest, path, stat, before, ignored.has(path), fd)
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
    const held = before?.hash === null ? before.held : after?.hash === null ? after.held : undefined
    if (held === 'budget') {
      changes.push(unbacked(this.groupOf(path), 'budget', true))
      return
    }
    if (held === 'size') {
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
   * `before`: what the manifest had for the file (its hash the base its new version is stored as
   * a delta of); `ignored`: git ignores it, so it is backed up within the budget only, unless it
   * was before or a record names it; `opened`: the file open already, `stat` its descriptor's.
   * null when the path holds no regular file any more.
   */
  private backUp(
    manifest: Manifest,
    path: string,
    stat: FileStat,
    before: Entry | undefined,
    ignored: boolean,
    opened: number | null
  ): Entry | null {
    const kind: Pick<Entry, 'ignored'> = ignored ? { ignored: true } : {}
    if (stat.size > this.sizeCapBytes) return { stat, hash: null, held: 'size', ...kind }
    if (
      ignored &&
      (before?.hash ?? null) === null &&
      !this.pinned.has(path) &&
      (manifest.backedUp.files + 1 > this.policy.maxFiles ||
        manifest.backedUp.bytes + stat.size > this.policy.maxBytes)
    ) {
      return { stat, hash: null, held: 'budget', ignored: true }
    }
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
        if (now.size > this.sizeCapBytes) return { stat: now, hash: null, held: 'size', ...kind }
        content = readAll(found.fd, now.size)
      } finally {
        closeSync(found.fd)
      }
    }
    if (content.length > this.sizeCapBytes) return { stat: now, hash: null, held: 'size', ...kind }
    try {
      const hint = { previous: before?.hash, path }
      return { stat: now, hash: (this.batch ?? this.blobs).put(content, hint), ...kind }
    } catch (error) {
      if (this.unstored === null) throw error
      this.unstored.push(`${path} (${(error as Error).message})`)
      return { stat: now, hash: sha256(content), ...kind }
    }
  }
}

function unbacked(folderRel: string, reason: NotBackedUpReason, counted = false): DetectedChange {
  return { kind: 'unbacked', folder: folderName(folderRel), counted, reason }
}

/** The folders a walk read, and those of them it read in part. */
interface Walked {
  dirs: ReadonlySet<string>
  partial: ReadonlySet<string>
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

/** Whether `rel` may name a file of the workspace: a plain relative path, in no .git folder. */
function isWorkspacePath(root: string, rel: string): boolean {
  try {
    return workspacePathAsWritten(root, rel).rel === rel
  } catch {
    return false
  }
}

/**
 * What `rel` holds, looked at through no symlink: each folder on the way must be a folder (a
 * record's path, or one a walk met before a folder became a link, never leads a look out of the
 * workspace). None when one is not.
 */
function lstatInside(root: string, rel: string): Found {
  let at = root
  const parts = rel.split('/')
  for (const part of parts.slice(0, -1)) {
    at = join(at, part)
    if (lstatSync(at, { throwIfNoEntry: false })?.isDirectory() !== true) return { kind: 'none' }
  }
  return lstatFound(join(root, rel))
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
