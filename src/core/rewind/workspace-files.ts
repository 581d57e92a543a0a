// The only way a restore touches the workspace: every path is checked (no escape, no symlink on
// it, never the root itself, never in any .git folder) right before the write. New content
// lands through a temp file in the same folder plus rename (a crash leaves the old file or the
// new one), or, for a file that is there already and can take it, over the file in place as
// `cp` writes (overwriteInPlace: a crash part way is rolled back from the journal, which
// recognizes such a file with isPartialOverwrite).
//
// Synchronous on purpose, like the blob store: a restore of a thousand small files spent most
// of its time hopping through libuv's thread pool. The engine yields between small batches.
import { CodedError } from '../../shared/coded-error'
import {
  type BigIntStats,
  type Stats,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  statfsSync,
  rmSync
} from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { readRegularFile } from '../os/read-regular-file'
import { writeAllSync } from '../os/write-all'
import { BlobStore } from '../files/blob-store'
import type { HistoryPaths } from '../files/history-paths'
import { historyPathsAt } from '../files/history-paths'
import { PathOutsideWorkspaceError, workspacePathAsWritten } from '../files/workspace-paths'

/** Where restores read backups from and write files to (a FileHistory is one). */
export interface RestoreSpace {
  /** The workspace root, resolved through symlinks. */
  root: string
  paths: HistoryPaths
  blobs: BlobStore
}

export function restoreSpaceAt(root: string, historyRoot: string): RestoreSpace {
  const paths = historyPathsAt(historyRoot)
  return { root, paths, blobs: new BlobStore(paths.blobs) }
}

/**
 * The absolute path a restore may touch for `rel`, or PathOutsideWorkspaceError naming it. Called
 * once per file per phase, right before that phase touches it.
 *
 * Stricter than resolveInWorkspace: no part of the path may be a symlink, even one leading to
 * another place inside the workspace, so the parts are checked with lstat and no realpath is
 * needed (`root` is already resolved; see RestoreSpace). Recorded paths never run through one
 * (Write and Edit file a change under the link's target, Bash detection does not follow links),
 * so a link on the path now was put there after the session changed the file, and following it
 * would write or delete a file the session never touched.
 */
export function checkedPath(root: string, rel: string): string {
  return walkPath(root, rel, false).abs
}

/** checkedPath, plus the stamp of the regular file found there (null: none). */
export function inspectPath(root: string, rel: string): { abs: string; stamp: string | null } {
  const { abs, file } = walkPath(root, rel, true)
  return { abs, stamp: file === null ? null : stampOf(file) }
}

/**
 * checkedPath's walk: each part of the path lstat'ed from the root, a symlink refused; the
 * regular file at its end, if any, with its stats (BigInt ones when a stamp is wanted).
 */
function walkPath<Big extends boolean>(
  root: string,
  rel: string,
  bigint: Big
): { abs: string; file: (Big extends true ? BigIntStats : Stats) | null } {
  const checked = workspacePathAsWritten(root, rel)
  if (checked.rel === '') {
    // A restore writes and deletes files: at the root itself it would replace the workspace
    // folder with a file (its temp file landing outside, in the root's parent).
    throw new PathOutsideWorkspaceError(
      rel,
      'it names the workspace folder itself, not a file in it'
    )
  }
  const none = { abs: checked.abs, file: null }
  let at = root
  let stats: Stats | BigIntStats | undefined
  for (const part of checked.rel.split('/')) {
    at = join(at, part)
    try {
      stats = lstatSync(at, { bigint, throwIfNoEntry: false })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return none
      throw error
    }
    if (stats === undefined) return none
    if (stats.isSymbolicLink()) {
      throw new PathOutsideWorkspaceError(
        rel,
        `${relative(root, at)} is now a symlink (made after the session changed the file); a restore does not follow it`
      )
    }
    if (!stats.isDirectory()) break
  }
  const isTheFile = at === checked.abs && stats?.isFile() === true
  return isTheFile
    ? { abs: checked.abs, file: stats as Big extends true ? BigIntStats : Stats }
    : none
}

/**
 * The first of `recreated` (paths whose file is missing) whose folder a restore could not make:
 * a part of its path is a file now (or anything else but a folder) that the same restore does
 * not delete. Null when every one can be made. Planned, so a dry run refuses what the apply
 * would (its mkdir fails EEXIST), rather than plan a restore that cannot happen.
 */
export function folderBlocked(
  root: string,
  recreated: readonly string[],
  deleted: ReadonlySet<string>
): { path: string; blocker: string } | null {
  // Folders looked at once for all the files under them.
  const seen = new Map<string, boolean>()
  for (const path of recreated) {
    const parts = path.split('/').slice(0, -1)
    for (let i = 1; i <= parts.length; i++) {
      const folder = parts.slice(0, i).join('/')
      let free = seen.get(folder)
      if (free === undefined) {
        free = deleted.has(folder) || isFolderOrNothing(join(root, folder))
        seen.set(folder, free)
      }
      if (!free) return { path, blocker: folder }
    }
  }
  return null
}

/** Whether a folder or nothing stands at `abs` (under a file that goes: nothing). */
function isFolderOrNothing(abs: string): boolean {
  try {
    return lstatSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return true
    throw error
  }
}

export interface FileOnDisk {
  content: Buffer
  /** Permission bits (mode & 0o7777). */
  mode: number
  /** Device, inode, size, mtime and ctime in nanoseconds: any write or chmod changes one. */
  stamp: string
  /**
   * Whether the file's ctime was well before this read. Only then does an equal stamp later
   * prove nothing wrote meanwhile: a write in the same clock tick as the one before the read
   * could leave every time as it was (git's "racily clean" files).
   */
  settled: boolean
}

/** What a restore remembers of a file it read (see unchangedSince). */
export type FileStamp = Pick<FileOnDisk, 'stamp' | 'settled' | 'mode'>

/**
 * How long before a read a file must have last changed for its stamp to be trusted: longer
 * than the file system's timestamp granularity. Linux's local file systems (ext2–4, XFS, Btrfs,
 * tmpfs, F2FS, ZFS, overlayfs over them) stamp in nanoseconds from a clock that moves at least
 * every jiffy (≤ 10 ms); 100 ms leaves a wide margin. Anything else (FAT's 2 s, a network file
 * system's server clock, another OS) gets 2 s.
 */
export function settleMarginMs(dir: string): number {
  if (process.platform !== 'linux') return 2000
  const type = fileSystemType(dir)
  return type !== null && FINE_TIMESTAMP_FILE_SYSTEMS.has(type) ? 100 : 2000
}

const FINE_TIMESTAMP_FILE_SYSTEMS = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // XFS
  0x9123683e, // Btrfs
  0x01021994, // tmpfs
  0xf2f52010, // F2FS
  0x2fc12fc1, // ZFS
  0x794c7630 // overlayfs
])

/**
 * Whether files on the file system holding `dir` may be restored in place (overwriteInPlace):
 * only where a write over a file's allocated blocks lands in those blocks, so a write that fits
 * them allocates nothing and cannot run out of space part way. ext2–4 and tmpfs. XFS and Btrfs
 * can share blocks between files (copy on write), overlayfs copies a lower file up, a network
 * file system may do anything: those get temp file + rename.
 */
export function overwritesInPlace(dir: string): boolean {
  if (process.platform !== 'linux') return false
  const type = fileSystemType(dir)
  return type !== null && IN_PLACE_FILE_SYSTEMS.has(type)
}

const IN_PLACE_FILE_SYSTEMS = new Set([0xef53, 0x01021994])

function fileSystemType(dir: string): number | null {
  try {
    return statfsSync(dir).type
  } catch {
    return null
  }
}

function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
}

/**
 * Whether the file at a path is, for certain, still the one `read` was: the stamp inspectPath
 * found there is the same and the read was of a settled file. False means "read it again".
 */
export function unchangedSince(read: FileStamp, stampNow: string | null): boolean {
  return read.settled && stampNow === read.stamp
}

/**
 * The file's content and mode, or null when no regular file is there (nothing, or a folder: a
 * restore never keeps or deletes a folder as if it were a file). `settleMs`: see
 * settleMarginMs.
 */
export function readFileAt(abs: string, settleMs = 2000): FileOnDisk | null {
  // Taken before the read: the earlier it is, the stricter "settled" is.
  const readAt = BigInt(Date.now()) * 1_000_000n
  // A FIFO or a folder put on the path is no file. No following: checkedPath refused a link
  // here, and one swapped in since is not read through.
  const found = readRegularFile(abs, { followSymlinks: false })
  if (found.kind !== 'file') return null
  const { content, stats } = found
  return {
    content,
    mode: Number(stats.mode & 0o7777n),
    stamp: stampOf(stats),
    settled: stats.ctimeNs < readAt - BigInt(settleMs) * 1_000_000n
  }
}

/**
 * Writes `content` over the file at `abs` in place, as `cp` does, when that is safe, and says
 * whether it did. A replace by temp file and rename costs a new inode per file and, on ext4, a
 * flush of the new data at the rename: 2–4× `cp` for a thousand small files
 * (docs/performance.md). In place means a reader may see the file part written for the moment
 * of the write, and a crash part way leaves it so until the journal's rollback
 * (isPartialOverwrite recognizes it); so only where nothing else can go wrong:
 * - the file opened (no link followed, no FIFO waited on) is the one checked: `stamp` (device,
 *   inode, size, times) unchanged, so no write, swap or link since;
 * - it has no other hard link (that name would change too, maybe outside the workspace);
 * - `content` fits in the blocks it has (overwritesInPlace: the write allocates nothing, so a
 *   full disk cannot stop it half way);
 * - it can be opened for writing (a read-only file, a running program: replaced instead);
 * - its permission bits stay (`mode`, when given, is what it has): a change of bits goes with
 *   the content in one rename, never a file with new bits and old content or the reverse.
 * Returns false, having written nothing, when any of these fails: the caller replaces it.
 */
export function overwriteInPlace(
  abs: string,
  content: Buffer,
  stamp: string,
  mode?: number
): boolean {
  let fd: number
  try {
    fd = openSync(abs, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch {
    return false
  }
  try {
    const stats = fstatSync(fd, { bigint: true })
    if (
      !stats.isFile() ||
      stampOf(stats) !== stamp ||
      stats.nlink !== 1n ||
      BigInt(content.length) > stats.blocks * 512n ||
      (mode !== undefined && Number(stats.mode & 0o7777n) !== mode)
    ) {
      return false
    }
    // From the first byte, the old bytes past the new end cut last: every state a crash can
    // leave is isPartialOverwrite's.
    writeAllSync(fd, content, 0)
    if (stats.size > BigInt(content.length)) ftruncateSync(fd, content.length)
    return true
  } finally {
    closeSync(fd)
  }
}

/**
 * overwriteInPlace for a file this restore backed up a moment ago (`backedUp`: what its backup
 * read), without walking its path again: a thousand lstat walks were a tenth of a restore run
 * from the command line. The file opened must be, by its stamp, the very file backed up (device
 * and inode included), or nothing is written; so a folder on the path swapped for a symlink
 * since leads to no write, and a file reached through it that still has the backup's stamp is
 * the file the session changed. Only for a file read settled (unchangedSince's rule). False: not
 * written, the caller checks the path and writes as usual.
 */
export function overwriteAsBackedUp(
  root: string,
  rel: string,
  content: Buffer,
  backedUp: FileStamp,
  mode?: number
): boolean {
  const { abs } = workspacePathAsWritten(root, rel)
  return backedUp.settled && overwriteInPlace(abs, content, backedUp.stamp, mode)
}

/**
 * Whether `file` is `to` written over `from` from the first byte and stopped part way: the
 * first k bytes of `to` (for some k), then `from`'s bytes from k on. That is what a crash in
 * overwriteInPlace leaves (before or after its write, or between the write and the cut of a
 * longer old file), so a rollback can tell its own half-written file from a file someone else
 * changed, which it leaves alone.
 */
export function isPartialOverwrite(file: Buffer, from: Buffer, to: Buffer): boolean {
  // The written part: at most the prefix `file` shares with `to`.
  let written = 0
  const most = Math.min(file.length, to.length)
  while (written < most && file[written] === to[written]) written++
  // Cut at or past the old end: nothing of `from` is left, the file is a prefix of `to`.
  if (written === file.length && file.length >= from.length) return true
  if (file.length !== from.length) return false
  // Otherwise `from` shows from some offset on, at most where the written part ends.
  let kept = file.length
  while (kept > 0 && file[kept - 1] === from[kept - 1]) kept--
  return kept <= written
}

let tempCount = 0
const TEMP_SUFFIX = '.rs-tmp'

/**
 * Removes the temp files writeTempBeside may have left beside `abs` when a crash came between
 * writing one and renaming it (`.<name>.<pid>-<n>.rs-tmp`): they are no file of the user's.
 */
export function removeLeftoverTemps(abs: string): void {
  const prefix = `.${basename(abs)}.`
  let names: string[]
  try {
    names = readdirSync(dirname(abs))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return
    throw error
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue
    if (!/^\d+-\d+$/.test(name.slice(prefix.length, -TEMP_SUFFIX.length))) continue
    rmSync(join(dirname(abs), name), { force: true })
  }
}

export class FolderInTheWayError extends CodedError {
  override name = 'FolderInTheWayError'
  constructor(message: string) {
    super('conflict', message)
  }
}

/**
 * The first half of replacing (or creating) a file atomically: the new content in a temp file
 * beside `abs` (its folder made, an empty folder at `abs` removed: a command turned the file
 * into a folder and the restore emptied it; one that still holds anything is left alone),
 * returned for replaceWithTemp. Until then `abs` is untouched; a crash leaves the temp file,
 * which removeLeftoverTemps clears.
 *
 * `mode` gives it those permission bits exactly (set with fchmod, so the umask cannot strip
 * any); without it an existing file keeps its own. `replacingMode`: the caller just found a
 * regular file with these bits at `abs`, so its folder exists and nothing else needs looking at.
 */
export function writeTempBeside(
  abs: string,
  content: Buffer,
  mode?: number,
  replacingMode?: number
): string {
  let keep = replacingMode
  if (replacingMode === undefined) {
    mkdirSync(dirname(abs), { recursive: true })
    try {
      const stats = lstatSync(abs)
      if (stats.isDirectory()) removeEmptyFolder(abs)
      else keep = stats.mode & 0o7777
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  const temp = join(dirname(abs), `.${basename(abs)}.${process.pid}-${++tempCount}${TEMP_SUFFIX}`)
  try {
    // 'wx': a link or file planted at the temp name is never written through. The bits are
    // set before the content goes in, so a private file is never readable by others meanwhile.
    const bits = mode ?? keep
    const fd = openSync(temp, 'wx', bits === undefined ? 0o666 : 0o600)
    try {
      if (bits !== undefined) fchmodSync(fd, bits)
      writeAllSync(fd, content)
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    removeTemp(temp)
    throw error
  }
  return temp
}

/** The second half (see writeTempBeside): the temp file takes the file's place in one rename. */
export function replaceWithTemp(temp: string, abs: string): void {
  try {
    renameSync(temp, abs)
  } catch (error) {
    removeTemp(temp)
    throw error
  }
}

/** Removes a temp file writeTempBeside made that will not be renamed. */
export function removeTemp(temp: string): void {
  unlinkIfThere(temp)
}

/**
 * Removes the file at `abs`, if any. Not rmSync: on EPERM (an immutable file, a sticky folder)
 * it tries the path as a folder and reports that folder's ENOTDIR instead, so a refused delete
 * read as "a part of its path is a file".
 */
function unlinkIfThere(abs: string): void {
  try {
    unlinkSync(abs)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

function removeEmptyFolder(abs: string): void {
  try {
    rmdirSync(abs)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
    throw new FolderInTheWayError(
      'a folder stands where the file goes and it holds files the session did not put there'
    )
  }
}

/**
 * Deletes the file. `folderAfter`: a folder stood at the path before a restore put the file in
 * its place (writeTempBeside removed it, empty), so an empty folder takes the file's place again.
 */
export function deleteFileAt(abs: string, folderAfter = false): void {
  unlinkIfThere(abs)
  if (folderAfter) mkdirSync(abs, { recursive: true })
}

/** Whether a folder (not a link to one) stands at `abs`. */
export function isFolderAt(abs: string): boolean {
  try {
    return lstatSync(abs).isDirectory()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return false
    throw error
  }
}
