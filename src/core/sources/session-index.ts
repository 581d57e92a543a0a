// The session index: a summary of every session file of a folder (summary.ts), cached per folder
// (file-cache.ts) and keyed by each file's name, size, mtime and inode. Listing a workspace of a
// thousand sessions then costs a readdir and a stat per file (bench/session-list.ts); only a file
// whose stamp changed is read:
//
// - it grew (same inode, its first bytes and the bytes before where reading stopped unchanged):
//   only the new lines are read, and the summary goes on from where it was;
// - anything else (rewritten, replaced, truncated, unknown): it is read whole, in chunks.
//
// A last line without its '\n' is not read yet: another program may be writing it (a live
// session); it is read once complete. Files are only read, never written or locked.
import { createHash } from 'node:crypto'
import { closeSync, readSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openRegularFile } from '../os/read-regular-file'
import { type LineSink, parseJsonl, readLines } from '../session/jsonl'
import { type FileStamp, KeyedFileCache, sameStamp, stampOf } from './file-cache'
import type { SessionSource } from './homes'
import {
  type FileSummary,
  addProblem,
  addRecord,
  emptySummary,
  isFileSummary,
  ourSessionProblem
} from './session-summary'

interface Entry {
  /** Offset just past the last complete line read. */
  scanned: number
  /** The number of the line at `scanned`. */
  nextLine: number
  /** Fingerprints of the first bytes read and of the bytes just before `scanned`. */
  head: string
  tail: string
  summary: FileSummary
  /** Why the file could not be read (permissions…); null when it was. */
  unreadable: string | null
}

function isEntry(v: unknown): v is Entry {
  if (typeof v !== 'object' || v === null) return false
  const e = v as Record<string, unknown>
  return (
    Number.isInteger(e.scanned) &&
    Number.isInteger(e.nextLine) &&
    typeof e.head === 'string' &&
    typeof e.tail === 'string' &&
    (e.unreadable === null || typeof e.unreadable === 'string') &&
    isFileSummary(e.summary)
  )
}

/** Bytes fingerprinted at the start (oh-my-pi rewrites its 256-byte title line in place)… */
const HEAD_BYTES = 256
/** …and before where reading stopped (an append must follow exactly what was read). */
const TAIL_BYTES = 64
/** How far into a file its header (and so its cwd) is looked for. */
const PROBE_BYTES = 64 * 1024

export interface IndexedFile {
  file: string
  /** The file name within its folder. */
  name: string
  source: SessionSource
  stamp: FileStamp
  summary: FileSummary
  /**
   * Why the file is no session: unreadable, or (ours) no usable header (empty, not JSON, not our
   * header); null for a session.
   */
  problem: string | null
}

export class SessionIndex {
  /** What reading session files cost so far: tests and benches check what a listing read. */
  readonly reads = { files: 0, bytes: 0 }
  private readonly caches = new Map<string, KeyedFileCache<Entry>>()

  /** `persist` false: the index is read from the data home but never written (see Sources). */
  constructor(
    private readonly home: string,
    private readonly persist = true
  ) {}

  /**
   * Every `*.jsonl` file directly in `folder` (none when it does not exist), summarized; with
   * `wanted`, only the files it keeps, judged by name and stamp before any is read.
   */
  folder(
    folder: string,
    source: SessionSource,
    wanted?: (name: string, stamp: FileStamp) => boolean
  ): IndexedFile[] {
    const names = jsonlFilesIn(folder)
    if (names.length === 0 && !this.caches.has(folder)) return []
    const cache = this.cacheFor(folder)
    cache.refresh()
    const listed: IndexedFile[] = []
    for (const name of names) {
      const file = join(folder, name)
      let stamp: FileStamp
      try {
        const stats = statSync(file)
        if (!stats.isFile()) continue
        stamp = stampOf(stats)
      } catch {
        continue // gone since the readdir
      }
      if (wanted !== undefined && !wanted(name, stamp)) continue
      const cached = cache.get(name)
      let entry: Entry
      if (cached !== undefined && sameStamp(cached.stamp, stamp)) entry = cached.value
      else {
        entry = this.read(
          file,
          source,
          stamp,
          cached?.stamp.ino === stamp.ino ? cached.value : null
        )
        // An unreadable file is tried again next time (a chmod leaves its mtime as it was).
        if (entry.unreadable === null) cache.set(name, stamp, entry)
      }
      listed.push({
        file,
        name,
        source,
        stamp,
        summary: entry.summary,
        problem: problemOf(entry, source, stamp)
      })
    }
    cache.keepOnly(new Set(names))
    cache.save()
    return listed
  }

  /**
   * The summary of the first lines of `file`, enough to know the session's cwd and id: how a
   * project folder is recognised without reading its sessions (discovery.ts).
   */
  probe(file: string, source: SessionSource): FileSummary {
    const summary = emptySummary()
    this.reads.files++
    const { fd } = openRegularFile(file)
    try {
      const buffer = Buffer.allocUnsafe(PROBE_BYTES)
      const n = readSync(fd, buffer, 0, buffer.length, 0)
      this.count(n)
      const end = buffer.subarray(0, n).lastIndexOf(10)
      const parsed = parseJsonl(buffer.toString('utf8', 0, end + 1))
      for (const value of parsed.values) {
        addRecord(summary, source, value)
        if (summary.cwd !== null) break
      }
    } finally {
      closeSync(fd)
    }
    return summary
  }

  private cacheFor(folder: string): KeyedFileCache<Entry> {
    let cache = this.caches.get(folder)
    if (cache === undefined) {
      cache = new KeyedFileCache(this.home, 'sessions', folder, isEntry, this.persist)
      this.caches.set(folder, cache)
    }
    return cache
  }

  private count(bytes: number): void {
    this.reads.bytes += bytes
  }

  /** The entry of a file whose stamp changed: read on from `previous` when it only grew. */
  private read(
    file: string,
    source: SessionSource,
    stamp: FileStamp,
    previous: Entry | null
  ): Entry {
    this.reads.files++
    let fd: number
    try {
      fd = openRegularFile(file).fd
    } catch (error) {
      return unreadable(error)
    }
    try {
      const grown =
        previous !== null &&
        previous.unreadable === null &&
        stamp.size >= previous.scanned &&
        this.fingerprint(fd, 0, Math.min(HEAD_BYTES, previous.scanned)) === previous.head &&
        this.fingerprint(fd, Math.max(0, previous.scanned - TAIL_BYTES), previous.scanned) ===
          previous.tail
      const summary: FileSummary = grown ? structuredClone(previous.summary) : emptySummary()
      const sink: LineSink = {
        value: (value) => addRecord(summary, source, value),
        problem: (problem) => addProblem(summary, problem.line),
        // A summary counts problems, never words them: garbage lines need no JSON.parse.
        full: true
      }
      const result = readLines(fd, sink, {
        from: grown ? previous.scanned : 0,
        firstLine: grown ? previous.nextLine : 1,
        finalLine: false
      })
      this.count(result.bytesRead)
      return {
        scanned: result.complete,
        nextLine: result.nextLine,
        // Fingerprints read again only where what they cover moved.
        head:
          grown && previous.scanned >= HEAD_BYTES
            ? previous.head
            : this.fingerprint(fd, 0, Math.min(HEAD_BYTES, result.complete)),
        tail:
          grown && result.complete === previous.scanned
            ? previous.tail
            : this.fingerprint(fd, Math.max(0, result.complete - TAIL_BYTES), result.complete),
        summary,
        unreadable: null
      }
    } catch (error) {
      return unreadable(error)
    } finally {
      closeSync(fd)
    }
  }

  private fingerprint(fd: number, from: number, to: number): string {
    const buffer = Buffer.alloc(Math.max(0, to - from))
    const n = buffer.length === 0 ? 0 : readSync(fd, buffer, 0, buffer.length, from)
    this.count(n)
    return createHash('sha1').update(buffer.subarray(0, n)).digest('base64')
  }
}

function unreadable(error: unknown): Entry {
  const why = (error as Error).message
  return { scanned: 0, nextLine: 1, head: '', tail: '', summary: emptySummary(), unreadable: why }
}

function problemOf(entry: Entry, source: SessionSource, stamp: FileStamp): string | null {
  if (entry.unreadable !== null) return `cannot be read: ${entry.unreadable}`
  if (source !== 'rewind-studio') return null
  return ourSessionProblem(entry.summary, stamp.size, entry.scanned === stamp.size)
}

/** The names of the `*.jsonl` files directly in a folder, sorted; none when it is missing. */
export function jsonlFilesIn(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith('.jsonl'))
      .map((d) => d.name)
      .sort()
  } catch {
    return []
  }
}
