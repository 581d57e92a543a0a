// The data home ($REWIND_STUDIO_HOME) holds the conversations, backups of every file the agent
// touched (a mode-600 `secret.env` included), restore journals and settings: only its owner may
// read any of it. Folders are made 0700 and files 0600 with the bits set explicitly, so a umask
// of 0 (or 022) leaves nothing readable by others; a folder of ours found with group or other
// bits (made by an older version) is tightened when it is opened. A backed-up file's own mode
// lives in the restore journal (RestoreOp fromMode/toMode), never on its blob.
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  statSync
} from 'node:fs'
import { dirname, resolve } from 'node:path'
import { writeAllSync } from './write-all'

export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/**
 * Makes `path` and any missing parents, each 0700 exactly (mkdir's mode passes through the umask,
 * so each folder made is chmod-ed). An existing `path` loses its group and other bits when it is
 * ours; a folder owned by someone else is left as it is.
 */
export function ensurePrivateDir(path: string): void {
  const target = resolve(path)
  const first = mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (first === undefined) {
    tightenIfOurs(target)
    return
  }
  for (let dir = target; ; dir = dirname(dir)) {
    chmodSync(dir, PRIVATE_DIR_MODE)
    if (dir === first || dirname(dir) === dir) break
  }
}

function tightenIfOurs(dir: string): void {
  const stats = statSync(dir)
  if ((stats.mode & 0o077) === 0) return
  if (process.getuid !== undefined && stats.uid !== process.getuid()) return
  chmodSync(dir, stats.mode & 0o7700)
}

/**
 * Opens `path` for writing (flags as openSync takes them) as a 0600 file: new, or an existing one
 * (a temp file a crash left behind) given those bits with fchmod before anything is written.
 */
export function openPrivateFileSync(path: string, flags: string | number): number {
  const fd = openSync(path, flags, PRIVATE_FILE_MODE)
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE)
  } catch (error) {
    closeSync(fd)
    throw error
  }
  return fd
}

/**
 * Writes `data` to `path` (created or truncated) as a 0600 file. `durable`: its bytes are on the
 * disk (fdatasync) when this returns.
 */
export function writePrivateFileSync(
  path: string,
  data: string | Uint8Array,
  options: { durable?: boolean } = {}
): void {
  const fd = openPrivateFileSync(path, 'w')
  try {
    writeAllSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
    if (options.durable === true) fdatasyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
