// Values computed from files (a session's summary, its backup usage), kept between runs in one
// private JSON file under <data home>/index/ and keyed by each file's name, size, mtime and inode:
// a file whose stamp is unchanged is not read again.
//
// A cache is never trusted blindly: a file that does not parse or does not match its schema (a
// crash mid-write of an older version, a hand edit, another version's layout) is dropped whole and
// rebuilt from the files. It is written to a temp file and renamed, so a reader never sees half of
// one; two processes writing the same cache both write whole files, the last one stays. Failing to
// write it (a full disk, a read-only home) loses nothing: the next run reads the files again.
import { createHash } from 'node:crypto'
import { type Stats, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { readRegularText } from '../os/read-regular-file'

export interface FileStamp {
  size: number
  mtimeMs: number
  ino: number
}

function isStamp(v: unknown): v is FileStamp {
  if (typeof v !== 'object' || v === null) return false
  const s = v as Record<string, unknown>
  return typeof s.size === 'number' && typeof s.mtimeMs === 'number' && typeof s.ino === 'number'
}

export function stampOf(stats: Stats): FileStamp {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino }
}

/** The stamp of a regular file; null for anything else, or for nothing there (gone since). */
export function regularFileStampAt(file: string): FileStamp | null {
  try {
    const stats = statSync(file)
    return stats.isFile() ? stampOf(stats) : null
  } catch {
    return null
  }
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino
}

/** Bump when a cached value's meaning changes: older caches are then rebuilt. */
const CACHE_VERSION = 4

/** The folder of every cache, under the data home. */
export function cacheDir(home: string): string {
  return join(home, 'index')
}

export class KeyedFileCache<T> {
  private entries = new Map<string, { stamp: FileStamp; value: T }>()
  private dirty = false
  /** The cache file's own stamp when last read or written here (null: not loaded yet). */
  private loadedStamp: FileStamp | null = null
  private readonly dir: string
  private readonly file: string

  /**
   * `kind` names what is cached (a file name prefix); `scope` what it is cached for (a folder):
   * the cache file is named after both and holds the scope, so one never serves another.
   * `isValue` checks each cached value as it is read: a check by hand, since a cache of a
   * thousand sessions is read on every start and a zod parse of it costs more than the listing.
   */
  constructor(
    home: string,
    kind: string,
    private readonly scope: string,
    private readonly isValue: (value: unknown) => value is T,
    /** False: the cache file is read but never written (a preview that must write nothing). */
    private readonly writable = true
  ) {
    const hash = createHash('sha256').update(scope).digest('hex').slice(0, 20)
    this.dir = cacheDir(home)
    this.file = join(this.dir, `${kind}-${hash}.json`)
  }

  /** Reads the cache file again if another process (or nobody yet) wrote it since. */
  refresh(): void {
    let stats: Stats
    try {
      stats = statSync(this.file)
    } catch {
      if (this.loadedStamp === null) this.loadedStamp = { size: -1, mtimeMs: -1, ino: -1 }
      return
    }
    const stamp = stampOf(stats)
    if (this.loadedStamp !== null && sameStamp(stamp, this.loadedStamp)) return
    this.loadedStamp = stamp
    this.entries = new Map()
    this.dirty = false
    let raw: unknown
    try {
      // A FIFO put here is refused like a damaged file (readRegularText), never waited on.
      raw = JSON.parse(readRegularText(this.file) ?? '')
    } catch {
      this.dirty = true // damaged: rebuilt from the files, written anew
      return
    }
    const entries = this.entriesOf(raw)
    if (entries === null) {
      this.dirty = true
      return
    }
    this.entries = entries
  }

  /** The entries of a cache file's content, or null when any part of it is not as written. */
  private entriesOf(raw: unknown): Map<string, { stamp: FileStamp; value: T }> | null {
    if (typeof raw !== 'object' || raw === null) return null
    const { version, scope, entries } = raw as Record<string, unknown>
    if (version !== CACHE_VERSION || scope !== this.scope) return null
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) return null
    const map = new Map<string, { stamp: FileStamp; value: T }>()
    const byName = entries as Record<string, unknown>
    // for…in and the parsed entry itself, not Object.entries and a copy: no array or object per
    // entry (a list reads 10,000 of them).
    for (const name in byName) {
      const entry = byName[name]
      if (typeof entry !== 'object' || entry === null) return null
      const { stamp, value } = entry as Record<string, unknown>
      if (!isStamp(stamp) || !this.isValue(value)) return null
      map.set(name, entry as { stamp: FileStamp; value: T })
    }
    return map
  }

  get(name: string): { stamp: FileStamp; value: T } | undefined {
    return this.entries.get(name)
  }

  set(name: string, stamp: FileStamp, value: T): void {
    this.entries.set(name, { stamp, value })
    this.dirty = true
  }

  /** Drops the entries of files that are gone. */
  keepOnly(names: ReadonlySet<string>): void {
    for (const name of this.entries.keys()) {
      if (!names.has(name)) {
        this.entries.delete(name)
        this.dirty = true
      }
    }
  }

  save(): void {
    if (!this.dirty || !this.writable) return
    const temp = `${this.file}.${process.pid}.tmp`
    try {
      ensurePrivateDir(this.dir)
      writePrivateFileSync(
        temp,
        JSON.stringify({
          version: CACHE_VERSION,
          scope: this.scope,
          entries: Object.fromEntries(this.entries)
        })
      )
      renameSync(temp, this.file)
      this.loadedStamp = stampOf(statSync(this.file))
      this.dirty = false
    } catch {
      // A cache: the files it was computed from are all still there to read next time.
      rmSync(temp, { force: true })
    }
  }
}
