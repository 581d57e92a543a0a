// Reading a path that should hold a regular file but may hold something else: every reader of a
// session file (ours and other tools'), of what lies beside one (a sub-agent's transcript, a
// writer lock, a companion log) and of the data home's own small files opens through here, as do
// the file tools. A FIFO put where a file was expected would hang a plain open for good (open(2)
// blocks until a writer comes; on the main thread that freezes the host, and even a SIGTERM
// handler never runs; on a libuv thread it keeps the process from exiting); a device could
// stream forever.
//
// So the path is opened with O_NONBLOCK (opening a FIFO returns at once, and for a regular file
// the flag changes nothing), and only what fstat on that same descriptor calls a regular file is
// kept. No lstat comes first: a check of the path and a later open of it could see two different
// things (a file swapped for a FIFO in between); the descriptor is what is read.
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  statSync
} from 'node:fs'
import { CodedError } from '../../shared/coded-error'
import { diskSize } from '../../shared/disk-size'

export type PathContent =
  | { kind: 'file'; content: Buffer; stats: BigIntStats }
  | { kind: 'missing' }
  /** Something that is no regular file, named for a message ("… is a FIFO"). */
  | { kind: 'other'; what: NotAFile }

export type NotAFile = 'folder' | 'FIFO (named pipe)' | 'socket' | 'device'

/** A path that holds something other than the regular file a reader expected: never read. */
export class NotRegularFileError extends CodedError {
  constructor(
    readonly path: string,
    readonly what: NotAFile
  ) {
    super('refused', `${path} is a ${what}, not a regular file: it is not read`)
    this.name = 'NotRegularFileError'
  }
}

/** A small file of ours that is far larger than any we write: refused before it is read. */
export class FileTooLargeError extends CodedError {
  constructor(
    readonly path: string,
    size: number,
    limit: number
  ) {
    super(
      'refused',
      `${path} is ${diskSize(size)}, more than the ${diskSize(limit)} such a file may be: it is not read`
    )
    this.name = 'FileTooLargeError'
  }
}

/** What a stat that is no regular file's names (for a message). */
export function kindOf(stats: {
  isDirectory(): boolean
  isFIFO(): boolean
  isSocket(): boolean
}): NotAFile {
  if (stats.isDirectory()) return 'folder'
  if (stats.isFIFO()) return 'FIFO (named pipe)'
  if (stats.isSocket()) return 'socket'
  return 'device'
}

export interface OpenOptions {
  /** false (O_NOFOLLOW): a symlink at the last part of the path is refused with ELOOP. */
  followSymlinks?: boolean
  /** Opened to append (O_WRONLY | O_APPEND) instead of to read. */
  append?: boolean
}

/**
 * A descriptor on `abs` when it holds a regular file, with its stats; the caller closes it. Never
 * blocks: anything else (a FIFO, a socket, a device, a folder) throws NotRegularFileError, and
 * open's own errors (ENOENT, EACCES, ELOOP...) are thrown as they are.
 */
export function openRegularFile(
  abs: string,
  options: OpenOptions = {}
): { fd: number; stats: BigIntStats } {
  const flags =
    (options.append === true ? constants.O_WRONLY | constants.O_APPEND : constants.O_RDONLY) |
    constants.O_NONBLOCK |
    (options.followSymlinks === false ? constants.O_NOFOLLOW : 0)
  let fd: number
  try {
    fd = openSync(abs, flags)
  } catch (error) {
    // open(2) fails with ENXIO on a Unix socket, and on a FIFO opened to write with no reader.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') {
      throw new NotRegularFileError(abs, nameOf(abs))
    }
    throw error
  }
  let stats: BigIntStats
  try {
    stats = fstatSync(fd, { bigint: true })
  } catch (error) {
    closeSync(fd)
    throw error
  }
  if (!stats.isFile()) {
    closeSync(fd)
    throw new NotRegularFileError(abs, kindOf(stats))
  }
  return { fd, stats }
}

/** What ENXIO opened, named for the message only (what was not opened is not read). */
function nameOf(abs: string): NotAFile {
  try {
    return kindOf(statSync(abs))
  } catch {
    return 'socket'
  }
}

/** What openPath found at a path: an open regular file (the caller closes `fd`), or why not. */
export type OpenedPath =
  | { kind: 'file'; fd: number; stats: BigIntStats }
  | { kind: 'missing' }
  | { kind: 'other'; what: NotAFile }

/**
 * `abs` opened when it holds a regular file (openRegularFile), for a caller that reads only part
 * of it; nothing there (ENOENT, ENOTDIR) is `missing`, something else `other`; other errors are
 * thrown.
 */
export function openPath(
  abs: string,
  options: { followSymlinks: boolean } = { followSymlinks: true }
): OpenedPath {
  try {
    return { kind: 'file', ...openRegularFile(abs, options) }
  } catch (error) {
    if (error instanceof NotRegularFileError) return { kind: 'other', what: error.what }
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    throw error
  }
}

/**
 * What is at `abs`, read only when it is a regular file (openPath); one larger than `maxBytes`
 * throws FileTooLargeError unread.
 */
export function readRegularFile(
  abs: string,
  options: { followSymlinks: boolean; maxBytes?: number } = { followSymlinks: true }
): PathContent {
  const opened = openPath(abs, options)
  if (opened.kind !== 'file') return opened
  const { maxBytes = Number.POSITIVE_INFINITY } = options
  try {
    const size = Number(opened.stats.size)
    if (size > maxBytes) throw new FileTooLargeError(abs, size, maxBytes)
    return { kind: 'file', content: readOpenFile(opened.fd, size), stats: opened.stats }
  } finally {
    closeSync(opened.fd)
  }
}

/**
 * A regular file's text (UTF-8), for the small files a reader takes whole (settings, an index, a
 * lock); null when nothing is there. Anything else there throws NotRegularFileError; one larger
 * than `maxBytes` throws FileTooLargeError unread (a 1 GB settings.json took seconds and a
 * gigabyte of memory before its JSON error).
 */
export function readRegularText(abs: string, maxBytes?: number): string | null {
  const found = readRegularFile(abs, { followSymlinks: true, maxBytes })
  if (found.kind === 'missing') return null
  if (found.kind === 'other') throw new NotRegularFileError(abs, found.what)
  return found.content.toString('utf8')
}

/**
 * The text of the regular file at `abs`, or null when it is missing, something else or unreadable:
 * for a file a reader can do without (a project's root beside a chat, a checkpoint).
 */
export function readOptionalText(abs: string): string | null {
  try {
    return readRegularText(abs)
  } catch {
    return null
  }
}

/**
 * Up to `length` bytes of the regular file at `abs` from `offset`: fewer at its end, and no more
 * allocated than it holds then (a caller's bound may be far larger than the file). A FIFO or
 * anything else there throws NotRegularFileError, as openRegularFile does.
 */
export function readRegularFileAt(abs: string, offset: number, length: number): Buffer {
  const { fd, stats } = openRegularFile(abs)
  try {
    return readAt(fd, offset, Math.max(0, Math.min(length, Number(stats.size) - offset)))
  } finally {
    closeSync(fd)
  }
}

/** Up to `length` bytes of the open file `fd` from `offset` (fewer at its end). */
export function readAt(fd: number, offset: number, length: number): Buffer {
  const out = Buffer.alloc(length)
  let got = 0
  while (got < length) {
    const n = readSync(fd, out, got, length - got, offset + got)
    if (n === 0) break
    got += n
  }
  return got === length ? out : out.subarray(0, got)
}

/**
 * The content of the regular file open at `fd`, whose size fstat just gave: readFileSync would
 * fstat it again (a restore reads a thousand files). Read up to that size, as readFileSync does;
 * a file that says 0 (those of /proc) is read to its end.
 */
function readOpenFile(fd: number, size: number): Buffer {
  if (size > MAX_READ_BYTES) throw tooLarge(size)
  let buffer = Buffer.allocUnsafeSlow(size > 0 ? size : 8192)
  let length = 0
  for (;;) {
    if (length === buffer.length) {
      if (size > 0) break
      if (length * 2 > MAX_READ_BYTES) throw tooLarge(length * 2)
      const bigger = Buffer.allocUnsafeSlow(length * 2)
      buffer.copy(bigger, 0, 0, length)
      buffer = bigger
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null)
    if (read === 0) break
    length += read
  }
  return length === buffer.length ? buffer : buffer.subarray(0, length)
}

/** readFileSync's own limit: past it, a clear error rather than an allocation that may fail. */
const MAX_READ_BYTES = 2 ** 31 - 1

function tooLarge(size: number): Error {
  return Object.assign(new RangeError(`File size (${size}) is greater than 2 GiB`), {
    code: 'ERR_FS_FILE_TOO_LARGE'
  })
}
