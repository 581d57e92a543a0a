// Empty private files made ahead of need, for loose blobs to be written into and renamed into
// place. On ext4 making a file (its inode) costs ~0.3 ms, where writing a small one and renaming
// it costs ~0.02: a turn backs up a file or two, and without spares it made each one's file while
// the user waited. Spares are made on libuv's thread pool while the agent waits (for the model, for
// the user), a few at a time, and taken synchronously when a blob is written.
//
// Nothing depends on a spare being there: a take that finds none, or a spare that vanished (a gc
// removed an old one), falls back to making the file as before. Each process names its own
// (pid, counter), so two processes on one store never take the same one; the ones a crash left
// are removed by gc once older than its grace period (retention.ts).
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../os/private-files'

/** The folder under a store's blobs/ (not a shard name, so nothing there reads it as blobs). */
export const SPARES_FOLDER = 'spare'
/** A spare's name: the pid of the process that made it, a counter. */
export const SPARE_NAME = /^\d+-\d+\.spare$/
/** Kept ready: a turn's few backups, and a command's few dozen changed files (below a batch's pack). */
const SPARES_KEPT = 16

let spareCount = 0

export class SpareFiles {
  private readonly ready: string[] = []
  private filling: Promise<void> | null = null
  private closed = false

  constructor(readonly dir: string) {}

  /** A spare's path, or null when none is ready (then the caller makes its file as usual). */
  take(): string | null {
    const spare = this.ready.pop() ?? null
    if (this.ready.length < SPARES_KEPT / 2) void this.fill()
    return spare
  }

  /** Makes spares up to the number kept; never throws (a full disk leaves fewer, or none). */
  fill(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.filling ??= this.makeSpares().finally(() => {
      this.filling = null
    })
    return this.filling
  }

  /** Stops making spares and removes the ones not taken. */
  async close(): Promise<void> {
    this.closed = true
    await this.filling
    const left = this.ready.splice(0)
    await Promise.all(left.map((spare) => fs.rm(spare, { force: true })))
  }

  private async makeSpares(): Promise<void> {
    try {
      ensurePrivateDir(this.dir)
      while (!this.closed && this.ready.length < SPARES_KEPT) {
        const spare = join(this.dir, `${process.pid}-${++spareCount}.spare`)
        const handle = await fs.open(spare, 'wx', PRIVATE_FILE_MODE)
        try {
          // The mode passes through the umask: set it exactly, as every file of the store is.
          await handle.chmod(PRIVATE_FILE_MODE)
        } finally {
          await handle.close()
        }
        if (this.closed) await fs.rm(spare, { force: true })
        else this.ready.push(spare)
      }
    } catch {
      // Fewer spares: writes make their own files.
    }
  }
}
