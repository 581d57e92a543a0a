// The session index: a summary of every session file of a folder (summary.ts), cached per folder
// (file-cache.ts) and keyed by each file's name, size, mtime and inode. Listing a workspace of a
// thousand sessions then costs a readdir and a stat per file (bench/session-list.ts); only a file
// whose stamp changed is read:
//
// - it grew (same inode, its first bytes and the bytes before where reading stopped unchanged):
//   only the new lines are read, and the summary goes on from where it was;
// - anything else (rewritten, replaced, truncated, unknown): it is read whole, in chunks.
//
// The paths our sessions changed are kept in a second cache per folder (`changes-*.json`), keyed
// the same way, which the list never reads: they were half the index's bytes (a 10,000-session
// index 12 MB, its parse the largest part of `sessions`), and only the rewind's check of other
// sessions needs them (changedPaths). A file read anew updates both. Each cache file is written
// whole by whichever process read last, so the two may come from different processes' reads: a
// file's changed paths are used only when stamped with the stamp its summary was read at, else
// read again (of a file that grew, the summary goes on from where it was only with the changed
// paths of the same stamp).
//
// A last line without its '\n' is not read yet: another program may be writing it (a live
// session); it is read once complete. Files are only read, never written or locked.
import { createHash } from 'node:crypto'
import { closeSync, readSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { openRegularFile } from '../os/read-regular-file'
import { type LineSink, parseJsonl, readLines } from '../session/jsonl'
import { type FileStamp, KeyedFileCache, sameStamp, stampOf } from './file-cache'
import type { SessionSource } from './homes'
import {
  type ChangedPaths,
  type FileSummary,
  type Summarized,
  addProblem,
  addRecord,
  emptySummarized,
  emptySummary,
  isChangedPaths,
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

/** What reading a file gives: its entry, and (ours) the paths it changed, cached apart. */
interface Read {
  entry: Entry
  changed: ChangedPaths
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
  /** Per folder of ours, the paths each session changed: loaded only when one is read or asked. */
  private readonly changeCaches = new Map<string, KeyedFileCache<ChangedPaths>>()

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
    // Loaded only when a file of ours has to be read: a warm listing never parses it.
    let changes: KeyedFileCache<ChangedPaths> | null = null
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
        if (source === 'rewind-studio' && changes === null) {
          changes = this.changesFor(folder)
          changes.refresh()
        }
        const read = this.read(
          file,
          source,
          stamp,
          previousOf(cached, stamp, changes?.get(name), changes !== null)
        )
        entry = read.entry
        // An unreadable file is tried again next time (a chmod leaves its mtime as it was).
        if (entry.unreadable === null) {
          cache.set(name, stamp, entry)
          changes?.set(name, stamp, read.changed)
        }
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
    const present = new Set(names)
    cache.keepOnly(present)
    cache.save()
    changes?.keepOnly(present)
    changes?.save()
    return listed
  }

  /**
   * The paths each of `files` (as `folder` listed them) changed: from their cache,
   * or, where it holds none of the stamp the file was listed with (never written, damaged, or last
   * written by a process that read the file at another stamp), from the file, read again whole.
   * A file that can no longer be read changed nothing here (its listing says why it is none).
   */
  changedPaths(files: readonly IndexedFile[]): ChangedPaths[] {
    const used = new Set<KeyedFileCache<ChangedPaths>>()
    const found = files.map((f): ChangedPaths => {
      // Another tool's session records no changes of ours (addRecord keeps none).
      if (f.source !== 'rewind-studio') return {}
      const changes = this.changesFor(dirname(f.file))
      if (!used.has(changes)) {
        changes.refresh()
        used.add(changes)
      }
      const cached = changes.get(f.name)
      if (cached !== undefined && sameStamp(cached.stamp, f.stamp)) return cached.value
      const read = this.read(f.file, f.source, f.stamp, null)
      if (read.entry.unreadable !== null) return {}
      changes.set(f.name, f.stamp, read.changed)
      return read.changed
    })
    for (const changes of used) changes.save()
    return found
  }

  /**
   * The summary of the first lines of `file`, enough to know the session's cwd and id: how a
   * project folder is recognised without reading its sessions (discovery.ts).
   */
  probe(file: string, source: SessionSource): FileSummary {
    const summarized = emptySummarized()
    const { summary } = summarized
    this.reads.files++
    const { fd } = openRegularFile(file)
    try {
      const buffer = Buffer.allocUnsafe(PROBE_BYTES)
      const n = readSync(fd, buffer, 0, buffer.length, 0)
      this.count(n)
      const end = buffer.subarray(0, n).lastIndexOf(10)
      const parsed = parseJsonl(buffer.toString('utf8', 0, end + 1))
      for (const value of parsed.values) {
        addRecord(summarized, source, value)
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

  private changesFor(folder: string): KeyedFileCache<ChangedPaths> {
    let changes = this.changeCaches.get(folder)
    if (changes === undefined) {
      changes = new KeyedFileCache(this.home, 'changes', folder, isChangedPaths, this.persist)
      this.changeCaches.set(folder, changes)
    }
    return changes
  }

  private count(bytes: number): void {
    this.reads.bytes += bytes
  }

  /** The entry of a file whose stamp changed: read on from `previous` when it only grew. */
  private read(file: string, source: SessionSource, stamp: FileStamp, previous: Read | null): Read {
    this.reads.files++
    let fd: number
    try {
      fd = openRegularFile(file).fd
    } catch (error) {
      return unreadable(error)
    }
    try {
      const before = previous?.entry ?? null
      const grown =
        before !== null &&
        before.unreadable === null &&
        stamp.size >= before.scanned &&
        this.fingerprint(fd, 0, Math.min(HEAD_BYTES, before.scanned)) === before.head &&
        this.fingerprint(fd, Math.max(0, before.scanned - TAIL_BYTES), before.scanned) ===
          before.tail
      const summarized: Summarized =
        grown && previous !== null
          ? { summary: structuredClone(before.summary), changed: { ...previous.changed } }
          : emptySummarized()
      const sink: LineSink = {
        value: (value) => addRecord(summarized, source, value),
        problem: (problem) => addProblem(summarized.summary, problem.line),
        // A summary counts problems, never words them: garbage lines need no JSON.parse.
        full: true
      }
      const result = readLines(fd, sink, {
        from: grown ? before.scanned : 0,
        firstLine: grown ? before.nextLine : 1,
        finalLine: false
      })
      this.count(result.bytesRead)
      const entry: Entry = {
        scanned: result.complete,
        nextLine: result.nextLine,
        // Fingerprints read again only where what they cover moved.
        head:
          grown && before.scanned >= HEAD_BYTES
            ? before.head
            : this.fingerprint(fd, 0, Math.min(HEAD_BYTES, result.complete)),
        tail:
          grown && result.complete === before.scanned
            ? before.tail
            : this.fingerprint(fd, Math.max(0, result.complete - TAIL_BYTES), result.complete),
        summary: summarized.summary,
        unreadable: null
      }
      return { entry, changed: summarized.changed }
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

function unreadable(error: unknown): Read {
  const why = (error as Error).message
  return {
    entry: {
      scanned: 0,
      nextLine: 1,
      head: '',
      tail: '',
      summary: emptySummary(),
      unreadable: why
    },
    changed: {}
  }
}

/**
 * What a file whose stamp changed may be read on from: its cached entry when the inode is the
 * same (read() then checks that it only grew), and for ours only with the changed paths read at
 * that entry's stamp (`changed`, from the other cache file); else nothing: read whole.
 */
function previousOf(
  cached: { stamp: FileStamp; value: Entry } | undefined,
  stamp: FileStamp,
  changed: { stamp: FileStamp; value: ChangedPaths } | undefined,
  ours: boolean
): Read | null {
  if (cached === undefined || cached.stamp.ino !== stamp.ino) return null
  if (!ours) return { entry: cached.value, changed: {} }
  if (changed === undefined || !sameStamp(changed.stamp, cached.stamp)) return null
  return { entry: cached.value, changed: changed.value }
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
