// File history for one session in one workspace: the WriteGuard the agent's tools call. Before a
// Write/Edit replaces a file its current content is backed up (or recorded as absent); around a
// Bash command the workspace is diffed against its manifest. Every change becomes a file_change
// record in the session log (before/after hashes, grouped by checkpoint), so the index of what
// changed is crash-safe, append-only, survives resume and follows branches for free.
import { CodedError } from '../../shared/coded-error'
import { closeSync, fstatSync, promises as fs, openSync, readFileSync, realpathSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { BlobStore } from './blob-store'
import { parentOf } from './folder-set'
import { markActive, otherActiveSessions, unmarkActive } from './active-sessions'
import {
  type HistoryPaths,
  historyPaths,
  historyPathsAt,
  sessionHistoryPaths
} from './history-paths'
import { ensurePrivateDir } from '../os/private-files'
import { type IgnoredFilesPolicy, groupUnbacked, ignoredFilesPolicy } from './ignored-files'
import { WorkspaceChanges } from './workspace-changes'
import { resolveInWorkspace } from './workspace-paths'
import { checkWorkspaceFolder } from './workspace-root'
import { WorkspaceWatcher } from './workspace-watcher'
import { type LeftRunning, stillRunning } from '../os/left-running'
import { failureReason, WriteFailedError } from '../os/write-failure'
import { MAX_UNTRACKED_ENTRIES } from '../session/records'
import type { NewFileChange, NewUntrackedChanges } from '../session/store'
import { DiskReserve, RESERVE_BYTES, RESERVE_FOLDER } from './disk-reserve'
import type { CommandChanges, WriteGuard } from './write-guard'

/** "10 MB": larger files are reported as not tracked. */
export const DEFAULT_SIZE_CAP_BYTES = 10_000_000

/** One file's change under a checkpoint, as the session log records it. */
export type FileChange = NewFileChange

/** What file history needs from the session store: a place to append its records. */
export interface FileChangeLog {
  appendFileChanges(changes: readonly FileChange[], untracked?: NewUntrackedChanges): unknown
}

export interface FileHistoryOptions {
  home: string
  cwd: string
  sessionId: string
  /**
   * The session's log file: its backups are in the folder beside it (history-paths.ts), where
   * an older session's are too. Without it: the workspace's folder, where new sessions' are.
   */
  sessionFile?: string
  /**
   * The file-history folder that keeps the backups instead (sessionFile is then not used): a
   * parallel run (core/parallel) works in a copy of its session's workspace, and its backups go
   * to that session's folder, where they are read once the run is joined and adopted.
   */
  historyRoot?: string
  log: FileChangeLog
  sizeCapBytes?: number
  /** Which ignored files are backed up (the setting ignoredFiles); its defaults otherwise. */
  ignoredFiles?: IgnoredFilesPolicy
  /**
   * Every path the session's file_change records name (any branch): each stays covered by Bash
   * change detection whatever the ignored-files budget, so what was backed up stays restorable.
   */
  recordedPaths?: Iterable<string>
}

export class NoCheckpointError extends CodedError {
  constructor() {
    super('refused', 'No checkpoint is open: file history files every change under a prompt')
    this.name = 'NoCheckpointError'
  }
}

export class FileHistory implements WriteGuard {
  /** Warnings for the user, shown once (another live session in this workspace). */
  readonly notices: string[] = []
  readonly blobs: BlobStore
  private checkpointUuid: string | null = null
  /** Hash and mode each pending Write/Edit backed up, until afterWrite records the change. */
  private readonly pending = new Map<string, { hash: string | null; mode: number | undefined }>()
  private readonly watcher: WorkspaceWatcher
  private readonly changes: WorkspaceChanges
  private baseline: Promise<void> | null = null
  /** Space for a command's records on a full disk. */
  private readonly reserve: DiskReserve
  /** What earlier commands left running outside their process groups (left-running.ts). */
  private leftRunning: LeftRunning[] = []
  /** Those of them running when the current command started. */
  private runningDuring: LeftRunning[] = []
  /** What changed before the current command while they ran (see beforeCommand). */
  private unknownOrigin: string[] = []
  /** Paths the agent's own tools or a restore changed since the last look: of known origin. */
  private readonly expected = new Set<string>()
  /** The blob store's shard folders made, then its spare files (prepareForCommands). */
  private backupFiles: Promise<void> | null = null
  /** Set by close(): what prepareForCommands still has to do is not started after it. */
  private closed = false

  private constructor(
    /** The workspace root, resolved through symlinks. */
    readonly root: string,
    /** The workspace root as the tools name it (may run through a symlink). */
    private readonly cwd: string,
    readonly paths: HistoryPaths,
    readonly sessionId: string,
    private readonly log: FileChangeLog,
    readonly sizeCapBytes: number,
    private readonly ignoredFiles: IgnoredFilesPolicy
  ) {
    this.blobs = new BlobStore(paths.blobs)
    this.reserve = new DiskReserve(join(paths.root, RESERVE_FOLDER))
    this.watcher = new WorkspaceWatcher(root, join(paths.watch, sessionId))
    this.changes = new WorkspaceChanges(root, this.blobs, this.watcher, sizeCapBytes, ignoredFiles)
  }

  static async open(options: FileHistoryOptions): Promise<FileHistory> {
    checkWorkspaceFolder(options.cwd, options.home)
    const root = realpathSync(options.cwd)
    const paths =
      options.historyRoot !== undefined
        ? historyPathsAt(options.historyRoot)
        : options.sessionFile === undefined
          ? historyPaths(options.home, options.cwd)
          : sessionHistoryPaths(options.home, options.sessionFile, options.cwd)
    // The data home is private (os/private-files.ts); folders an older version left open are
    // tightened.
    for (const folder of [options.home, dirname(paths.root), paths.root]) ensurePrivateDir(folder)
    const history = new FileHistory(
      root,
      resolve(options.cwd),
      paths,
      options.sessionId,
      options.log,
      options.sizeCapBytes ?? DEFAULT_SIZE_CAP_BYTES,
      options.ignoredFiles ?? ignoredFilesPolicy()
    )
    history.changes.pin(options.recordedPaths ?? [])
    const others = await otherActiveSessions(paths.active, options.sessionId)
    for (const other of others) {
      history.notices.push(
        `Another session (${other.sessionId}, process ${other.pid}) is working in this workspace since ${other.startedAt}. Files it changes are flagged in rewind previews and left alone by rewinds.`
      )
    }
    await markActive(paths.active, options.sessionId)
    return history
  }

  /** A user-typed prompt opened checkpoint `promptUuid`: the changes that follow belong to it. */
  beginCheckpoint(promptUuid: string): void {
    this.checkpointUuid = promptUuid
  }

  get currentCheckpoint(): string | null {
    return this.checkpointUuid
  }

  async beforeWrite(absPath: string, _tool: string, newContent: string): Promise<void> {
    this.requireCheckpoint()
    const rel = this.trackedPath(absPath)
    const file = readWithMode(join(this.root, rel))
    const current = file?.content ?? null
    if (current !== null && current.length > this.sizeCapBytes) {
      throw new Error(
        `${rel} is larger than the ${this.sizeCapMb()} MB backup cap, so this change could not be undone`
      )
    }
    const before = current === null ? null : this.blobs.put(current, { path: rel })
    // The new content is kept now too: if the disk fills up, the write is refused, not half-recorded.
    this.blobs.put(Buffer.from(newContent, 'utf8'), { previous: before, path: rel })
    this.pending.set(rel, { hash: before, mode: file?.mode })
  }

  async afterWrite(absPath: string, tool: string, createdFolder?: string): Promise<void> {
    const checkpointUuid = this.requireCheckpoint()
    const rel = this.trackedPath(absPath)
    const createdFolders = createdFolder === undefined ? [] : this.foldersDown(createdFolder, rel)
    if (!this.pending.has(rel)) throw new Error(`${rel} was written without a backup (beforeWrite)`)
    const { hash: before = null, mode: beforeMode } = this.pending.get(rel) ?? {}
    this.pending.delete(rel)
    const file = readWithMode(join(this.root, rel))
    const after =
      file === null ? null : this.blobs.put(file.content, { previous: before, path: rel })
    this.expected.add(rel)
    if (before === after) return
    await this.log.appendFileChanges([
      {
        checkpointUuid,
        path: rel,
        before,
        after,
        beforeMode,
        afterMode: file?.mode,
        ...(createdFolders.length > 0 ? { createdFolders } : {}),
        source: tool
      }
    ])
    this.changes.pin([rel])
  }

  /**
   * Takes the Bash baseline now (every tracked file backed up once) instead of on the first
   * command, and makes the backup store's folders: a host calls it when a session opens, so a
   * big workspace's one-time cost is paid while the user types, not inside the first turns.
   * Safe to call more than once.
   */
  prepareForCommands(): Promise<void> {
    // The folders the turns' backups go into, made once the baseline is taken, rather than one
    // in most of the first turns' backups (blob-store.ts makeShardFolders), then the files they
    // are written into (spare-files.ts). Neither throws.
    return this.takeBaseline().then(() => {
      // A session closed while its baseline was taken makes nothing more: no folders, no
      // reserve, no spares left behind it in the data home.
      if (this.closed) return
      return (this.backupFiles ??= this.blobs.makeShardFolders().then(() => {
        if (this.closed) return
        this.reserve.ensure()
        return this.blobs.keepSpareFiles()
      }))
    })
  }

  /** The baseline, taken once (commands wait for it, not for the shard folders). */
  private takeBaseline(): Promise<void> {
    if (this.baseline === null) {
      const baseline = (async () => {
        await this.watcher.start()
        await this.changes.refresh()
      })()
      // A failed baseline (disk full) is retried by the next call rather than remembered.
      baseline.catch(() => {
        if (this.baseline === baseline) this.baseline = null
      })
      this.baseline = baseline
    }
    return this.baseline
  }

  /**
   * Brings the manifest up to date (taking the baseline first if prepareForCommands was never
   * called). Throws when a backup fails, which refuses the command.
   */
  async beforeCommand(_tool: string): Promise<void> {
    this.requireCheckpoint()
    // Room for this command's records should it fill the disk (disk-reserve.ts).
    this.reserve.ensure()
    const fresh = this.baseline === null
    await this.takeBaseline()
    // What changed since the last command (hand edits, the agent's own writes) is the
    // starting point of this one, not a change it made. While a process an earlier command left
    // running was at work, what else changed is named, as of unknown origin: nobody can tell its
    // writes from a hand edit.
    const lingering = this.leftRunning.length > 0
    const changes = fresh ? [] : await this.changes.refresh()
    this.unknownOrigin = lingering
      ? changes.flatMap((c) =>
          c.kind !== 'unbacked' && c.kind !== 'folder' && !this.expected.has(c.path) ? [c.path] : []
        )
      : []
    this.expected.clear()
    this.leftRunning = this.leftRunning.filter(stillRunning)
    this.runningDuring = this.leftRunning
  }

  /** Paths a restore (a rewind, an undo) just wrote: the next command does not count them as unknown. */
  expectChanges(paths: Iterable<string>): void {
    for (const path of paths) this.expected.add(path)
  }

  async afterCommand(
    tool: string,
    leftRunning: readonly LeftRunning[] = []
  ): Promise<CommandChanges> {
    const checkpointUuid = this.requireCheckpoint()
    const result: CommandChanges = {
      created: [],
      modified: [],
      deleted: [],
      untracked: [],
      notBackedUp: [],
      warnings: [],
      unknownOrigin: this.unknownOrigin
    }
    this.unknownOrigin = []
    const during = this.runningDuring
    this.runningDuring = []
    this.leftRunning = [...this.leftRunning.filter(stillRunning), ...leftRunning]
    const recorded: FileChange[] = []
    const unstored: string[] = []
    const folders: string[] = []
    const changes = await this.changes.refresh(unstored)
    result.notBackedUp = groupUnbacked(
      changes.flatMap((change) => (change.kind === 'unbacked' ? [change] : [])),
      this.ignoredFiles
    )
    for (const change of changes) {
      if (change.kind === 'unbacked') continue
      if (change.kind === 'untracked') {
        result.untracked.push({ path: change.path, reason: change.reason })
        continue
      }
      if (change.kind === 'folder') {
        folders.push(change.path)
        continue
      }
      const { path, before, after, beforeMode, afterMode } = change
      recorded.push({ checkpointUuid, path, before, after, beforeMode, afterMode, source: tool })
      if (before === null) result.created.push(path)
      else if (after === null) result.deleted.push(path)
      else result.modified.push(path)
    }
    fileFolders(recorded, folders)
    // What it changed without a backup, as the records keep it: a rewind across it names each.
    const untracked = [
      ...result.untracked,
      ...result.notBackedUp.map(({ folder, files, reason }) => ({
        path: folder,
        reason: files === null ? reason : `${files} ignored files, ${reason}`
      }))
    ]
    const warning = await this.record(checkpointUuid, tool, recorded, untracked)
    if (warning !== null) result.warnings.push(warning)
    this.changes.pin(recorded.map((r) => r.path))
    if (during.length > 0 && recorded.length + untracked.length > 0) {
      const named = during.map((p) => `${p.name} (process ${p.pid})`).join(', ')
      result.warnings.push(
        `${named}, left running by an earlier command, ${during.length === 1 ? 'was' : 'were'} running during this one: some of these changes may be ${during.length === 1 ? 'its' : 'theirs'}`
      )
    }
    if (unstored.length > 0) {
      result.warnings.push(
        `the new content of ${unstored.join(', ')} could not be backed up: a rewind can undo these changes, returning to them later cannot restore those files`
      )
    }
    return result
  }

  /**
   * Appends a command's records: its file changes, and what it changed without a backup. When
   * the append fails for want of space, the reserve's blocks are given back (disk-reserve.ts)
   * and the records written in their place, or, when they would not fit, one untracked_changes
   * record naming every path, so that a rewind across the command says it cannot restore them
   * instead of passing over them. Returns what the report must add; throws when nothing could
   * be written, naming what is lost.
   */
  private async record(
    checkpointUuid: string,
    tool: string,
    recorded: FileChange[],
    untracked: { path: string; reason: string }[]
  ): Promise<string | null> {
    const note = (entries: { path: string; reason: string }[]) =>
      entries.length === 0
        ? undefined
        : {
            checkpointUuid,
            source: tool,
            changes: entries.slice(0, MAX_UNTRACKED_ENTRIES),
            ...(entries.length > MAX_UNTRACKED_ENTRIES
              ? { more: entries.length - MAX_UNTRACKED_ENTRIES }
              : {})
          }
    try {
      await this.log.appendFileChanges(recorded, note(untracked))
      return null
    } catch (error) {
      const code = error instanceof WriteFailedError ? error.osCode : undefined
      if ((code !== 'ENOSPC' && code !== 'EDQUOT') || !this.reserve.release()) throw error
      const why = failureReason({ code })
      const paths = recorded.map((r) => r.path)
      const size =
        JSON.stringify(recorded).length + 200 * recorded.length + JSON.stringify(untracked).length
      try {
        if (size <= RESERVE_BYTES / 2) {
          await this.log.appendFileChanges(recorded, note(untracked))
          return `${why}: the command's changes were recorded in the space file history keeps for this; free some space`
        }
        const lost = paths.map((path) => ({
          path,
          reason: `its change could not be recorded: ${why}`
        }))
        await this.log.appendFileChanges([], note([...lost, ...untracked]))
        return `${why}: the command's changes could not be recorded, so a rewind cannot restore ${listed(paths)}, and will say so`
      } catch {
        throw new Error(
          `${why}: file history could not record what the command changed (${listed(paths)}): a rewind will not restore those files`
        )
      }
    }
  }

  /** Stops watching, removes this session's live marker and the backups' spare files. */
  async close(): Promise<void> {
    this.closed = true
    // What prepareForCommands is making ends first (nothing is written into the store once
    // close returns), so the spares it made are removed below.
    await this.baseline?.catch(() => undefined)
    await this.backupFiles
    this.reserve.release()
    this.watcher.close()
    await this.blobs.close()
    await unmarkActive(this.paths.active, this.sessionId)
    await fs.rm(join(this.paths.watch, this.sessionId), { recursive: true, force: true })
  }

  private requireCheckpoint(): string {
    if (this.checkpointUuid === null) throw new NoCheckpointError()
    return this.checkpointUuid
  }

  private sizeCapMb(): number {
    return Math.round(this.sizeCapBytes / 1_000_000)
  }

  /**
   * The folders from `first` (absolute, the first one a write made) down to the folder of the
   * file `rel`, workspace-relative, outermost first; none when `first` is not on that file's way
   * (a symlink between them: the write's folders are then not known by name).
   */
  private foldersDown(first: string, rel: string): string[] {
    const top = realPathOf(first, basename(first))
    if (top === null) return []
    const from = relative(this.root, top).split(sep).join('/')
    const folders: string[] = []
    for (let dir = parentOf(rel); dir !== ''; dir = parentOf(dir)) {
      folders.unshift(dir)
      if (dir === from) return folders
    }
    return []
  }

  /**
   * The workspace-relative path a write to `abs` lands on. Refuses escapes and .git; a symlink
   * inside the workspace is followed (the tools write through it), so one file has one name.
   * Synchronous, like the reads around a write (see readWithMode).
   */
  private trackedPath(abs: string): string {
    const asWritten = resolveInWorkspace(this.root, resolve(this.root, relative(this.cwd, abs)))
    const real = realPathOf(asWritten.abs, basename(abs))
    return real === null ? asWritten.rel : resolveInWorkspace(this.root, real).rel
  }
}

/** `path` through symlinks; one not there yet, through its folder's (`name` in it); else null. */
function realPathOf(path: string, name: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    try {
      return join(realpathSync(dirname(path)), name)
    } catch {
      return null
    }
  }
}

/**
 * A file's content and permission bits, read through one descriptor; null when there is none.
 * Synchronous, as the blob store's writes are (blob-store.ts): a write backs up one file, and a
 * round trip through libuv's thread pool per syscall cost more than the reads themselves.
 */
function readWithMode(abs: string): { content: Buffer; mode: number } | null {
  let fd: number
  try {
    fd = openSync(abs, 'r')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A path through a file (ENOTDIR) holds no file either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
  try {
    return { content: readFileSync(fd), mode: fstatSync(fd).mode & 0o7777 }
  } finally {
    closeSync(fd)
  }
}

/**
 * Files each folder a command made under the first of its records that lies in it, or the first
 * of all (a folder left empty): a rewind past that record removes it where it is left empty. A
 * command that recorded nothing leaves its new folders unnamed.
 */
function fileFolders(recorded: FileChange[], folders: readonly string[]): void {
  for (const folder of [...folders].sort()) {
    const holder = recorded.find((r) => r.path.startsWith(`${folder}/`)) ?? recorded[0]
    if (holder !== undefined) holder.createdFolders = [...(holder.createdFolders ?? []), folder]
  }
}

/** Paths for a message: the first ten, then how many more. */
function listed(paths: readonly string[]): string {
  if (paths.length === 0) return 'no file it could name'
  const more = paths.length - 10
  return more > 0 ? `${paths.slice(0, 10).join(', ')} and ${more} more` : paths.join(', ')
}
