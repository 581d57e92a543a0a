// Splitting a session file into records. One pass, one JSON.parse per line: this is the hot path
// of opening a big session, so it does nothing else per line.
//
// The file is read in chunks, never as one string: V8 refuses a string over ~512 MiB, so a log of
// any size opens (bench/session-open-large.ts). Lines are split on the byte '\n' (it never occurs
// inside a multi-byte UTF-8 character), and each chunk's complete lines are decoded at once; the
// bytes after the chunk's last '\n' wait for the next chunk. The same reader continues from an
// offset for a file that grew (the session index, the live tail): a last line without its '\n'
// is incomplete until the writer finishes it.
import { CodedError } from '../../shared/coded-error'
import { groupedNumber } from '../../shared/grouped-number'
import { closeSync, fstatSync, readSync } from 'node:fs'
import { openRegularFile } from '../os/read-regular-file'
import { MAX_RECORD_DEPTH, nestsTooDeep } from './json-depth'
import { type LoadProblem, ProblemLog } from './problems'

export interface ParsedJsonl {
  /** Every line that parsed, in file order (any JSON value: the tree judges what it is). */
  values: unknown[]
  /** The 1-based line number of each value. */
  lines: number[]
  /** The first MAX_LISTED_PROBLEMS problems (ProblemLog), and a torn last line's. */
  problems: LoadProblem[]
  /** Problems found past those listed. */
  unlistedProblems: number
  /** The last line was incomplete (a crash or full disk mid-write); it is not in `values`. */
  tornTail: boolean
  /** False when the last byte is not '\n': the next append must start a fresh line first. */
  endsWithNewline: boolean
}

/** A line longer than this is skipped as a problem (no session writes one; V8 cannot hold it). */
export const MAX_LINE_BYTES = 256 * 1024 * 1024
/**
 * The most records a file is read with: a 1 GB session holds ~1,200,000. Past it, reading stops
 * with TooManyRecordsError rather than exhaust the heap: kept records cost memory by their count
 * (15,000,000 lines of `{}`, 45 MB, took 2 GB), so a file of tiny ones can be hostile.
 */
export const MAX_RECORDS = 5_000_000

export class TooManyRecordsError extends CodedError {
  constructor(
    readonly max: number,
    /** The file, when the message should name it. */
    file?: string
  ) {
    super(
      'refused',
      `${file === undefined ? '' : `Cannot open ${file}: `}it holds more than ${groupedNumber(max)} records, more than Rewind Studio reads (a 1 GB session holds about 1,200,000)`
    )
    this.name = 'TooManyRecordsError'
  }
}
const CHUNK_BYTES = 4 * 1024 * 1024

/** What to do with each line: parsed JSON, or the problem it is. */
export interface LineSink {
  value(value: unknown, line: number): void
  problem(problem: LoadProblem): void
  /** The sink only counts problems now (ProblemLog.full): a bad line's message need not be made. */
  readonly full?: boolean
}

/**
 * Feeds the complete lines of `text` (each ending in '\n' except, when `last`, the final one) to
 * `sink`, numbering from `firstLine`. Returns the number of the next line.
 */
function parseLines(text: string, firstLine: number, last: boolean, sink: LineSink): number {
  // A file's first line may start with a byte order mark (an editor's save, Windows tools):
  // JSON.parse refuses it, and the whole session read as one of no known tool.
  let start = firstLine === 1 && text.charCodeAt(0) === 0xfeff ? 1 : 0
  // The next line's number, counted in the loop: no arithmetic after it. The loop is optimized
  // while it runs (a 4 MB chunk), before the code after it ever ran; an addition there had no
  // type feedback and threw that code away at the end of every chunk, and the next chunk's lines
  // went through the interpreter until it was optimized again (bench/cli-startup.ts).
  let next = firstLine
  // A line that is not JSON costs an exception: made without a stack trace it costs half (a
  // hostile file of millions of bad lines).
  const stackTraceLimit = Error.stackTraceLimit
  while (start < text.length) {
    const nl = text.indexOf('\n', start)
    const end = nl === -1 ? text.length : nl
    const lineNo = next++
    const line = text.slice(start, end)
    start = end + 1
    if (line === '') continue
    // Writes are whole lines ending in '\n', so only the unterminated last line can be a
    // partial write; a bad line anywhere else was written bad (or edited by hand).
    const torn = last && nl === -1
    if (sink.full === true && !torn && !mayBeJson(line)) {
      sink.problem({ line: lineNo, kind: 'malformed', message: NOT_JSON })
      continue
    }
    let value: unknown
    Error.stackTraceLimit = 0
    try {
      value = JSON.parse(line)
    } catch (error) {
      Error.stackTraceLimit = stackTraceLimit
      if (line.trim() === '') continue
      sink.problem({
        line: lineNo,
        kind: torn ? 'torn-tail' : 'malformed',
        message: torn
          ? `incomplete last line (${line.length} characters): a write was cut off; earlier records are intact`
          : `not JSON: ${(error as Error).message}`
      })
      continue
    }
    Error.stackTraceLimit = stackTraceLimit
    if (nestsTooDeep(line, value)) sink.problem(tooDeep(lineNo))
    else sink.value(value, lineNo)
  }
  return next
}

/** Said of a bad line only counted (its details are not listed): no JSON.parse to word it. */
const NOT_JSON = 'not JSON'

/**
 * Whether a line may be JSON, by its first character: a value's first, or whitespace (then
 * JSON.parse decides). What fails here is not parsed: garbage costs no exception.
 */
function mayBeJson(line: string): boolean {
  const c = line.charCodeAt(0)
  return (
    c === 0x7b || // {
    c === 0x5b || // [
    c === 0x22 || // "
    c === 0x2d || // -
    (c >= 0x30 && c <= 0x39) ||
    c === 0x74 || // t
    c === 0x66 || // f
    c === 0x6e || // n
    c === 0x20 ||
    c === 0x09 ||
    c === 0x0d ||
    c === 0xfeff
  )
}

function tooDeep(line: number): LoadProblem {
  return {
    line,
    kind: 'malformed',
    message: `nested deeper than ${MAX_RECORD_DEPTH} levels (no tool writes such a record; it could not be shown): skipped`
  }
}

/** The whole text at once (tests, and callers that already hold the text). */
export function parseJsonl(text: string): ParsedJsonl {
  const collected = collector()
  parseLines(text, 1, true, collected.sink)
  return collected.result(text.length === 0 || text.endsWith('\n'))
}

/** `keep`: what is kept of each parsed value (default: the value as parsed). */
function collector(keep?: (value: unknown) => unknown, maxRecords = MAX_RECORDS) {
  const values: unknown[] = []
  const lines: number[] = []
  const problems = new ProblemLog()
  let torn: LoadProblem | null = null
  return {
    sink: {
      value(value: unknown, line: number) {
        if (values.length >= maxRecords) throw new TooManyRecordsError(maxRecords)
        values.push(keep === undefined ? value : keep(value))
        lines.push(line)
      },
      problem(problem: LoadProblem) {
        // A torn last line is always listed: the store and the live tail act on it.
        if (problem.kind === 'torn-tail') torn = problem
        else problems.add(problem)
      },
      get full() {
        return problems.full
      }
    } satisfies LineSink,
    result: (endsWithNewline: boolean): ParsedJsonl => ({
      values,
      lines,
      problems: torn === null ? problems.listed : [...problems.listed, torn],
      unlistedProblems: problems.unlisted,
      tornTail: torn !== null,
      endsWithNewline
    })
  }
}

export interface ReadLinesResult {
  /** Bytes read from `from` to the end of the file as it was read. */
  bytesRead: number
  /**
   * Offset just past the last '\n' read: where reading resumes once the file grows. A last line
   * without its '\n' (read as the final line, or waiting for it) lies after it.
   */
  complete: number
  /** The number of the line at `complete`. */
  nextLine: number
  /** Whether the last byte read is '\n'; null when nothing was read. */
  endsWithNewline: boolean | null
}

export interface ReadLinesOptions {
  /** Byte offset to start at: the start of a line (default 0). */
  from?: number
  /** Number of the line at `from` (default 1). */
  firstLine?: number
  /**
   * The bytes after the last '\n' are the file's last line (a torn tail when they are not JSON).
   * False for a file another program may still be writing: they wait for their newline and are
   * not passed to the sink (`complete` stops before them).
   */
  finalLine?: boolean
  /** For tests: the chunk size and the longest line kept. */
  chunkBytes?: number
  maxLineBytes?: number
}

/**
 * Reads the lines of an open file from `from` to its end in chunks, passing each to `sink`.
 * Never builds a string of the whole file.
 */
export function readLines(
  fd: number,
  sink: LineSink,
  options: ReadLinesOptions = {}
): ReadLinesResult {
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES
  let buffer = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES)
  /** Bytes at the start of `buffer` that wait for their '\n'. */
  let held = 0
  let position = options.from ?? 0
  let lineNo = options.firstLine ?? 1
  let complete = position
  let bytesRead = 0
  let lastByte = -1
  /** Inside a line over the limit: its bytes are dropped until its '\n'. */
  let skipping: { line: number; bytes: number } | null = null
  const skip = (s: { line: number; bytes: number }) =>
    sink.problem({
      line: s.line,
      kind: 'malformed',
      message: `a line of ${s.bytes} bytes or more (the limit is ${maxLine}): skipped`
    })
  for (;;) {
    if (held === buffer.length) {
      if (held >= maxLine) {
        skipping = { line: lineNo, bytes: held }
        held = 0
      } else {
        const bigger = Buffer.allocUnsafe(buffer.length * 2)
        buffer.copy(bigger, 0, 0, held)
        buffer = bigger
      }
    }
    const n = readSync(fd, buffer, held, buffer.length - held, position)
    if (n === 0) break
    const fresh = held
    position += n
    bytesRead += n
    held += n
    lastByte = buffer[held - 1] ?? -1
    const view = buffer.subarray(0, held)
    let lineStart = 0
    if (skipping !== null) {
      const nl = view.indexOf(10, fresh)
      if (nl === -1) {
        skipping.bytes += n
        held = 0
        continue
      }
      skip({ line: skipping.line, bytes: skipping.bytes + nl })
      skipping = null
      lineNo++
      lineStart = nl + 1
    }
    const lastNl = view.lastIndexOf(10)
    if (lastNl >= lineStart) {
      lineNo = parseLines(buffer.toString('utf8', lineStart, lastNl + 1), lineNo, false, sink)
      lineStart = lastNl + 1
    }
    complete = position - (held - lineStart)
    buffer.copy(buffer, 0, lineStart, held)
    held -= lineStart
  }
  const final = options.finalLine !== false
  if (skipping !== null && final) {
    skip({ line: skipping.line, bytes: skipping.bytes + held })
  } else if (held > 0 && final) {
    parseLines(buffer.toString('utf8', 0, held), lineNo, true, sink)
  }
  return {
    bytesRead,
    complete,
    nextLine: lineNo,
    endsWithNewline: lastByte === -1 ? null : lastByte === 10
  }
}

/** Where reading a file stopped: what a reader that follows it goes on from. */
export interface ReadPosition {
  /** Offset just past the last complete line read. */
  offset: number
  /** The number of the line at `offset`. */
  nextLine: number
  /** The file's inode when read: another one means the file was replaced. */
  ino: number
}

/** A whole file's lines, and where its complete lines end (readLines' `complete`, `nextLine`). */
export type FileJsonl = ParsedJsonl & {
  bytes: number
  complete: number
  nextLine: number
  ino: number
}

export type ReadJsonlOptions = Omit<ReadLinesOptions, 'from'> & {
  /**
   * What to keep of each value as it is parsed (default: all of it). A reader that needs a few
   * fields of each record keeps only those, so the rest dies young: a 100 MB log parsed and all
   * kept costs the garbage collector a copy of every record (bench/cli-startup.ts).
   */
  keep?: (value: unknown) => unknown
  /** For tests: MAX_RECORDS. */
  maxRecords?: number
}

/**
 * A whole session file, read in chunks (see the top of this module). Only a regular file is
 * read: a FIFO there is refused at once (NotRegularFileError), never waited on.
 */
export function readJsonlFile(file: string, options: ReadJsonlOptions = {}): FileJsonl {
  const { fd } = openRegularFile(file)
  try {
    return readJsonlFd(fd, options)
  } finally {
    closeSync(fd)
  }
}

/** readJsonlFile on an open descriptor (the store reads through the one it locked for). */
export function readJsonlFd(fd: number, options: ReadJsonlOptions = {}): FileJsonl {
  const collected = collector(options.keep, options.maxRecords)
  const read = readLines(fd, collected.sink, { ...options, from: 0, finalLine: true })
  return {
    ...collected.result(read.endsWithNewline !== false),
    bytes: read.bytesRead,
    complete: read.complete,
    nextLine: read.nextLine,
    ino: fstatSync(fd).ino
  }
}
