// Applying a restore (the rewind engine's second part, rewind-engine.ts): a plan's files, or an
// undo's or a redo's, written journaled so that a crash at any point leaves every file old or
// new and the next start finishes or rolls back what was under way (rewind-recovery.ts). A
// restore is its own action, never a turn's change: it writes no file_change record (its journal
// holds what it wrote). Always in this order:
//   0. copy target content from another source into our blob store (a failure changes nothing);
//   1. back up what will be overwritten or deleted (a failure here changes nothing);
//   2. write the journal (intent + backups), durably;
//   3. write each file (over itself in place where it can take it, else temp + rename by
//      batches: the temps, then their renames) or delete it; the folders it makes (an undo's)
//      before, those it removes (the session made them, the files left them empty) after;
//   4. append the session record; a crash before it is completed or rolled back by recover().
import type { SessionStore } from '../session/store'
import { type BlobBatch, sha256 } from '../files/blob-store'
import { parentOf } from '../files/folder-set'
import { PathOutsideWorkspaceError } from '../files/workspace-paths'
import { yieldToEventLoop } from '../os/event-loop'
import { failureReason } from '../os/write-failure'
import { type ContentSource, ContentMissingError } from './content-source'
import { foldersThat, makeFolders, removeEmptyFolders } from './created-folders'
import {
  type RestoreJournal,
  type RestoreOp,
  pendingJournal,
  saveJournal,
  withFolders
} from './journal'
import { recordRestore } from './restore-records'
import { RewindError } from './rewind-error'
import type { PlannedFile, RewindPlan } from './rewind-plan'
import {
  type FileStamp,
  type RestoreSpace,
  deleteFileAt,
  inspectPath,
  isFolderAt,
  isPartialOverwrite,
  overwriteAsBackedUp,
  overwriteInPlace,
  readFileAt,
  removeTemp,
  replaceWithTemp,
  unchangedSince,
  writeTempBeside
} from './workspace-files'

/** What the engine needs from the session store (planning reads it, applying appends). */
export type RewindLog = Pick<
  SessionStore,
  'sessionId' | 'cwd' | 'leafUuid' | 'readOnlyReason' | 'tree' | 'appendRewind' | 'appendNavigate'
> &
  // Our own sessions only: a rescue restore's companion log records no merge.
  Partial<Pick<SessionStore, 'appendMerge'>>

/**
 * Files restored between two yields to the event loop. The file I/O is synchronous (a round trip
 * through libuv's pool per syscall cost more than the syscalls); a batch blocks for milliseconds.
 */
const FILES_PER_BATCH = 32

/** A file's new content in a temp file beside it, waiting for its rename (applyOps). */
interface PendingWrite {
  op: RestoreOp
  abs: string
  /** The file's stamp when it was checked (null: no file); the rename needs it unchanged. */
  stamp: string | null
  temp: string
}

/** A file the restore is to give `to` (null: deleted), as backUp takes it. */
export interface FileToWrite {
  path: string
  to: string | null
  toMode?: number | undefined
  /** With `to` null: an empty folder takes the file's place (an undo's; see RestoreOp). */
  toFolder?: boolean | undefined
  /** What a preview showed: a file changed since would be overwritten unseen. */
  seen?: string | null
  seenStamp?: FileStamp | null
}

export class RestoreWriter {
  /**
   * `settleMs`: how long ago a file must have changed for its stamp to be trusted
   * (settleMarginMs); `inPlace`: whether files here may be written over in place
   * (overwritesInPlace).
   */
  constructor(
    private readonly store: RewindLog,
    private readonly space: RestoreSpace,
    private readonly settleMs: number,
    private readonly inPlace: boolean,
    private readonly onProgress: (done: number, total: number) => void
  ) {}

  /** A plan's restore, steps 0 to 4 (the module header); its journal, as recorded. */
  async applyPlan(plan: RewindPlan): Promise<RestoreJournal> {
    if (plan.source !== undefined) this.importTargets(plan.files, plan.source)
    const { ops, read } = await this.backUp(plan.files)
    if (ops.length === 0 && plan.leafAfter === plan.leafBefore) {
      // A restore that leaves the conversation where it is and writes no file did nothing: no
      // journal, no record, so no step for Undo to take back.
      throw new RewindError(nothingRestored(plan.unrestorable), 'not_found')
    }
    const journal = pendingJournal(
      { sessionId: this.store.sessionId, root: this.space.root },
      plan,
      plan.kind,
      ops,
      { removeFolders: foldersThat('stand', this.space.root, plan.removeFolders) }
    )
    // A merge's record names its journal, for Undo (merge-apply.ts).
    if (plan.merge !== undefined) journal.merge = { ...plan.merge, restoreId: journal.id }
    return this.run(journal, read)
  }

  /**
   * Steps 2 to 4: journal, files, record (the module header). A failure while writing rolls back.
   * Returns the journal as recorded: with the folders it did remove and make.
   */
  async run(intent: RestoreJournal, read: Map<string, FileStamp>): Promise<RestoreJournal> {
    const dir = this.space.paths.restores
    const { root } = this.space
    // The folders its files need that are missing are made first and noted, so that a rollback
    // or an undo removes them again (as those an undo makes for the restore it reverses).
    const needed = foldersThat('are missing', root, parentsOf(intent.ops))
    const journal = withFolders(intent, {
      removeFolders: intent.removeFolders,
      makeFolders: [...new Set([...(intent.makeFolders ?? []), ...needed])]
    })
    try {
      await saveJournal(dir, journal)
    } catch (error) {
      throw new RewindError(
        `Could not write the restore journal in ${dir}: ${failureReason(error)}. Nothing was changed.`
      )
    }
    let done: RestoreJournal
    try {
      // Folders before the files that go in them, and removed once the files are out of them.
      const made = makeFolders(root, journal.makeFolders ?? [])
      await this.applyOps(journal.ops, 'to', read)
      const removed = removeEmptyFolders(root, journal.removeFolders ?? [])
      done = withFolders(journal, { makeFolders: made, removeFolders: removed })
    } catch (error) {
      const leftAlone = await this.rollBack(journal)
      await saveJournal(dir, { ...journal, state: 'rolled-back' })
      const reason = error instanceof Error ? error.message : String(error)
      throw new RewindError(
        leftAlone.length === 0
          ? `${reason}. Nothing was changed.`
          : `${reason}. The restore was rolled back.${describeLeftAlone(leftAlone)}`
      )
    }
    let applied = false
    try {
      await saveJournal(dir, { ...done, state: 'applied' })
      applied = true
      recordRestore(this.store, done)
    } catch (error) {
      throw await this.putBackUnrecorded(done, applied, error)
    }
    const recorded: RestoreJournal = { ...done, state: 'recorded' }
    await saveJournal(dir, recorded)
    return recorded
  }

  /**
   * Every file was written but the restore could not be recorded (a full disk refused the
   * journal's `applied` or the session's record, which is then not appended at all): the files
   * are put back now, so that they and the conversation agree, rather than left for the next
   * opening's recovery. A journal marked `applied` is marked `pending` first, since recovery
   * completes an applied one: where even that cannot be written, the files stay restored and the
   * next opening (or rewind) records the restore once there is space.
   */
  private async putBackUnrecorded(
    done: RestoreJournal,
    applied: boolean,
    error: unknown
  ): Promise<RewindError> {
    const dir = this.space.paths.restores
    const reason = failureReason(error)
    if (applied) {
      try {
        await saveJournal(dir, { ...done, state: 'pending' })
      } catch {
        return new RewindError(
          `Could not record the restore: ${reason}. Its files were restored; it is recorded by the next opening or rewind, once there is space.`
        )
      }
    }
    const leftAlone = await this.rollBack(done)
    // Unwritten, the journal stays `pending`: the next recovery rolls back again, changing nothing.
    await saveJournal(dir, { ...done, state: 'rolled-back' }).catch(() => undefined)
    return new RewindError(
      `Could not record the restore: ${reason}. ${
        leftAlone.length === 0
          ? 'Its files were put back: nothing was changed.'
          : `Its files were put back.${describeLeftAlone(leftAlone)}`
      }`
    )
  }

  /**
   * Puts back what the journal's restore may have changed: the folders it removes first, then
   * each file's `from`, then the folders it makes go where they are empty. Returns the files
   * left as they are (see applyOps).
   */
  async rollBack(journal: RestoreJournal): Promise<string[]> {
    const { root } = this.space
    makeFolders(root, journal.removeFolders ?? [])
    const leftAlone = await this.applyOps(journal.ops, 'from')
    removeEmptyFolders(root, journal.makeFolders ?? [])
    return leftAlone
  }

  /**
   * Backs up each file's current content and mode; drops files already at their target. Also
   * returns how each file looked when read, so applying can tell it is untouched without
   * reading it again.
   */
  async backUp(files: FileToWrite[]): Promise<{ ops: RestoreOp[]; read: Map<string, FileStamp> }> {
    const { blobs } = this.space
    const ops: RestoreOp[] = []
    const read = new Map<string, FileStamp>()
    // One batch: a thousand backups (or renewed copies of old ones) make one pack, not a file
    // each; committed before the journal names them.
    const batch = blobs.openBatch()
    const stored: string[] = []
    try {
      await this.backUpInto(batch, files, ops, read, stored)
    } catch (error) {
      batch.abort()
      throw error
    }
    try {
      batch.commit()
    } catch (error) {
      const what =
        stored.length === 0
          ? 'the earlier versions this restore names'
          : `${stored[0]}${stored.length > 1 ? ` and ${stored.length - 1} other file(s)` : ''}`
      throw new RewindError(
        `Could not back up ${what}: ${failureReason(error)}. Nothing was changed.`
      )
    }
    return { ops, read }
  }

  /** backUp's loop: `stored` gets the paths whose content went into the batch. */
  private async backUpInto(
    batch: BlobBatch,
    files: FileToWrite[],
    ops: RestoreOp[],
    read: Map<string, FileStamp>,
    stored: string[]
  ): Promise<void> {
    const { root } = this.space
    for (const [i, { path, to, toMode, toFolder, seen, seenStamp }] of files.entries()) {
      const { abs, stamp } = inspectPath(root, path)
      let current: { hash: string; file: FileStamp } | null
      if (
        seen !== undefined &&
        seen !== null &&
        seenStamp !== undefined &&
        seenStamp !== null &&
        unchangedSince(seenStamp, stamp) &&
        batch.holds(seen)
      ) {
        // Untouched since the preview read it, and that content is kept already.
        current = { hash: seen, file: seenStamp }
      } else {
        const file = readFileAt(abs, this.settleMs)
        if (seen !== undefined && (file === null ? null : sha256(file.content)) !== seen) {
          throw new RewindError(
            `${path} changed since the preview was made: preview the rewind again. Nothing was changed.`
          )
        }
        if (file !== null) stored.push(path)
        current = file === null ? null : { hash: this.backUpContent(batch, path, file, to), file }
      }
      const from = current?.hash ?? null
      if (current !== null) read.set(path, current.file)
      if (from !== to) {
        ops.push({
          path,
          from,
          to,
          ...(current === null ? {} : { fromMode: current.file.mode }),
          // A folder the file will replace: a rollback or an undo brings it back.
          ...(current === null && to !== null && isFolderAt(abs) ? { fromFolder: true } : {}),
          ...(to === null || toMode === undefined ? {} : { toMode }),
          ...(to === null && toFolder === true ? { toFolder: true } : {}),
          ...(this.inPlace && current !== null && to !== null ? { inPlace: true } : {})
        })
      }
      if (i % FILES_PER_BATCH === FILES_PER_BATCH - 1) await yieldToEventLoop()
    }
  }

  /**
   * Step 0: the content a plan takes from another source goes into our blob store first, so
   * the journal, a rollback and an undo only ever read our own store.
   */
  private importTargets(files: PlannedFile[], source: ContentSource): void {
    for (const file of files) {
      if (file.toRef === undefined || file.to === null || this.space.blobs.holds(file.to)) continue
      let stored: string
      try {
        stored = this.space.blobs.put(source.read(file.toRef), { path: file.path })
      } catch (error) {
        throw new RewindError(
          `Could not copy the backup of ${file.path}: ${error instanceof ContentMissingError ? error.reason : failureReason(error)}. Nothing was changed.`
        )
      }
      if (stored !== file.to) {
        throw new RewindError(
          `The backup of ${file.path} changed since the preview was made: preview again. Nothing was changed.`
        )
      }
    }
  }

  private backUpContent(
    batch: BlobBatch,
    path: string,
    file: { content: Buffer },
    to: string | null
  ): string {
    try {
      return batch.put(file.content, { previous: to, path })
    } catch (error) {
      throw new RewindError(
        `Could not back up ${path}: ${failureReason(error)}. Nothing was changed.`
      )
    }
  }

  /**
   * Gives every file its `side` content; skips files already there (their times stay).
   * Deletions go first, deepest first, so a file and a folder can trade places.
   *
   * A file that holds neither side was changed by someone else since the backup. Applying
   * ('to'), that stops the restore (its content was never backed up). Rolling back ('from'), it
   * is left as it is and returned, like a path that cannot be reached safely any more: a
   * rollback puts back what the restore wrote and clobbers nothing else.
   */
  async applyOps(
    ops: RestoreOp[],
    side: 'from' | 'to',
    readForBackup = new Map<string, FileStamp>()
  ): Promise<string[]> {
    const { root, blobs } = this.space
    const rollingBack = side === 'from'
    const deletions = ops.filter((op) => op[side] === null).reverse()
    const writes = ops.filter((op) => op[side] !== null)
    // The files that may be written in place go last: the others need space (a new inode, new
    // blocks) and those need none, so a full disk stops a restore before any file was written
    // in place, and every rollback of it replaces nothing but what the deletions freed.
    const ordered = [
      ...deletions,
      ...writes.filter((op) => op.inPlace !== true),
      ...writes.filter((op) => op.inPlace === true)
    ]
    const leftAlone: string[] = []
    const failed = (op: RestoreOp, error: unknown): void => {
      const reason = failureReason(error)
      if (!rollingBack) {
        throw error instanceof RewindError || error instanceof PathOutsideWorkspaceError
          ? error
          : new RewindError(`Could not restore ${op.path}: ${reason}`)
      }
      leftAlone.push(`${op.path} (${reason})`)
    }
    // A file that holds neither side, or whose stamp moved between its check and its rename.
    const changedMeanwhile = (op: RestoreOp) =>
      new RewindError(
        rollingBack
          ? 'it was changed since the restore began'
          : `${op.path} was changed while the restore ran`
      )
    let done = 0
    const finished = () => this.onProgress(++done, ops.length)
    // Writes go by batches: the batch's temp files are written, then renamed over their files
    // one after another. On ext4 a rename over a file starts the writeback of its new data
    // (auto_da_alloc); renames in a row, after the writes, cost less than a write and a rename
    // in turn (bench/files-restore.ts). Each file is still old or new, never partial: a crash
    // leaves temp files beside old files, which recover() removes before its rollback.
    const pending: PendingWrite[] = []
    const commit = () => {
      for (let write = pending.shift(); write !== undefined; write = pending.shift()) {
        try {
          // Looked at again right before the rename: a change made since the check (or a link
          // put on the path) is not overwritten, as when each write followed its check.
          if (inspectPath(root, write.op.path).stamp !== write.stamp) {
            throw changedMeanwhile(write.op)
          }
          replaceWithTemp(write.temp, write.abs)
        } catch (error) {
          removeTemp(write.temp)
          failed(write.op, error)
        }
        finished()
      }
    }
    try {
      for (const [i, op] of ordered.entries()) {
        const want = op[side]
        const other = rollingBack ? op.to : op.from
        let awaitingRename = false
        try {
          const backedUp = readForBackup.get(op.path)
          // Applying, a file the backup found settled a moment ago is written over without its
          // path walked again: overwriteAsBackedUp proves, on the file it opened, that it is the
          // one backed up. An unsettled one goes the checked way at once (its content not read
          // for a write that cannot happen).
          const written =
            !rollingBack &&
            want !== null &&
            op.inPlace === true &&
            backedUp?.settled === true &&
            overwriteAsBackedUp(root, op.path, blobs.read(want), backedUp, op.toMode)
          if (!written) {
            const { abs, stamp } = inspectPath(root, op.path)
            // Untouched since the backup read it: it holds `from`, in the mode the backup saw.
            const current =
              backedUp !== undefined && unchangedSince(backedUp, stamp)
                ? { hash: op.from, mode: backedUp.mode }
                : hashOfFileAt(abs)
            const have = current?.hash ?? null
            const folderAfter =
              want === null && (rollingBack ? op.fromFolder : op.toFolder) === true
            if (have !== want) {
              if (have !== other && !(rollingBack && this.cutShort(op, abs))) {
                throw changedMeanwhile(op)
              }
              if (want === null) deleteFileAt(abs, folderAfter)
              else {
                const mode = rollingBack ? op.fromMode : op.toMode
                const content = blobs.read(want)
                // A rollback too, where the file can take it: on a full disk a replace would fail.
                // A crash in it leaves a file cutShort recognizes, for the next rollback.
                const overwritten =
                  op.inPlace === true &&
                  stamp !== null &&
                  overwriteInPlace(abs, content, stamp, mode)
                if (!overwritten) {
                  const replacing = have === null ? undefined : current?.mode
                  const temp = writeTempBeside(abs, content, mode, replacing)
                  pending.push({ op, abs, stamp, temp })
                  awaitingRename = true
                }
              }
            } else if (folderAfter && !isFolderAt(abs)) {
              // The write that was to replace the folder removed it and then failed: it comes back.
              deleteFileAt(abs, true)
            }
          }
        } catch (error) {
          failed(op, error)
        }
        if (!awaitingRename) finished()
        if (pending.length >= FILES_PER_BATCH) commit()
        if (i % FILES_PER_BATCH === FILES_PER_BATCH - 1) await yieldToEventLoop()
      }
      commit()
    } finally {
      // An apply that stopped part way: the temp files not renamed are no file of the user's.
      for (const write of pending) removeTemp(write.temp)
    }
    return leftAlone
  }

  /**
   * Whether the file at `abs` is this op's in-place write cut short by a crash or a failure
   * (isPartialOverwrite), either way: the restore's (`to` over `from`) or its rollback's (`from`
   * over `to`). Then it is the restore's own doing and rolls back like a whole one.
   */
  private cutShort(op: RestoreOp, abs: string): boolean {
    if (op.inPlace !== true || op.from === null || op.to === null) return false
    const file = readFileAt(abs)
    if (file === null) return false
    const from = this.space.blobs.read(op.from)
    const to = this.space.blobs.read(op.to)
    return isPartialOverwrite(file.content, from, to) || isPartialOverwrite(file.content, to, from)
  }
}

/** The hash and mode of the regular file at `abs`, or null when there is none. */
function hashOfFileAt(abs: string): { hash: string; mode: number } | null {
  const file = readFileAt(abs)
  return file === null ? null : { hash: sha256(file.content), mode: file.mode }
}

/** The folders on the way to the files the ops recreate (only theirs may be missing). */
function parentsOf(ops: readonly RestoreOp[]): string[] {
  const folders = new Set<string>()
  for (const op of ops) {
    if (op.to === null || op.from !== null) continue
    for (let dir = parentOf(op.path); dir !== '' && !folders.has(dir); dir = parentOf(dir)) {
      folders.add(dir)
    }
  }
  return [...folders]
}

/** Whether `journal` wrote in the folder `root` (one from before roots were kept: assumed). */
export function wroteIn(journal: RestoreJournal, root: string): boolean {
  return journal.root === undefined || journal.root === root
}

export function describeLeftAlone(leftAlone: string[]): string {
  return leftAlone.length === 0 ? '' : ` Left as they are now: ${leftAlone.join('; ')}.`
}

/** Why a restore that changes no file was not made, naming the files it could not restore. */
function nothingRestored(unrestorable: RewindPlan['unrestorable']): string {
  const none = 'Nothing was restored, and no step was recorded (Undo has nothing to take back)'
  if (unrestorable.length === 0) return `${none}: every file is already as it was then.`
  const [first] = unrestorable
  const others = unrestorable.length - 1
  return `${none}: no file it would change can be restored. ${first?.path}: ${first?.reason}${others === 0 ? '' : `; and ${others} other file(s)`}.`
}
