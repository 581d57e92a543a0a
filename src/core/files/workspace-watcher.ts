// Narrows what Bash change detection has to re-stat: one inotify watch per tracked directory
// (Node's recursive fs.watch would also walk ignored trees such as node_modules), collecting the
// paths that saw an event. Anything the watcher cannot vouch for (an error, a nameless event,
// too many events, no watch possible) sets `overflowed`, and the caller re-stats everything.
import {
  type FSWatcher,
  closeSync,
  existsSync,
  openSync,
  unlinkSync,
  watch,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../os/private-files'
import { FolderSet } from './folder-set'

/** Past this many dirty paths a full re-stat is about as cheap, and memory stays bounded. */
const MAX_DIRTY = 20_000
/** How long flush() waits for its own marker event before giving up on the watcher's news. */
const FLUSH_TIMEOUT_MS = 2_000
/** What flush() writes into its marker. */
const MARK = Buffer.from('.')

export class WorkspaceWatcher {
  private readonly watchers = new Map<string, FSWatcher>()
  /** The watched folders, so those under a moved folder are found without visiting the rest. */
  private readonly watched = new FolderSet()
  private dirty = new Set<string>()
  private overflowed = false
  private barrier: FSWatcher | null = null
  private barrierCount = 0
  private readonly waiting = new Map<string, () => void>()
  /** The marker flush() writes to (see flush), open; null before the first flush. */
  private marker: { fd: number; name: string } | null = null

  /**
   * `barrierDir`: a private folder outside the workspace. libuv reads every watch of the
   * process from one inotify queue, in order, so once an event for a marker written there
   * arrives, every event the workspace produced before it has been delivered too.
   */
  constructor(
    private readonly root: string,
    private readonly barrierDir: string
  ) {}

  async start(): Promise<void> {
    if (this.barrier !== null) return
    ensurePrivateDir(this.barrierDir)
    this.barrier = watch(this.barrierDir, { persistent: false }, (_event, name) => {
      if (name !== null) this.waiting.get(name)?.()
    })
    this.barrier.on('error', () => {
      this.overflowed = true
    })
  }

  /** Starts watching these tracked directories (workspace-relative; '' is the root). */
  watchDirs(dirs: readonly string[]): void {
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue
      try {
        const watcher = watch(join(this.root, dir), { persistent: false }, (_event, name) =>
          this.markDirty(dir, name)
        )
        watcher.on('error', () => {
          this.overflowed = true
          this.unwatch(dir)
        })
        this.watchers.set(dir, watcher)
        this.watched.add(dir)
      } catch {
        // Gone already, or out of inotify watches: the next take() asks for a full re-stat.
        this.overflowed = true
      }
    }
  }

  /** Whether a watch is on `dir` (its own entries' events come in). */
  watching(dir: string): boolean {
    return this.watchers.has(dir)
  }

  /** Stops watching `dir` and everything below it (it was deleted or moved away). */
  unwatchUnder(dir: string): void {
    for (const watched of this.watched.under(dir)) this.unwatch(watched)
  }

  /** Waits until every event the workspace produced so far has been collected. */
  async flush(): Promise<void> {
    if (this.barrier === null) {
      this.overflowed = true
      return
    }
    // The first flush makes a marker, whose creation is the event waited for; the next ones
    // write one byte into it, an event under the same name: one syscall where a marker made and
    // removed each time cost four, each a journaled change of the data home's disk, which waits
    // behind every other process's commits there (bench/agent-turn.ts). An event of an earlier
    // flush must never be taken for this one's: each syscall here makes exactly one event the
    // watch reports (a create, a write; the marker is made 0600 by open, no chmod), each flush
    // waits for its own, and after one that timed out (its event may still come) the next
    // flush makes a marker of a new name.
    const marker = this.marker
    const name = marker?.name ?? this.newMarkerName()
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), FLUSH_TIMEOUT_MS)
      this.waiting.set(name, () => {
        clearTimeout(timer)
        resolve(true)
      })
    })
    try {
      if (marker === null) {
        this.marker = { fd: openSync(join(this.barrierDir, name), 'wx', PRIVATE_FILE_MODE), name }
      } else writeSync(marker.fd, MARK, 0, MARK.length, 0)
    } catch (error) {
      this.waiting.delete(name)
      this.dropMarker()
      throw error
    }
    const intime = await arrived
    this.waiting.delete(name)
    if (!intime) {
      this.overflowed = true
      this.dropMarker()
    }
  }

  /** The dirty paths since the last take, or 'everything' when the watcher lost track. */
  take(): Set<string> | 'everything' {
    const { dirty, overflowed } = this
    this.dirty = new Set()
    this.overflowed = false
    return overflowed ? 'everything' : dirty
  }

  close(): void {
    for (const dir of [...this.watchers.keys()]) this.unwatch(dir)
    this.barrier?.close()
    this.barrier = null
    this.dropMarker()
  }

  /** A name no file in the barrier folder has (one a crash left behind is not reused). */
  private newMarkerName(): string {
    for (;;) {
      const name = `flush-${process.pid}-${++this.barrierCount}`
      if (!existsSync(join(this.barrierDir, name))) return name
    }
  }

  private dropMarker(): void {
    const marker = this.marker
    if (marker === null) return
    this.marker = null
    closeSync(marker.fd)
    try {
      unlinkSync(join(this.barrierDir, marker.name))
    } catch (error) {
      // Gone with its folder already: nothing is left to remove.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }

  private markDirty(dir: string, name: string | null): void {
    if (this.overflowed) return
    // A nameless event says "something in dir changed": re-walk the directory.
    this.dirty.add(name === null ? dir : dir === '' ? name : `${dir}/${name}`)
    if (this.dirty.size > MAX_DIRTY) {
      this.overflowed = true
      this.dirty.clear()
    }
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close()
    this.watchers.delete(dir)
    this.watched.delete(dir)
  }
}
