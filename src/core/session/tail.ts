// Following a session file another program is still writing (a running Claude Code, pi or
// oh-my-pi): the reader side of "live". A SessionTail reads the file once, then refresh() reads
// only what was appended since and adds its records to the same tree (SessionTree.addRecord),
// so the graph can update line by line. Whoever watches the file (the studio's poll, the
// sources' watcher) calls refresh() when it changed. The file is only read, never written or
// locked.
//
// - A last line without its '\n' is being written: it waits, unread, for its newline.
// - A file replaced (another inode) or cut shorter than what was read, or whose first bytes
//   changed (rewritten in place: oh-my-pi's title slot, a migration), is read again from the start.
// - A foreign format's sidecar files (sub-agent transcripts) changing also means a fresh read:
//   their runs are built with the session.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs'
import type { ForeignReader } from './foreign/types'
import { readLines } from './jsonl'
import { SessionBuilder, detectFormat, readSidecars, readerOf } from './load'
import type { LoadProblem } from './problems'
import type { SessionTree } from './tree'

/** The first bytes compared to notice a file rewritten in place. */
const FINGERPRINT_BYTES = 512

export interface TailRefresh {
  /** Lines read since the last refresh (or since the start, after a reread). */
  linesRead: number
  /** The file was read again from the start (replaced, truncated or rewritten). */
  reread: boolean
}

export class SessionTail {
  private builder: SessionBuilder | null = null
  private readonly parseProblems: LoadProblem[] = []
  /** Lines read before the format could be told (an empty or header-only file). */
  private waiting: { value: unknown; line: number }[] = []
  private offset = 0
  private nextLine = 1
  private inode = -1
  private fingerprint: Buffer = Buffer.alloc(0)
  private sidecarStamp = ''

  /** `reader`: the format when the caller knows it (discovery does); else told from the lines. */
  constructor(
    readonly file: string,
    private readonly knownReader: ForeignReader | null = null
  ) {
    this.refresh()
  }

  /** The tree so far (a new object after a reread). */
  get tree(): SessionTree | null {
    return this.builder?.tree ?? null
  }

  get session(): SessionBuilder | null {
    return this.builder
  }

  problems(): LoadProblem[] {
    return [...this.parseProblems, ...(this.builder?.problems() ?? [])].sort(
      (a, b) => a.line - b.line
    )
  }

  /** Reads what was appended since the last call (everything, the first time or after a change). */
  refresh(): TailRefresh {
    const fd = openSync(this.file, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      const stats = fstatSync(fd)
      const head = readHead(fd)
      const sidecars = this.sidecarStampNow()
      const reread =
        this.inode !== -1 &&
        (stats.ino !== this.inode ||
          stats.size < this.offset ||
          !head.subarray(0, this.fingerprint.length).equals(this.fingerprint) ||
          sidecars !== this.sidecarStamp)
      if (reread || this.inode === -1) this.reset()
      this.inode = stats.ino
      this.sidecarStamp = sidecars
      if (this.fingerprint.length < FINGERPRINT_BYTES) this.fingerprint = head
      let linesRead = 0
      const read = readLines(
        fd,
        {
          value: (value, line) => {
            linesRead++
            this.add(value, line)
          },
          problem: (problem) => this.parseProblems.push(problem)
        },
        { from: this.offset, firstLine: this.nextLine, finalLine: false }
      )
      this.offset = read.complete
      this.nextLine = read.nextLine
      return { linesRead, reread }
    } finally {
      closeSync(fd)
    }
  }

  private reset(): void {
    this.builder = null
    this.waiting = []
    this.parseProblems.length = 0
    this.offset = 0
    this.nextLine = 1
    this.fingerprint = Buffer.alloc(0)
  }

  private add(value: unknown, line: number): void {
    if (this.builder === null) {
      this.waiting.push({ value, line })
      const reader = this.knownReader ?? readerOf(detectFormat(this.waiting.map((w) => w.value)))
      if (reader === null) return
      this.builder = new SessionBuilder(reader, readSidecars(reader, this.file))
      for (const w of this.waiting) this.builder.add(w.value, w.line)
      this.waiting = []
      return
    }
    this.builder.add(value, line)
  }

  /** Names, sizes and times of the sidecar files: a change means their runs are read again. */
  private sidecarStampNow(): string {
    const reader = this.builder?.reader ?? this.knownReader
    const dir = reader?.sidecarDir?.(this.file)
    if (dir === undefined) return ''
    try {
      return readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
        .map((name) => {
          const s = statSync(`${dir}/${name}`)
          return `${name}:${s.size}:${s.mtimeMs}`
        })
        .join('|')
    } catch {
      return ''
    }
  }
}

function readHead(fd: number): Buffer {
  const head = Buffer.alloc(FINGERPRINT_BYTES)
  const n = readSync(fd, head, 0, head.length, 0)
  return head.subarray(0, n)
}
