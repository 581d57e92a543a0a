// Space kept for the records of a command that filled the disk. A command that fills the disk
// leaves file history no room to append what it changed, and then no rewind knows those changes:
// a rewind to before it said "Rewound" and left them. So each live session keeps a file of real
// blocks (zeros written and synced, never a sparse file) in the history's reserve folder; when an
// append fails, the file is removed, which gives its blocks back, and the records are written in
// their place. Made again at the next command where there is room.
//
// Another process may take the freed blocks first; then the records are still not written and
// the command's report says so. Named by the process's pid, so gc removes one a dead process left
// once it is older than its grace period (retention.ts); a live session renews its file's time.
import {
  closeSync,
  fdatasyncSync,
  openSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../os/private-files'

/** The folder under file-history/<workspace>/ the reserves are in. */
export const RESERVE_FOLDER = 'reserve'
/** A reserve's name: the pid of the process that made it, a counter. */
export const RESERVE_NAME = /^\d+-\d+\.reserve$/
/** Room for ~1,500 file_change records, or one untracked_changes record of 200 entries. */
export const RESERVE_BYTES = 512 * 1024
/** A reserve this old gets a new mtime, so no gc takes a live session's for a dead one's. */
const RENEW_MS = 3_600_000

let reserveCount = 0

export class DiskReserve {
  private readonly file: string

  constructor(private readonly dir: string) {
    this.file = join(dir, `${process.pid}-${++reserveCount}.reserve`)
  }

  /** Makes the reserve where it is missing (never throws: a full disk leaves none). */
  ensure(): void {
    try {
      const stats = statSync(this.file, { throwIfNoEntry: false })
      if (stats !== undefined && stats.size === RESERVE_BYTES) {
        if (Date.now() - stats.mtimeMs > RENEW_MS) utimesSync(this.file, new Date(), new Date())
        return
      }
      ensurePrivateDir(this.dir)
      const fd = openSync(this.file, 'w', PRIVATE_FILE_MODE)
      try {
        const zeros = Buffer.alloc(64 * 1024)
        for (let written = 0; written < RESERVE_BYTES; written += zeros.length) {
          writeSync(fd, zeros, 0, zeros.length, written)
        }
        // Allocated on the disk now, not when the kernel writes it back.
        fdatasyncSync(fd)
      } finally {
        closeSync(fd)
      }
    } catch {
      // Left out (or part made: released like a whole one): the disk has no room for it.
    }
  }

  /** Gives the reserve's blocks back; false when there was none. */
  release(): boolean {
    try {
      const had = statSync(this.file, { throwIfNoEntry: false }) !== undefined
      rmSync(this.file, { force: true })
      return had
    } catch {
      // Its folder is gone or unusable: there is nothing to give back.
      return false
    }
  }
}
