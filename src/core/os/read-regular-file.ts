// Reading a path that should hold a regular file but may hold something else. A FIFO put where a
// file was expected would hang a plain readFile for good (open blocks until a writer comes, and
// the blocked libuv thread then keeps the process from exiting); a device could stream forever.
// So the path is opened with O_NONBLOCK (opening a FIFO returns at once, and for a regular file
// the flag changes nothing), and only what fstat on that descriptor calls a regular file is read.
import { type BigIntStats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'

export type PathContent =
  | { kind: 'file'; content: Buffer; stats: BigIntStats }
  | { kind: 'missing' }
  /** Something that is no regular file, named for a message ("… is a FIFO"). */
  | { kind: 'other'; what: NotAFile }

export type NotAFile = 'folder' | 'FIFO (named pipe)' | 'socket' | 'device'

function kindOf(stats: BigIntStats): NotAFile {
  if (stats.isDirectory()) return 'folder'
  if (stats.isFIFO()) return 'FIFO (named pipe)'
  if (stats.isSocket()) return 'socket'
  return 'device'
}

export type OpenedPath =
  | { kind: 'file'; fd: number; stats: BigIntStats }
  | { kind: 'missing' }
  | { kind: 'other'; what: NotAFile }

/**
 * `abs` opened when it is a regular file (the caller closes `fd`): what readRegularFile reads,
 * for a caller that reads only part of it. Options and errors as readRegularFile's.
 */
export function openRegularFile(
  abs: string,
  options: { followSymlinks: boolean } = { followSymlinks: true }
): OpenedPath {
  const flags =
    constants.O_RDONLY | constants.O_NONBLOCK | (options.followSymlinks ? 0 : constants.O_NOFOLLOW)
  let fd: number
  try {
    fd = openSync(abs, flags)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    // open(2) on a Unix socket fails with ENXIO.
    if (code === 'ENXIO') return { kind: 'other', what: 'socket' }
    throw error
  }
  try {
    const stats = fstatSync(fd, { bigint: true })
    if (stats.isFile()) return { kind: 'file', fd, stats }
    closeSync(fd)
    return { kind: 'other', what: kindOf(stats) }
  } catch (error) {
    closeSync(fd)
    throw error
  }
}

/**
 * What is at `abs`, read only when it is a regular file. `followSymlinks: false` (O_NOFOLLOW):
 * a symlink at the last part of the path is refused with ELOOP instead of read through. Errors
 * other than "nothing there" (ENOENT, ENOTDIR) are thrown.
 */
export function readRegularFile(
  abs: string,
  options: { followSymlinks: boolean } = { followSymlinks: true }
): PathContent {
  const opened = openRegularFile(abs, options)
  if (opened.kind !== 'file') return opened
  try {
    return {
      kind: 'file',
      content: readOpenFile(opened.fd, Number(opened.stats.size)),
      stats: opened.stats
    }
  } finally {
    closeSync(opened.fd)
  }
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
