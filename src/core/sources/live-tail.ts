// Following a session file another program is still writing (a running Claude Code, our own CLI
// chat holding the session): only the bytes appended since the last look are read, and each
// complete line is handed on. Read-only: the file is never written, locked or truncated.
//
// - fs.watch says when the file changed; a poll (a stat every POLL_MS) catches what it misses
//   (network file systems, an editor replacing the file, a watch lost with the old inode).
//   Changes are debounced: a burst of appends is read in one go.
// - A last line without its '\n' is half-written: it waits for the newline (jsonl.ts readLines).
// - A file replaced (another inode) or truncated (shorter than what was read) is read again from
//   the start: `reset` first, then every line as appended. Replaced by something that is no
//   regular file (a FIFO), it is not read nor waited on (os/read-regular-file.ts): `failed`,
//   until a file is there again.
// - It runs on timers and watch events, outside any request: whatever fails in a look (the
//   listener's own work included) goes to `failed`, never up to the process, which it would end.
// - Bounded as opening is (jsonl.ts MAX_RECORDS): a file that grows past it while followed (a
//   writer gone wrong, or a hostile one appending millions of tiny lines) stops being followed,
//   with `stopped`, before the lines past the bound are kept. What was handed on stays.
import { type FSWatcher, closeSync, statSync, watch } from 'node:fs'
import { NotRegularFileError, kindOf, openRegularFile } from '../os/read-regular-file'
import {
  type LineSink,
  MAX_RECORDS,
  type ReadPosition,
  TooManyRecordsError,
  readLines
} from '../session/jsonl'
import { ProblemLog } from '../session/problems'

export interface TailListener {
  /** Complete lines appended since the last call, parsed, with their line numbers and problems. */
  appended(values: unknown[], lines: number[], problems: ProblemLog): void
  /** The file was replaced or truncated: what was read before is void; it is read from the start. */
  reset(): void
  /**
   * A look failed: the file could not be read (gone, no permission, no regular file now) or the
   * listener threw. Following goes on: the file may come back.
   */
  failed?(error: Error): void
  /** The file grew past the records read (MAX_RECORDS): following has stopped for good. */
  stopped(error: TooManyRecordsError): void
}

export interface TailOptions {
  pollMs?: number
  debounceMs?: number
  /** Records the follower holds from the file already (read before following it). */
  held?: number
  /** The most records held from the file (MAX_RECORDS unless a test says fewer). */
  maxRecords?: number
}

/** What a follower tells the user once following `file` stopped for good (TailListener.stopped). */
export function stoppedFollowingNotice(file: string, error: TooManyRecordsError): string {
  return `Stopped following ${file}: ${error.message}. What was read before is shown.`
}

/** How often the file is looked at without a watch event. */
const POLL_MS = 250
/** How long after a watch event the file is read (appends that come together are read at once). */
const DEBOUNCE_MS = 20

export class FileTail {
  private position: ReadPosition
  private watcher: FSWatcher | null = null
  private poll: NodeJS.Timeout | null = null
  private pending: NodeJS.Timeout | null = null
  private closed = false
  /** Records held from the file: those read before, and those handed on since. */
  private held: number

  constructor(
    private readonly file: string,
    from: ReadPosition,
    private readonly listener: TailListener,
    private readonly options: TailOptions = {}
  ) {
    this.position = { ...from }
    this.held = options.held ?? 0
    this.watchFile()
    this.poll = setInterval(() => this.look(), options.pollMs ?? POLL_MS)
    this.poll.unref()
  }

  /** Where reading stopped: the next look reads from here. */
  get at(): ReadPosition {
    return { ...this.position }
  }

  close(): void {
    this.closed = true
    this.watcher?.close()
    this.watcher = null
    if (this.poll !== null) clearInterval(this.poll)
    if (this.pending !== null) clearTimeout(this.pending)
  }

  private watchFile(): void {
    this.watcher?.close()
    this.watcher = null
    try {
      this.watcher = watch(this.file, { persistent: false }, () => this.soon())
      // A watch that fails later (the file deleted) is replaced when the poll finds it again.
      this.watcher.on('error', () => {
        this.watcher?.close()
        this.watcher = null
      })
    } catch {
      // No watch (the file is gone for now, or no inotify left): the poll still looks.
    }
  }

  private soon(): void {
    if (this.closed || this.pending !== null) return
    this.pending = setTimeout(() => {
      this.pending = null
      this.look()
    }, this.options.debounceMs ?? DEBOUNCE_MS)
  }

  /** check() from a timer: nothing may escape to the process (see the module header). */
  private look(): void {
    try {
      this.check()
    } catch (error) {
      this.fail(error)
    }
  }

  /** The last failure logged: a look that fails the same way every poll is logged once. */
  private logged: string | null = null

  private fail(error: unknown): void {
    const failure = error instanceof Error ? error : new Error(String(error))
    if (this.listener.failed !== undefined) return this.listener.failed(failure)
    if (this.logged === failure.message) return
    this.logged = failure.message
    console.error(`Following ${this.file}: ${failure.stack ?? failure.message}`)
  }

  /** Reads what was appended since the last look (everything, when the file was replaced). */
  check(): void {
    if (this.closed) return
    let size: number
    let ino: number
    try {
      const stats = statSync(this.file)
      if (!stats.isFile()) {
        // Not read, not a reason to start again: a file there later is (another inode).
        this.listener.failed?.(new NotRegularFileError(this.file, kindOf(stats)))
        return
      }
      size = stats.size
      ino = stats.ino
    } catch (error) {
      this.listener.failed?.(error as Error)
      return
    }
    if (ino !== this.position.ino || size < this.position.offset) {
      this.position = { offset: 0, nextLine: 1, ino }
      this.held = 0
      this.listener.reset()
      if (this.closed) return // the listener reads the file again itself
      this.watchFile()
    } else if (this.watcher === null) {
      this.watchFile()
    }
    if (size === this.position.offset) return
    const values: unknown[] = []
    const lines: number[] = []
    const problems = new ProblemLog()
    const max = this.options.maxRecords ?? MAX_RECORDS
    const sink: LineSink = {
      value: (value, line) => {
        if (this.held + values.length >= max) throw new TooManyRecordsError(max)
        values.push(value)
        lines.push(line)
      },
      problem: (problem) => problems.add(problem),
      get full() {
        return problems.full
      }
    }
    let fd: number
    try {
      // Swapped for a FIFO since the stat: refused, never waited on.
      fd = openRegularFile(this.file).fd
    } catch (error) {
      this.listener.failed?.(error as Error)
      return
    }
    try {
      const read = readLines(fd, sink, {
        from: this.position.offset,
        firstLine: this.position.nextLine,
        finalLine: false
      })
      this.position = { offset: read.complete, nextLine: read.nextLine, ino }
    } catch (error) {
      if (!(error instanceof TooManyRecordsError)) throw error
      this.close()
      this.listener.stopped(error)
      return
    } finally {
      closeSync(fd)
    }
    this.held += values.length
    if (values.length > 0 || problems.listed.length > 0) {
      this.listener.appended(values, lines, problems)
    }
  }
}

/**
 * Following a session another tool keeps in a store of its own (OpenCode's database), where
 * what changed is no appended line: the store's stamp (its files' sizes and times) is looked at
 * every POLL_MS, and when it moved the session is read again whole (`changed`). A read that
 * takes long (a large database) spaces the next look out: four times its cost at least, so
 * following never takes more than a fifth of a core. Read-only, like FileTail; what fails in a
 * look goes to `failed`.
 */
export class StoreTail {
  private timer: NodeJS.Timeout | null = null
  private closed = false
  private seen: string

  constructor(
    private readonly stamp: () => string,
    private readonly listener: { changed(): void; failed?(error: Error): void },
    private readonly pollMs = POLL_MS
  ) {
    this.seen = stamp()
    this.schedule(this.pollMs)
  }

  close(): void {
    this.closed = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(ms: number): void {
    if (this.closed) return
    this.timer = setTimeout(() => this.look(), ms)
    this.timer.unref()
  }

  private look(): void {
    const started = Date.now()
    try {
      const now = this.stamp()
      if (now !== this.seen) {
        this.seen = now
        this.listener.changed()
      }
    } catch (error) {
      this.listener.failed?.(error instanceof Error ? error : new Error(String(error)))
    }
    this.schedule(Math.max(this.pollMs, 4 * (Date.now() - started)))
  }
}
