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
import type { ForeignBackups } from './types'

/** A backup file name as Claude Code writes it; anything else names no backup (never a path). */
const BACKUP_NAME = /^[A-Za-z0-9_-]{1,128}@v\d{1,9}$/

export function isBackupName(name: string): boolean {
  return BACKUP_NAME.test(name)
}

interface Backup {
  ref: string | null
  version: number
}

export class ClaudeCodeFileHistory implements ForeignBackups {
  sessionId = ''
  /** Per message: the base snapshot's files, then the files the updates added. */
  private readonly base = new Map<string, Map<string, string | null>>()
  private readonly added = new Map<string, Map<string, string | null>>()
  private readonly merged = new Map<string, Map<string, string | null>>()
  private readonly first = new Map<string, Backup>()

  /**
   * Takes a file-history record. Returns the message it is about and the files it says a turn
   * first changed (from an update or a delta), or null for a record that is neither.
   */
  add(v: Json): { messageId: string; firstChanges: [string, string | null][] } | null {
    if (v.type === 'file-history-delta') {
      const messageId = stringOrNull(v.messageId)
      const path = stringOrNull(v.trackingPath)
      if (messageId === null || path === null) return null
      const backup = this.backupOf(path, v.backup)
      if (backup === undefined) return null
      this.files(this.added, messageId).set(path, backup)
      this.merged.delete(messageId)
      return { messageId, firstChanges: [[path, backup]] }
    }
    if (v.type !== 'file-history-snapshot' || !isObject(v.snapshot)) return null
    const messageId = stringOrNull(v.snapshot.messageId)
    const tracked = v.snapshot.trackedFileBackups
    if (messageId === null || !isObject(tracked)) return null
    const files = new Map<string, string | null>()
    for (const [path, backup] of Object.entries(tracked)) {
      const ref = this.backupOf(path, backup)
      if (ref !== undefined) files.set(path, ref)
    }
    this.merged.delete(messageId)
    if (v.isSnapshotUpdate !== true) {
      this.base.set(messageId, files)
      return { messageId, firstChanges: [] }
    }
    // An update repeats every file of the message's snapshot: the new ones are the files whose
    // backup the snapshot (when it came first) did not list.
    const known = this.base.get(messageId)
    const into = this.files(this.added, messageId)
    const firstChanges: [string, string | null][] = []
    for (const [path, ref] of files) {
      if (known?.get(path) === ref || into.has(path)) continue
      into.set(path, ref)
      firstChanges.push([path, ref])
    }
    return { messageId, firstChanges }
  }

  /** Whether the base snapshot before the message has been read (updates alone do not count). */
  hasSnapshot(messageId: string): boolean {
    return this.base.has(messageId)
  }

  before(messageId: string): ReadonlyMap<string, string | null> | undefined {
    const cached = this.merged.get(messageId)
    if (cached !== undefined) return cached
    const base = this.base.get(messageId)
    const added = this.added.get(messageId)
    if (base === undefined && added === undefined) return undefined
    const files = new Map(added)
    for (const [path, ref] of base ?? []) files.set(path, ref)
    this.merged.set(messageId, files)
    return files
  }

  firstBackups(): ReadonlyMap<string, string | null> {
    return new Map([...this.first].map(([path, backup]) => [path, backup.ref]))
  }

  firstBackup(path: string): string | null | undefined {
    return this.first.get(path)?.ref
  }

  private files(
    map: Map<string, Map<string, string | null>>,
    messageId: string
  ): Map<string, string | null> {
    let files = map.get(messageId)
    if (files === undefined) {
      files = new Map()
      map.set(messageId, files)
    }
    return files
  }

  /**
   * The backup a record names for `path` (null: the file did not exist), noting the path's
   * earliest one; undefined when the record names none. A name that is no backup file name (a
   * path, "..") is kept as it is: the backup folder refuses to read it (rescue.ts), so the file
   * is reported as one whose backup is missing, never read from elsewhere.
   */
  private backupOf(path: string, backup: unknown): string | null | undefined {
    if (path === '' || !isObject(backup)) return undefined
    const ref = backup.backupFileName
    if (ref !== null && typeof ref !== 'string') return undefined
    const version = typeof backup.version === 'number' ? backup.version : Number.MAX_SAFE_INTEGER
    const seen = this.first.get(path)
    if (seen === undefined || version < seen.version) this.first.set(path, { ref, version })
    return ref
  }
}
