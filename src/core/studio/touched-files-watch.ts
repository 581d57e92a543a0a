// Keeps the "files changed since" marker true to the disk with no request from the page: a hand
// edit, or another program writing a file the session touched, shows within a moment.
//
// It watches only the folders that hold a file the session touched (one non-recursive fs.watch
// each, at most MAX_WATCHED_FOLDERS), never the whole tree: a big workspace costs what the
// session touched, and churn elsewhere (node_modules, a build) reaches no watch. An event in one
// of those folders for one of those names asks for a check, debounced (DEBOUNCE_MS after the
// last event, at the latest MAX_WAIT_MS after the first); the check (the studio's) compares the
// disk with the marker's node and pushes only when the answer changed. A touched file whose
// folder is gone is watched from its nearest folder still there, for the name that leads back
// to it. What it cannot see (past the bound, a change made through a hard link elsewhere) is
// read again when the page comes back into focus (renderer actions/connect.ts).
import { type FSWatcher, realpathSync, watch } from 'node:fs'
import { dirname, join, sep } from 'node:path'

/** inotify watches are a per-user resource: this many folders, then the page's focus refresh. */
export const MAX_WATCHED_FOLDERS = 256
const DEBOUNCE_MS = 150
const MAX_WAIT_MS = 1_000

export class TouchedFilesWatch {
  /** Watched folder (workspace-relative, '' the root) → the names in it that matter. */
  private readonly watched = new Map<string, { watcher: FSWatcher; names: Set<string> }>()
  private paths: readonly string[] = []
  private timer: NodeJS.Timeout | null = null
  private firstEventAt = 0
  private closed = false

  /** `root`: the workspace, resolved through symlinks. `changed`: something may have moved. */
  constructor(
    private readonly root: string,
    private readonly changed: () => void
  ) {}

  /** Watches for changes to these workspace-relative paths (the ones watched before are let go). */
  follow(paths: readonly string[]): void {
    if (this.closed) return
    this.paths = paths
    const wanted = this.foldersOf(paths)
    for (const [folder, entry] of this.watched) {
      if (!wanted.has(folder)) {
        entry.watcher.close()
        this.watched.delete(folder)
      }
    }
    for (const [folder, names] of wanted) {
      const held = this.watched.get(folder)
      if (held !== undefined) {
        held.names = names
        continue
      }
      try {
        const watcher = watch(join(this.root, folder), { persistent: false }, (_event, name) => {
          if (name === null || this.watched.get(folder)?.names.has(name) === true) this.soon()
        })
        // The folder went away, or the kernel gave up on it: found again at the next follow.
        watcher.on('error', () => {
          watcher.close()
          if (this.watched.get(folder)?.watcher === watcher) this.watched.delete(folder)
          this.soon()
        })
        this.watched.set(folder, { watcher, names })
      } catch {
        // Gone since foldersOf looked, or out of inotify watches: the focus refresh covers it.
      }
    }
  }

  /** The folders watched now, workspace-relative ('' the workspace itself). */
  folders(): string[] {
    return [...this.watched.keys()].sort()
  }

  close(): void {
    this.closed = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    for (const { watcher } of this.watched.values()) watcher.close()
    this.watched.clear()
  }

  private soon(): void {
    if (this.closed) return
    const now = Date.now()
    if (this.timer === null) this.firstEventAt = now
    else clearTimeout(this.timer)
    const wait = Math.max(0, Math.min(DEBOUNCE_MS, this.firstEventAt + MAX_WAIT_MS - now))
    this.timer = setTimeout(() => {
      this.timer = null
      // A folder made or removed since (a touched file's folder recreated): watch where it is now.
      this.follow(this.paths)
      this.changed()
    }, wait)
    this.timer.unref()
  }

  /**
   * The folders to watch, each with the names in it that lead to a touched file: its own folder
   * when that is there, else its nearest folder still there. Only folders inside the workspace
   * (a symlink out of it is not followed), at most MAX_WATCHED_FOLDERS.
   */
  private foldersOf(paths: readonly string[]): Map<string, Set<string>> {
    const folders = new Map<string, Set<string>>()
    const found = new Map<string, boolean>()
    const inside = (folder: string): boolean => {
      let known = found.get(folder)
      if (known === undefined) {
        known = this.isFolderInside(folder)
        found.set(folder, known)
      }
      return known
    }
    for (const path of paths) {
      if (!isPlainRelative(path)) continue
      let name = path.slice(path.lastIndexOf('/') + 1)
      let folder = parentOf(path)
      while (!inside(folder) && folder !== '') {
        name = folder.slice(folder.lastIndexOf('/') + 1)
        folder = parentOf(folder)
      }
      if (!inside(folder)) continue
      const names = folders.get(folder)
      if (names !== undefined) names.add(name)
      else if (folders.size < MAX_WATCHED_FOLDERS) folders.set(folder, new Set([name]))
    }
    return folders
  }

  private isFolderInside(folder: string): boolean {
    try {
      const real = realpathSync(join(this.root, folder))
      return real === this.root || real.startsWith(this.root + sep)
    } catch {
      return false
    }
  }
}

/** A path as the session's records name files: relative, with no '.', '..' or empty part. */
function isPlainRelative(path: string): boolean {
  if (path.startsWith('/') || path.includes('\0')) return false
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
}

function parentOf(path: string): string {
  const parent = dirname(path)
  return parent === '.' ? '' : parent
}
