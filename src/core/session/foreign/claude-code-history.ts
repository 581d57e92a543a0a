// Claude Code's file history as its transcript records it, for the reader (each turn's file
// changes) and for the rescue restore (the files as they were before a prompt).
//
// Claude Code backs a file up before changing it, in `<claude home>/file-history/<sessionId>/`
// under `<sha256(path)[:16]>@v<N>`, and records what it keeps:
// - before each user message, a `file-history-snapshot` (isSnapshotUpdate false) whose
//   `snapshot.messageId` is that message's uuid and whose `trackedFileBackups` maps every file it
//   tracks (a path relative to the session's cwd, or absolute) to its latest backup
//   `{backupFileName, version, backupTime}`; a file changed since its last backup gets a new one;
// - when a turn first changes a file it did not track yet, an update of that message's snapshot
//   (isSnapshotUpdate true, the whole map again plus the new file) whose backup is the content
//   before the change: `backupFileName: null` when the file did not exist;
// - from 2.1.220, the same back-fill as a `file-history-delta` line holding one file.
// So the snapshot of a message says how every file it lists was before that message. The content
// after a change is kept only by the next snapshot; after a branch's last message, nowhere.
// Records arrive in any order around their message (an update may come before the snapshot it
// updates), so a message's snapshot is the union of all of them, the base snapshot winning.
import { isObject, stringOrNull, type Json } from '../json'
import type { BackupStore, ForeignBackups, RestorePoint } from './types'

/** A backup file name as Claude Code writes it; anything else names no backup (never a path). */
const BACKUP_NAME = /^[A-Za-z0-9_-]{1,128}@v\d{1,9}$/

export function isBackupName(name: string): boolean {
  return BACKUP_NAME.test(name)
}

/**
 * The backup a snapshot entry names: its file name, null when the file did not exist, undefined
 * when the entry names none. A name that is no backup file name (a path, "..") is kept as it is:
 * the backup folder refuses to read it (rescue.ts), so the file is reported as one whose backup
 * is missing, never read from elsewhere.
 */
function refOf(entry: unknown): string | null | undefined {
  if (!isObject(entry)) return undefined
  const ref = entry.backupFileName
  return ref === null || typeof ref === 'string' ? ref : undefined
}

function versionOf(entry: unknown): number {
  return isObject(entry) && typeof entry.version === 'number'
    ? entry.version
    : Number.MAX_SAFE_INTEGER
}

/**
 * Opening a long session reads a snapshot per prompt listing every tracked file (hundreds), so
 * the snapshots are kept as parsed (the same objects the raw records hold) and looked into only
 * where asked: a turn's changes compare two of them entry by entry, and the maps the rescue
 * restore reads are built when it asks.
 */
export class ClaudeCodeFileHistory implements ForeignBackups {
  sessionId = ''
  /** Per message: its base snapshot's trackedFileBackups, as parsed. */
  private readonly base = new Map<string, Json>()
  /** Per message: the files its updates and deltas added, with their first backup. */
  private readonly added = new Map<string, Map<string, unknown>>()
  /** Each file's first backup as the updates and deltas gave it (a file is tracked by one). */
  private readonly first = new Map<string, { ref: string | null; version: number }>()

  /**
   * Takes a file-history record. Returns the message it is about and the files it says a turn
   * first changed (from an update or a delta), or null for a record that is neither.
   */
  add(v: Json): { messageId: string; firstChanges: [string, string | null][] } | null {
    if (v.type === 'file-history-delta') {
      const messageId = stringOrNull(v.messageId)
      const path = stringOrNull(v.trackingPath)
      const ref = refOf(v.backup)
      if (messageId === null || path === null || path === '' || ref === undefined) return null
      this.addFile(messageId, path, v.backup, ref)
      return { messageId, firstChanges: [[path, ref]] }
    }
    if (v.type !== 'file-history-snapshot' || !isObject(v.snapshot)) return null
    const messageId = stringOrNull(v.snapshot.messageId)
    const tracked = v.snapshot.trackedFileBackups
    if (messageId === null || !isObject(tracked)) return null
    if (v.isSnapshotUpdate !== true) {
      this.base.set(messageId, tracked)
      return { messageId, firstChanges: [] }
    }
    // An update repeats every file of the message's snapshot: the new ones are the files whose
    // backup the snapshot (when it came first) and the earlier updates did not list.
    const known = this.base.get(messageId)
    const into = this.added.get(messageId)
    const firstChanges: [string, string | null][] = []
    for (const path in tracked) {
      const entry = tracked[path]
      const ref = refOf(entry)
      if (path === '' || ref === undefined || into?.has(path) === true) continue
      if (known !== undefined && refOf(known[path]) === ref) continue
      this.addFile(messageId, path, entry, ref)
      firstChanges.push([path, ref])
    }
    return { messageId, firstChanges }
  }

  private addFile(messageId: string, path: string, entry: unknown, ref: string | null): void {
    let into = this.added.get(messageId)
    if (into === undefined) {
      into = new Map()
      this.added.set(messageId, into)
    }
    into.set(path, entry)
    const version = versionOf(entry)
    const seen = this.first.get(path)
    if (seen === undefined || version < seen.version) this.first.set(path, { ref, version })
  }

  /**
   * Whether the base snapshot before `messageId` lists `path` with the backup `ref`: then the file
   * was tracked so before the turn, and an update listing it so (read before that snapshot, as a
   * `--fork-session` file writes them) says no change of the turn's.
   */
  inBaseSnapshot(messageId: string, path: string, ref: string | null): boolean {
    const base = this.base.get(messageId)
    return base !== undefined && refOf(base[path]) === ref
  }

  /** Whether the base snapshot before the message has been read (updates alone do not count). */
  hasSnapshot(messageId: string): boolean {
    return this.base.has(messageId)
  }

  /** The files the snapshot before `messageId` lists, each with its backup. */
  *entries(messageId: string): Generator<[string, string | null]> {
    const base = this.base.get(messageId) ?? {}
    for (const path in base) {
      const ref = refOf(base[path])
      if (path !== '' && ref !== undefined) yield [path, ref]
    }
    for (const [path, entry] of this.added.get(messageId) ?? []) {
      const ref = refOf(entry)
      if (ref !== undefined && refOf(base[path]) === undefined) yield [path, ref]
    }
  }

  /**
   * The files whose backup differs between the snapshots before `earlier` and before `later`:
   * [path, backup then, backup now]. A file `earlier` does not list counts from its first backup.
   * Plain loops over the parsed snapshots: this runs once per prompt of a long session.
   */
  changedBetween(earlier: string, later: string): [string, string | null, string | null][] {
    const out: [string, string | null, string | null][] = []
    const then = this.base.get(earlier)
    const thenAdded = this.added.get(earlier)
    const consider = (path: string, entry: unknown) => {
      const ref = refOf(entry)
      if (path === '' || ref === undefined) return
      let was = then === undefined ? undefined : refOf(then[path])
      if (was === undefined) was = refOf(thenAdded?.get(path))
      if (was === undefined) was = this.first.get(path)?.ref
      if (was !== undefined && was !== ref) out.push([path, was, ref])
    }
    const now = this.base.get(later)
    if (now !== undefined) for (const path in now) consider(path, now[path])
    for (const [path, entry] of this.added.get(later) ?? []) {
      if (now === undefined || refOf(now[path]) === undefined) consider(path, entry)
    }
    return out
  }

  get store(): BackupStore {
    return { kind: 'claude-code-file-history', sessionId: this.sessionId }
  }

  /** Each file the snapshot before `messageId` lists, with its backup; undefined: no snapshot. */
  before(messageId: string): ReadonlyMap<string, string | null> | undefined {
    if (!this.base.has(messageId) && !this.added.has(messageId)) return undefined
    return new Map(this.entries(messageId))
  }

  /**
   * What Claude Code's own "Restore code" to a prompt gives each file it tracked (2.1's
   * fileHistory rewind, whose result the fixtures' `workspace-after/` show): the backup the
   * prompt's snapshot lists; a file first tracked later gets its first backup, which says it did
   * not exist (null: deleted), hand edits and all.
   */
  restoreTo(messageId: string): RestorePoint {
    const before = this.before(messageId)
    if (before === undefined) {
      return {
        refused: `Claude Code recorded no file snapshot before this prompt (${messageId}): there is nothing to restore to.`
      }
    }
    const files = new Map<string, string | null>()
    for (const [path, first] of this.firstBackups()) {
      files.set(path, before.has(path) ? (before.get(path) ?? null) : first)
    }
    return { files }
  }

  /** Every backup of `path` any snapshot names. */
  versions(path: string): string[] {
    const refs = new Set<string>()
    const consider = (entry: unknown) => {
      const ref = refOf(entry)
      if (typeof ref === 'string') refs.add(ref)
    }
    for (const tracked of this.base.values()) consider(tracked[path])
    for (const added of this.added.values()) consider(added.get(path))
    return [...refs]
  }

  /** Each tracked file's earliest backup in any snapshot (the rescue restore's fallback). */
  private firstBackups(): ReadonlyMap<string, string | null> {
    const first = new Map(this.first)
    const consider = (path: string, entry: unknown) => {
      const ref = refOf(entry)
      if (path === '' || ref === undefined) return
      const version = versionOf(entry)
      const seen = first.get(path)
      if (seen === undefined || version < seen.version) first.set(path, { ref, version })
    }
    for (const tracked of this.base.values())
      for (const path in tracked) consider(path, tracked[path])
    return new Map([...first].map(([path, { ref }]) => [path, ref]))
  }
}
