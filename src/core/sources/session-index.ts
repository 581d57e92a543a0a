// The session index: a summary of every session file of a folder (summary.ts), cached per folder
// (file-cache.ts) and keyed by each file's name, size, mtime and inode. Listing a workspace of a
// thousand sessions then costs a readdir and a stat per file (bench/session-list.ts); only a file
// whose stamp changed is read:
//
// - it grew (same inode, its first bytes and the bytes before where reading stopped unchanged):
//   only the new lines are read, and the summary goes on from where it was;
// - anything else (rewritten, replaced, truncated, unknown): it is read whole, in chunks.
//
// Two cache files per folder, keyed the same way. `sessions-*.json` holds what the list shows of
// each file (its summary, and why it is no session); `reading-*.json` where reading it stopped
// (to read on from when it grows) and, for ours, the paths it changed, which only the rewind's
// check of other sessions reads (changedPaths). A warm listing reads the first alone: the paths
// and fingerprints were more than half of a 10,000-session index (12 MB, whose parse was the
// largest part of `sessions`). A file read anew updates both. Each cache file is written whole
// by whichever process read last, so the two may come from different processes' reads: a
// file's reading state is used only when stamped with the stamp its summary was read at, else
// the file is read again (whole).
//
// A last line without its '\n' is not read yet: another program may be writing it (a live
// session); it is read once complete. Files are only read, never written or locked.
import { createHash } from 'node:crypto'
import { closeSync, readSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { openRegularFile } from '../os/read-regular-file'
import { isLegacyGeminiChat, readLegacyGeminiChat } from '../session/foreign/gemini-cli'
import { type LineSink, parseJsonl, readLines } from '../session/jsonl'
import { type FileStamp, KeyedFileCache, regularFileStampAt, sameStamp } from './file-cache'
import type { SessionSource } from './homes'
import { type FileRead, runToEnd } from './stepped-listing'
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

/** What the list shows of a file (`sessions-*.json`). */
export interface Listed {
  summary: FileSummary
  /**
   * Why the file is no session: (ours) no usable header (empty, not JSON, not our header); null
   * for a session.
   */
  problem: string | null
}

function isListed(v: unknown): v is Listed {
  if (typeof v !== 'object' || v === null) return false
  const e = v as Record<string, unknown>
  return (e.problem === null || typeof e.problem === 'string') && isFileSummary(e.summary)
}

/** Where reading a file stopped, and what ours changed up to there (`reading-*.json`). */
interface Progress {
  /** Offset just past the last complete line read. */
  scanned: number
  /** The number of the line at `scanned`. */
  nextLine: number
  /** Fingerprints of the first bytes read and of the bytes just before `scanned`. */
  head: string
  tail: string
  /** Ours: each path its file_change records name, with its latest change time. */
  changed: ChangedPaths
}

function isProgress(v: unknown): v is Progress {
  if (typeof v !== 'object' || v === null) return false
  const e = v as Record<string, unknown>
  return (
    Number.isInteger(e.scanned) &&
    Number.isInteger(e.nextLine) &&
    typeof e.head === 'string' &&
    typeof e.tail === 'string' &&
    isChangedPaths(e.changed)
  )
}

/** What reading a file gives; an unreadable file's is never cached (tried again next time). */
interface Read {
  listed: Listed
  progress: Progress
  /** Why the file could not be read (permissions…); null when it was. */
  unreadable: string | null
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
  private readonly caches = new Map<string, KeyedFileCache<Listed>>()
  /** Per folder, where reading each file stopped: loaded only when one is read or asked. */
  private readonly progressCaches = new Map<string, KeyedFileCache<Progress>>()

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
    const listed: IndexedFile[] = []
    runToEnd(
      this.folderSteps(
        folder,
        sessionFilesIn(folder, source),
        source,
        (f) => listed.push(f),
        wanted
      )
    )
    return listed
  }

  /**
   * folder() as the builder the CLI and the hosts share (stepped-listing.ts): `names` are the
   * folder's (sessionFilesIn), each file listed is given to `take` in their order, and it stops
   * after each file it had to read (a warm folder: never), saying which name that was and the
   * bytes it read. The folder's cache files are written (each whole) once its last file is
   * listed: a build left between two steps writes nothing.
   */
  *folderSteps(
    folder: string,
    names: readonly string[],
    source: SessionSource,
    take: (file: IndexedFile) => void,
    wanted?: (name: string, stamp: FileStamp) => boolean
  ): Generator<FileRead, void> {
    if (names.length === 0 && !this.caches.has(folder)) return
    const cache = this.cacheFor(folder)
    cache.refresh()
    // Loaded only when a file has to be read: a warm listing never parses it.
    let progress: KeyedFileCache<Progress> | null = null
    for (let at = 0; at < names.length; at++) {
      const name = names[at] as string
      const file = join(folder, name)
      const stamp = regularFileStampAt(file)
      if (stamp === null) continue // no regular file, or gone since the readdir
      if (wanted !== undefined && !wanted(name, stamp)) continue
      // Looked up when reached, not before the build: another listing may have read it meanwhile.
      const cached = cache.get(name)
      const warm = cached !== undefined && sameStamp(cached.stamp, stamp)
      const before = this.reads.bytes
      let shown: Listed
      if (warm) shown = cached.value
      else {
        if (progress === null) {
          progress = this.progressFor(folder)
          progress.refresh()
        }
        const read = this.read(file, source, stamp, previousOf(cached, progress.get(name), stamp))
        shown = read.listed
        if (read.unreadable === null) {
          cache.set(name, stamp, read.listed)
          progress.set(name, stamp, read.progress)
        }
      }
      take({ file, name, source, stamp, summary: shown.summary, problem: shown.problem })
      if (!warm) yield { at, bytes: this.reads.bytes - before }
    }
    const present = new Set(names)
    cache.keepOnly(present)
    cache.save()
    progress?.keepOnly(present)
    progress?.save()
  }

  /**
   * The paths each of `files` (as `folder` listed them) changed: from the reading cache, or,
   * where it holds none of the stamp the file was listed with (never written, damaged, or last
   * written by a process that read the file at another stamp), from the file, read again whole.
   * A file that can no longer be read changed nothing here (its listing says why it is none).
   */
  changedPaths(files: readonly IndexedFile[]): ChangedPaths[] {
    const used = new Set<KeyedFileCache<Progress>>()
    const found = files.map((f): ChangedPaths => {
      // Another tool's session records no changes of ours (addRecord keeps none).
      if (f.source !== 'rewind-studio') return {}
      const progress = this.progressFor(dirname(f.file))
      if (!used.has(progress)) {
        progress.refresh()
        used.add(progress)
      }
      const cached = progress.get(f.name)
      if (cached !== undefined && sameStamp(cached.stamp, f.stamp)) return cached.value.changed
      const read = this.read(f.file, f.source, f.stamp, null)
      if (read.unreadable !== null) return {}
      progress.set(f.name, f.stamp, read.progress)
      return read.progress.changed
    })
    for (const progress of used) progress.save()
    return found
  }

  /**
   * What the index holds of each file of `folder` it read, by name and the stamp it read it at,
   * without reading any file: undefined for a file never read, or changed since (All projects
   * counts and dates such a file by itself, discovery.ts). The folder's cache is read once.
   */
  knownIn(folder: string): (name: string, stamp: FileStamp) => Listed | undefined {
    const cache = this.cacheFor(folder)
    cache.refresh()
    return (name, stamp) => {
      const cached = cache.get(name)
      return cached !== undefined && sameStamp(cached.stamp, stamp) ? cached.value : undefined
    }
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

  private cacheFor(folder: string): KeyedFileCache<Listed> {
    return this.cacheIn(this.caches, 'sessions', isListed, folder)
  }

  private progressFor(folder: string): KeyedFileCache<Progress> {
    return this.cacheIn(this.progressCaches, 'reading', isProgress, folder)
  }

  /** The folder's cache file of one kind, made once per index. */
  private cacheIn<T>(
    caches: Map<string, KeyedFileCache<T>>,
    kind: string,
    isValue: (v: unknown) => v is T,
    folder: string
  ): KeyedFileCache<T> {
    let cache = caches.get(folder)
    if (cache === undefined) {
      cache = new KeyedFileCache(this.home, kind, folder, isValue, this.persist)
      caches.set(folder, cache)
    }
    return cache
  }

  private count(bytes: number): void {
    this.reads.bytes += bytes
  }

  /**
   * A Gemini CLI chat of the one-document layout, read whole (the CLI rewrote it whole): where
   * reading stopped is its end, and nothing is ever read on from there.
   */
  private readWhole(file: string, source: SessionSource, stamp: FileStamp): Read {
    let values: readonly unknown[]
    try {
      values = readLegacyGeminiChat(file).values
    } catch (error) {
      return unreadable(error)
    }
    this.count(stamp.size)
    const summarized = emptySummarized()
    for (const value of values) addRecord(summarized, source, value)
    return {
      listed: { summary: summarized.summary, problem: null },
      progress: {
        scanned: stamp.size,
        nextLine: values.length + 1,
        head: '',
        tail: '',
        changed: {}
      },
      unreadable: null
    }
  }

  /** What a file whose stamp changed gives: read on from `previous` when it only grew. */
  private read(
    file: string,
    source: SessionSource,
    stamp: FileStamp,
    previous: Previous | null
  ): Read {
    this.reads.files++
    if (source === 'gemini-cli' && isLegacyGeminiChat(file))
      return this.readWhole(file, source, stamp)
    let fd: number
    try {
      fd = openRegularFile(file).fd
    } catch (error) {
      return unreadable(error)
    }
    try {
      const before = previous?.progress ?? null
      const grown =
        previous !== null &&
        before !== null &&
        stamp.size >= before.scanned &&
        this.fingerprint(fd, 0, Math.min(HEAD_BYTES, before.scanned)) === before.head &&
        this.fingerprint(fd, Math.max(0, before.scanned - TAIL_BYTES), before.scanned) ===
          before.tail
      const summarized: Summarized = grown
        ? { summary: structuredClone(previous.summary), changed: { ...before.changed } }
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
      const { summary, changed } = summarized
      const complete = result.complete === stamp.size
      return {
        listed: {
          summary,
          problem:
            source === 'rewind-studio' ? ourSessionProblem(summary, stamp.size, complete) : null
        },
        progress: {
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
          changed
        },
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

function unreadable(error: unknown): Read {
  const why = (error as Error).message
  return {
    listed: { summary: emptySummary(), problem: `cannot be read: ${why}` },
    progress: { scanned: 0, nextLine: 1, head: '', tail: '', changed: {} },
    unreadable: why
  }
}

/** A file's summary and reading state of one earlier read, to read on from. */
interface Previous {
  summary: FileSummary
  progress: Progress
}

/**
 * What a file whose stamp changed may be read on from: its cached summary and reading state when
 * both are of the same earlier stamp (the two cache files may come from different processes'
 * reads) and of the same inode (read() then checks that it only grew); else nothing: read whole.
 */
function previousOf(
  listed: { stamp: FileStamp; value: Listed } | undefined,
  progress: { stamp: FileStamp; value: Progress } | undefined,
  stamp: FileStamp
): Previous | null {
  if (listed === undefined || progress === undefined) return null
  if (listed.stamp.ino !== stamp.ino || !sameStamp(listed.stamp, progress.stamp)) return null
  return { summary: listed.value.summary, progress: progress.value }
}

/**
 * The names ending in `.jsonl` directly in a folder, sorted; none when it is missing. Names only:
 * each caller stats what it lists (and leaves out what is no regular file), so the readdir makes
 * no entry objects (10,000 of them were a few percent of a warm listing).
 */
export function jsonlFilesIn(folder: string): string[] {
  return sessionFilesIn(folder, 'rewind-studio')
}

/**
 * The session files directly in a folder of `source`'s (none when it does not exist): its
 * `*.jsonl`, and for Gemini CLI its chats of the one-document layout too (gemini-cli.ts).
 */
export function sessionFilesIn(folder: string, source: SessionSource): string[] {
  const legacy = source === 'gemini-cli'
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith('.jsonl') || (legacy && isLegacyGeminiChat(name)))
      .sort()
  } catch {
    return []
  }
}
