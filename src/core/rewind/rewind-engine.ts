// The rewind engine: plan (a preview with diffs), apply (journaled, atomic), branch switch and
// continue from any node, the timeline's undo and redo (timeline.ts), and recovery of a restore a
// crash interrupted. It moves the workspace between states of the session tree that the turns'
// file_change records describe (file-targets.ts), from where the files are (the timeline's
// "files at") to the target, and moves the leaf with rewind / navigate records. A restore is its
// own action, never a turn's change: it writes no file_change record (its journal holds what it
// wrote). The content it restores comes from a ContentSource: our blob store, or another tool's backups for a
// rescue restore (rescue.ts), whose log is then a companion log (companion-log.ts) instead of the
// session. Always in this order:
//   0. copy target content from another source into our blob store (a failure changes nothing);
//   1. back up what will be overwritten or deleted (a failure here changes nothing);
//   2. write the journal (intent + backups), durably;
//   3. write each file (over itself in place where it can take it, else temp + rename by
//      batches: the temps, then their renames) or delete it;
//   4. append the session record; a crash before it is completed or rolled back by recover().
import { CodedError } from '../../shared/coded-error'
import type { ErrorCode } from '../../shared/contract'
import type { SessionStore } from '../session/store'
import { isPrompt, promptText } from '../session/tree'
import type { MergeIntent } from '../session/records'
import type { RewindMode } from '../../shared/messages'
import type { FileDiff, PreviewFile, RewindPreview, RewindResult } from '../../shared/views'
import { unifiedDiff } from './file-diff'
import { type ContentSource, ContentMissingError, blobContent } from './content-source'
import type { ExternalTarget } from './content-source'
import { fileTargets, untrackedBetween } from './file-targets'
import {
  type JournalState,
  type RestoreJournal,
  type RestoreOp,
  listJournals,
  loadJournal,
  newJournalId,
  saveJournal
} from './journal'
import { Sources } from '../sources/discovery'
import { otherSessionsChanges, fileChangeRecords } from './other-sessions'
import { DiskHashes } from './disk-hashes'
import { filesAsNodeLeftThem } from './node-files'
import { filesWhenSent } from './file-lineage'
import { type Timeline, type TimelineAction, replayTimeline } from './timeline'
import { hasRecord, recordRestore } from './restore-records'
import {
  type FileStamp,
  type RestoreSpace,
  checkedPath,
  deleteFileAt,
  inspectPath,
  isFolderAt,
  isPartialOverwrite,
  overwriteAsBackedUp,
  overwriteInPlace,
  overwritesInPlace,
  readFileAt,
  removeLeftoverTemps,
  removeTemp,
  replaceWithTemp,
  settleMarginMs,
  unchangedSince,
  writeTempBeside
} from './workspace-files'
import { type BlobBatch, BlobMissingError, sha256 } from '../files/blob-store'
import { failureReason } from '../os/write-failure'
import { PathOutsideWorkspaceError } from '../files/workspace-paths'
import { checkWorkspaceFolder } from '../files/workspace-root'
import { yieldToEventLoop } from '../os/event-loop'

/** What the engine needs from the session store. */
export type RewindLog = Pick<
  SessionStore,
  'sessionId' | 'cwd' | 'leafUuid' | 'readOnlyReason' | 'tree' | 'appendRewind' | 'appendNavigate'
> &
  // Our own sessions only: a rescue restore's companion log records no merge.
  Partial<Pick<SessionStore, 'appendMerge'>>

export interface RewindEngineOptions {
  home: string
  store: RewindLog
  space: RestoreSpace
  /** Called as files are restored (a big restore can take a moment). */
  onProgress?: (done: number, total: number) => void
}

export type FileAction = 'restore' | 'delete' | 'recreate'

export interface PlannedFile {
  path: string
  action: FileAction
  /** The content the restore gives the file (blob hash); null = deleted. */
  to: string | null
  /** Where the plan's source names that content, when the source is not our blob store. */
  toRef?: string
  /**
   * The bits a recreated file gets: those its records say it had with that content (a blob
   * carries none). Absent for a file that exists (it keeps its own) or whose mode is unknown.
   */
  toMode?: number
  /** What the preview saw on disk (hash; null = no file): apply refuses if it changed since. */
  seen: string | null
  /** How the preview found the file, so apply can tell it is untouched without reading it. */
  seenStamp: FileStamp | null
  outsideChange: boolean
  /**
   * The unified diff current → target, computed with the plan for the first few files only
   * (EAGER_DIFFS); null for the rest: fileDiff() gives it when the user opens the file.
   */
  diff: string | null
}

export interface RewindPlan {
  kind: 'rewind' | 'switch-branch' | 'continue' | 'merge'
  checkpointUuid: string | null
  mode: RewindMode | null
  leafBefore: string | null
  leafAfter: string | null
  files: PlannedFile[]
  /** Changed since by another session of the workspace: left alone unless asked. */
  conflicts: string[]
  /** Files whose content at the target is no longer known (backup pruned): left alone. */
  unrestorable: { path: string; reason: string }[]
  messagesKept: number | null
  prefill: string | null
  /** Where the targets' content comes from, when not our blob store (a rescue restore, a merge). */
  source?: ContentSource
  /** A merge's record, appended when its files are written (kind 'merge'). */
  merge?: MergeIntent
  preview: RewindPreview
}

/** What a restore from another source gives a file: a ref in that source; null = delete it. */
export interface PlanOptions {
  /** Restore files another session changed since, too (default: leave them alone). */
  overwriteConflicts?: boolean
  /** Make the first files' diffs with the plan (default: yes, a preview shows them). */
  diffs?: boolean
}

/**
 * A rewind, switch or undo refused or rolled back, nothing lost. The code says which kind for
 * the contract: by default the workspace or session is not in a state it can go through.
 */
export class RewindError extends CodedError {
  constructor(message: string, code: ErrorCode = 'conflict') {
    super(code, message)
    this.name = 'RewindError'
  }
}

/**
 * Files restored between two yields to the event loop. The file I/O is synchronous (a round trip
 * through libuv's pool per syscall cost more than the syscalls); a batch blocks for milliseconds.
 */
const FILES_PER_BATCH = 32

/** The journals recovery acts on. */
const UNFINISHED: ReadonlySet<JournalState> = new Set(['pending', 'applied'])

/** A file's new content in a temp file beside it, waiting for its rename (applyOps). */
interface PendingWrite {
  op: RestoreOp
  abs: string
  /** The file's stamp when it was checked (null: no file); the rename needs it unchanged. */
  stamp: string | null
  temp: string
}

/**
 * Diffs a plan computes for its first files: a small rewind's preview shows every diff at once,
 * a big one lists its files without making a thousand diffs nobody opens (they cost more than
 * the restore itself). The rest are made one by one on request (fileDiff).
 */
const EAGER_DIFFS = { files: 20, contentBytes: 512_000 }

export class RewindEngine {
  /**
   * The workspace's other sessions, summarized in the session index (their changed paths): read
   * from the data home and kept up to date here, never written (a --dry-run changes nothing).
   */
  private readonly sources: Sources
  private readonly store: RewindLog
  private readonly space: RestoreSpace
  private readonly onProgress: (done: number, total: number) => void
  /** How long ago a file must have changed for its stamp to be trusted (settleMarginMs). */
  private readonly settleMs: number
  /** Whether files here may be written over in place (overwritesInPlace). */
  private readonly inPlace: boolean
  /** The disk's content of the files the session touched, read again only when changed. */
  readonly disk: DiskHashes
  /** The last state filesChangedSince compared the disk with. */
  private nodeState: {
    node: string | null
    records: number
    state: ReturnType<typeof filesAsNodeLeftThem>
  } | null = null

  constructor(options: RewindEngineOptions) {
    // A restore deletes files: never in /, the home folder, or any folder not fit to be a workspace.
    checkWorkspaceFolder(options.space.root, options.home)
    // Read-only caches: a preview writes nothing; the app's session list keeps the index warm.
    this.sources = new Sources({ home: options.home, persist: false })
    this.store = options.store
    this.space = options.space
    this.onProgress = options.onProgress ?? (() => undefined)
    this.settleMs = settleMarginMs(options.space.root)
    this.inPlace = overwritesInPlace(options.space.root)
    this.disk = new DiskHashes(options.space.root, this.settleMs)
  }

  /** The folder this engine restores into (resolved through symlinks). */
  get root(): string {
    return this.space.root
  }

  /**
   * Rewind to the state just before the prompt `checkpointUuid`, on its own branch (the active
   * one or any other): both moves the leaf to the prompt's parent and the files to their state
   * there; conversation the leaf only; code the files only.
   */
  async planRewind(
    checkpointUuid: string,
    mode: RewindMode,
    options: PlanOptions = {}
  ): Promise<RewindPlan> {
    const tree = this.store.tree()
    const prompt = tree.get(checkpointUuid)
    if (prompt === undefined || prompt.type !== 'user' || !isPrompt(prompt)) {
      throw new RewindError(
        `${checkpointUuid} is not a checkpoint of this session (no prompt has that id)`,
        'not_found'
      )
    }
    const leafBefore = this.store.leafUuid
    const beforePrompt = prompt.parentUuid
    const movesConversation = mode !== 'code'
    // The files go where they were when the prompt was sent: its parent's state, unless the
    // files were elsewhere then (file-lineage.ts).
    const files =
      mode === 'conversation'
        ? await this.planFiles(null, null, options)
        : await this.planFiles(this.filesAt(), filesWhenSent(tree, checkpointUuid), options)
    return this.finishPlan({
      kind: 'rewind',
      checkpointUuid,
      mode,
      leafBefore,
      leafAfter: movesConversation ? beforePrompt : leafBefore,
      ...files,
      messagesKept: movesConversation ? countMessages(tree.pathTo(beforePrompt)) : null,
      prefill: movesConversation ? promptText(prompt) : null
    })
  }

  /** Move the leaf to another branch's `leafUuid`, bringing that branch's files back. */
  planSwitch(leafUuid: string, options: PlanOptions = {}): Promise<RewindPlan> {
    return this.planMove('switch-branch', leafUuid, options)
  }

  /**
   * Continue from any record (the studio picks a turn's last record): the leaf goes there and
   * the files to the state it left them in, so the next prompt is its child.
   */
  planContinue(targetUuid: string, options: PlanOptions = {}): Promise<RewindPlan> {
    return this.planMove('continue', targetUuid, options)
  }

  private async planMove(
    kind: 'switch-branch' | 'continue',
    target: string,
    options: PlanOptions
  ): Promise<RewindPlan> {
    const tree = this.store.tree()
    if (tree.get(target) === undefined) {
      throw new RewindError(`Entry ${target} not found`, 'not_found')
    }
    const leafBefore = this.store.leafUuid
    if (kind === 'continue' && target === leafBefore) {
      throw new RewindError('The conversation is there already: nothing to continue from.')
    }
    return this.finishPlan({
      kind,
      checkpointUuid: null,
      mode: null,
      leafBefore,
      leafAfter: target,
      ...(await this.planFiles(this.filesAt(), target, options)),
      messagesKept: countMessages(tree.pathTo(target)),
      prefill: null
    })
  }

  /**
   * Restore files to what another tool's backups say (a rescue restore): code only, the leaf
   * stays. `checkpointUuid` names the point restored to in that tool's session. Every target's
   * path must already be checked (a refusal there names the tool's record, not ours).
   */
  async planExternalRestore(
    checkpointUuid: string,
    targets: ExternalTarget[],
    source: ContentSource
  ): Promise<RewindPlan> {
    const leaf = this.store.leafUuid
    return this.finishPlan({
      kind: 'rewind',
      checkpointUuid,
      mode: 'code',
      leafBefore: leaf,
      leafAfter: leaf,
      ...(await this.planTargets(targets, source, {}, false)),
      messagesKept: null,
      prefill: null,
      source
    })
  }

  /**
   * A merge's files (core/merge computes them): code written as one action, recorded by the
   * merge record `merge` (the new leaf) and its file_change records. Every target's path must
   * already be checked, and `source` holds the merged content.
   */
  async planMerge(
    targets: (ExternalTarget & { targetMode?: number | undefined })[],
    source: ContentSource,
    merge: MergeIntent
  ): Promise<RewindPlan> {
    return this.finishPlan({
      kind: 'merge',
      checkpointUuid: null,
      mode: null,
      leafBefore: this.store.leafUuid,
      leafAfter: merge.uuid,
      ...(await this.planTargets(targets, source, {}, false)),
      messagesKept: null,
      prefill: null,
      source,
      merge
    })
  }

  async rewind(checkpointUuid: string, mode: RewindMode): Promise<RewindResult> {
    return this.apply(await this.planRewind(checkpointUuid, mode))
  }

  async switchBranch(leafUuid: string): Promise<RewindResult> {
    return this.apply(await this.planSwitch(leafUuid))
  }

  async apply(plan: RewindPlan): Promise<RewindResult> {
    this.requireWritable()
    if (this.store.leafUuid !== plan.leafBefore) {
      throw new RewindError('The session moved on since this preview was made: preview again')
    }
    if (plan.source !== undefined) this.importTargets(plan.files, plan.source)
    const { ops, read } = await this.backUp(plan.files)
    if (ops.length === 0 && plan.leafAfter === plan.leafBefore) {
      // A restore that leaves the conversation where it is and writes no file did nothing: no
      // journal, no record, so no step for Undo to take back.
      throw new RewindError(nothingRestored(plan.unrestorable), 'not_found')
    }
    const journal = this.newJournal(plan, plan.kind, ops)
    // A merge's record names its journal, for Undo (merge-apply.ts).
    if (plan.merge !== undefined) journal.merge = { ...plan.merge, restoreId: journal.id }
    await this.run(journal, read)
    return { ...resultOf(ops), prefill: plan.prefill }
  }

  /**
   * Makes a summary the user asked for (Summarize from / up to here) an action of the timeline:
   * the leaf went from `leafBefore` to the summary, no file changed. Journaled like a restore
   * with no file, so Undo takes the leaf back and Redo brings it to the summary again.
   */
  async recordSummary(leafBefore: string | null, summaryUuid: string): Promise<void> {
    this.requireWritable()
    const move = { checkpointUuid: null, mode: null, leafBefore, leafAfter: summaryUuid }
    await this.run(this.newJournal(move, 'summary', []), new Map())
  }

  /**
   * The timeline (timeline.ts), with Undo and Redo only where they can run here: their journal
   * is readable and finished, and it wrote in this engine's folder.
   */
  async timeline(): Promise<Timeline> {
    const timeline = replayTimeline(this.store.tree())
    const usable = async (action: TimelineAction | null, journalId: string | undefined) => {
      if (action === null || journalId === undefined) return null
      const journal = await loadJournal(this.space.paths.restores, journalId).catch(() => null)
      return journal !== null && journal.state === 'recorded' && this.isHere(journal)
        ? action
        : null
    }
    return {
      ...timeline,
      undoable: await usable(timeline.undoable, timeline.undoable?.journalId),
      redoable: await usable(timeline.redoable, timeline.redoable?.id)
    }
  }

  /**
   * Whether a file the session touched holds something else than the state of `node` (the
   * record the files are at): a hand edit, another session, a file a restore left alone. Each
   * file is read again only when its stamp changed since the last call.
   */
  filesChangedSince(node: string | null): boolean {
    const tree = this.store.tree()
    // The state is rebuilt only when the log grew or the node changed: asked per graph request.
    const known = this.nodeState
    const state =
      known !== null && known.node === node && known.records === tree.records.length
        ? known.state
        : filesAsNodeLeftThem(tree, node)
    this.nodeState = { node, records: tree.records.length, state }
    for (const [path, { hash }] of state) {
      const onDisk = this.disk.hashOf(path)
      if (onDisk !== undefined && onDisk !== hash) return true
    }
    return false
  }

  /** Whether `journal` wrote in this engine's folder (one from before roots were kept: assumed). */
  private isHere(journal: RestoreJournal): boolean {
    return journal.root === undefined || journal.root === this.space.root
  }

  /** The finished journal of a timeline step, or a RewindError saying why it cannot be used. */
  private async stepJournal(id: string, what: 'undo' | 'redo'): Promise<RestoreJournal> {
    const journal = await loadJournal(this.space.paths.restores, id).catch((error: unknown) => {
      throw new RewindError((error as Error).message, 'not_found')
    })
    if (journal.state !== 'recorded') {
      throw new RewindError(`The restore ${id} did not finish: there is nothing to ${what}`)
    }
    if (!this.isHere(journal)) {
      throw new RewindError(
        `That restore wrote files in ${journal.root}, not in ${this.space.root}: ${what} it there (--cwd ${journal.root}). Nothing was changed.`
      )
    }
    return journal
  }

  /**
   * Undoes the last action of the timeline (a rewind, switch, continue or redo): every file it
   * wrote or deleted gets back the exact content it had (hand edits included), and the leaf goes
   * back where it was. Repeated, it walks the timeline back.
   */
  async undo(): Promise<RewindResult> {
    this.requireWritable()
    const step = replayTimeline(this.store.tree()).undoable
    if (step === null) {
      throw new RewindError(
        'Nothing to undo: no rewind, branch switch or continue since the last prompt, or all were undone',
        'not_found'
      )
    }
    const undone = await this.stepJournal(step.journalId, 'undo')
    await this.requireBackups(undone.ops, 'from', 'undone')
    const { ops, read } = await this.backUp(
      undone.ops.map((op) => ({
        path: op.path,
        to: op.from,
        toMode: op.fromMode,
        toFolder: op.fromFolder
      }))
    )
    await this.run(
      {
        ...this.newJournal(undone, 'undo', ops),
        leafBefore: undone.leafAfter,
        leafAfter: undone.leafBefore,
        undoes: undone.id
      },
      read
    )
    return { ...resultOf(ops), prefill: null }
  }

  /**
   * Does again the first action undone, while nothing was done since: the leaf goes where it
   * took it and every file it wrote gets that content again (what is there now is backed up, so
   * an undo brings it back).
   */
  async redo(): Promise<RewindResult> {
    this.requireWritable()
    const step = replayTimeline(this.store.tree()).redoable
    if (step === null) {
      throw new RewindError(
        'Nothing to redo: no action was undone, or something was done since',
        'not_found'
      )
    }
    const original = await this.stepJournal(step.id, 'redo')
    await this.requireBackups(original.ops, 'to', 'done again')
    const { ops, read } = await this.backUp(
      original.ops.map((op) => ({
        path: op.path,
        to: op.to,
        // The bits it had after the action: a recreated file's, else the file kept its own.
        toMode: op.to === null ? undefined : (op.toMode ?? op.fromMode),
        toFolder: op.toFolder
      }))
    )
    // Back where the action left the conversation: on the summary of the branch it left, if one
    // was written then, so the next prompt goes on after it.
    await this.run(
      {
        ...this.newJournal(original, 'redo', ops),
        leafAfter: step.summary ?? original.leafAfter,
        redoes: step.id
      },
      read
    )
    return { ...resultOf(ops), prefill: null }
  }

  private async requireBackups(ops: RestoreOp[], side: 'from' | 'to', what: string): Promise<void> {
    for (const op of ops) {
      const hash = op[side]
      if (hash !== null && !(await this.space.blobs.has(hash))) {
        throw new RewindError(
          `The backup of ${op.path} is gone: the action cannot be ${what}. Nothing was changed.`,
          'not_found'
        )
      }
    }
  }

  /** A pending journal of `kind` for the move `of` describes (a plan, an action), with these ops. */
  private newJournal(
    of: Pick<RestoreJournal, 'checkpointUuid' | 'mode' | 'leafBefore' | 'leafAfter'>,
    kind: RestoreJournal['kind'],
    ops: RestoreOp[]
  ): RestoreJournal {
    return {
      id: newJournalId(),
      sessionId: this.store.sessionId,
      kind,
      checkpointUuid: of.checkpointUuid,
      mode: of.mode,
      leafBefore: of.leafBefore,
      leafAfter: of.leafAfter,
      undoes: null,
      root: this.space.root,
      ops,
      state: 'pending',
      createdAt: new Date().toISOString()
    }
  }

  /**
   * Finishes what a crash interrupted, for this session's journals: a restore that may have
   * changed only some files is rolled back; one whose files are all done gets its record.
   * Returns a line per journal handled, for the user.
   */
  async recover(): Promise<string[]> {
    if (this.store.readOnlyReason !== null) return []
    const damaged: string[] = []
    // Only this session's unfinished journals need anything: the others are not checked
    // against the schema (each names every file its restore touched).
    const journals = await listJournals(
      this.space.paths.restores,
      damaged,
      (j) => j.sessionId === this.store.sessionId && UNFINISHED.has(j.state as JournalState),
      UNFINISHED
    )
    const notices = damaged.map(
      (message) =>
        `${message}. It was skipped: if a crash interrupted the restore it describes, that restore was not rolled back.`
    )
    for (const journal of journals) {
      if (journal.sessionId !== this.store.sessionId) continue
      if (journal.state === 'pending' && !this.isHere(journal)) {
        // Its files are in another folder (a CLI rewind with --cwd): rolled back by a start there.
        notices.push(
          `An interrupted ${journal.kind} (${journal.id}) was restoring files in ${journal.root}: it is rolled back by the next rewind there (--cwd ${journal.root}).`
        )
        continue
      }
      if (journal.state === 'pending') {
        this.removeLeftoverTemps(journal.ops)
        const leftAlone = await this.applyOps(journal.ops, 'from')
        await saveJournal(this.space.paths.restores, { ...journal, state: 'rolled-back' })
        notices.push(
          `An interrupted ${journal.kind} (${journal.id}) was rolled back: ${journal.ops.length - leftAlone.length} file(s) are as they were before it.${describeLeftAlone(leftAlone)}`
        )
      } else if (journal.state === 'applied') {
        if (!hasRecord(this.store.tree().records, journal)) recordRestore(this.store, journal)
        await saveJournal(this.space.paths.restores, { ...journal, state: 'recorded' })
        notices.push(`An interrupted ${journal.kind} (${journal.id}) was completed.`)
      }
    }
    return notices
  }

  /** The temp files a crash mid-write left beside the journal's files (never through a link). */
  private removeLeftoverTemps(ops: RestoreOp[]): void {
    for (const op of ops) {
      try {
        removeLeftoverTemps(checkedPath(this.space.root, op.path))
      } catch {
        // Best effort: a path that cannot be checked any more is reported by the rollback that
        // follows, and a temp file left behind is litter, not a loss.
      }
    }
  }

  private requireWritable(): void {
    if (this.store.readOnlyReason !== null) {
      throw new RewindError(`The session is read-only (${this.store.readOnlyReason})`, 'read_only')
    }
  }

  /** Journal, files, record: see the module header. A failure while writing rolls back. */
  private async run(journal: RestoreJournal, read: Map<string, FileStamp>): Promise<void> {
    const dir = this.space.paths.restores
    try {
      await saveJournal(dir, journal)
    } catch (error) {
      throw new RewindError(
        `Could not write the restore journal in ${dir}: ${failureReason(error)}. Nothing was changed.`
      )
    }
    try {
      await this.applyOps(journal.ops, 'to', read)
    } catch (error) {
      const leftAlone = await this.applyOps(journal.ops, 'from')
      await saveJournal(dir, { ...journal, state: 'rolled-back' })
      const reason = error instanceof Error ? error.message : String(error)
      throw new RewindError(
        leftAlone.length === 0
          ? `${reason}. Nothing was changed.`
          : `${reason}. The restore was rolled back.${describeLeftAlone(leftAlone)}`
      )
    }
    await saveJournal(dir, { ...journal, state: 'applied' })
    recordRestore(this.store, journal)
    await saveJournal(dir, { ...journal, state: 'recorded' })
  }

  /**
   * Backs up each file's current content and mode; drops files already at their target. Also
   * returns how each file looked when read, so applying can tell it is untouched without
   * reading it again.
   */
  private async backUp(
    files: {
      path: string
      to: string | null
      toMode?: number | undefined
      /** With `to` null: an empty folder takes the file's place (an undo's; see RestoreOp). */
      toFolder?: boolean | undefined
      /** What a preview showed: a file changed since would be overwritten unseen. */
      seen?: string | null
      seenStamp?: FileStamp | null
    }[]
  ): Promise<{ ops: RestoreOp[]; read: Map<string, FileStamp> }> {
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
    files: Parameters<RewindEngine['backUp']>[0],
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
  private async applyOps(
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

  /** The record whose state the files hold now (the timeline's "files at"). */
  private filesAt(): string | null {
    return replayTimeline(this.store.tree()).filesAt
  }

  /** The restore moving the files from the state of `from` to the state of `to`. */
  private async planFiles(
    from: string | null,
    to: string | null,
    options: PlanOptions
  ): Promise<Pick<RewindPlan, 'files' | 'conflicts' | 'unrestorable'>> {
    const tree = this.store.tree()
    const targets = from === to ? [] : fileTargets(tree, from, to)
    const planned = await this.planTargets(targets, blobContent(this.space.blobs), options, true)
    // What commands changed without a backup is named too, never passed over in silence.
    planned.unrestorable.push(...(from === to ? [] : untrackedBetween(tree, from, to)))
    return planned
  }

  /**
   * Each target read against the disk: files already there are dropped, the rest get their
   * action and diff. `checkOthers`: leave alone what another session of ours changed since
   * (a session's own targets; another tool's backups know nothing of our sessions).
   */
  private async planTargets(
    targets: (ExternalTarget & { targetMode?: number | undefined })[],
    source: ContentSource,
    options: PlanOptions,
    checkOthers: boolean
  ): Promise<Pick<RewindPlan, 'files' | 'conflicts' | 'unrestorable'>> {
    // Every path is checked before anything is read or written: one bad record refuses the
    // whole rewind, naming the record and its path, with nothing changed.
    const absOf = new Map(targets.map((t) => [t.path, this.recordedPath(t.path)]))
    const others = checkOthers ? this.changedByOthers(targets.map((t) => t.path)) : new Set()
    const files: PlannedFile[] = []
    const conflicts: string[] = []
    const unrestorable: { path: string; reason: string }[] = []
    let diffBudget = EAGER_DIFFS.contentBytes
    for (const t of targets) {
      const file = readFileAt(absOf.get(t.path) ?? this.recordedPath(t.path), this.settleMs)
      const current = file?.content ?? null
      const have = current === null ? null : sha256(current)
      let target: string | null
      let content: Buffer | null = null
      try {
        target = t.target === null ? null : source.hashOf(t.target)
        if (have === target) continue
        if (others.has(t.path)) {
          conflicts.push(t.path)
          if (options.overwriteConflicts !== true) continue
        }
        // Read now, not only at apply: a backup retention pruned is reported before anything
        // changes (and the blob store keeps what it read for the apply).
        content = t.target === null ? null : source.read(t.target)
      } catch (error) {
        if (!(error instanceof BlobMissingError || error instanceof ContentMissingError))
          throw error
        unrestorable.push({
          path: t.path,
          reason:
            error instanceof ContentMissingError
              ? error.reason
              : 'its content at that point is not in the backup store (pruned by retention, or it could not be stored)'
        })
        continue
      }
      const action = target === null ? 'delete' : current === null ? 'recreate' : 'restore'
      const sides = (current?.length ?? 0) + (content?.length ?? 0)
      const eager =
        options.diffs !== false && files.length < EAGER_DIFFS.files && sides <= diffBudget
      if (eager) diffBudget -= sides
      files.push({
        path: t.path,
        action,
        to: target,
        // A ref that is not the content's hash names it in another source: copied at apply.
        ...(t.target !== null && t.target !== target ? { toRef: t.target } : {}),
        ...(action === 'recreate' && t.targetMode !== undefined ? { toMode: t.targetMode } : {}),
        seen: have,
        seenStamp:
          file === null ? null : { stamp: file.stamp, settled: file.settled, mode: file.mode },
        outsideChange: t.expected !== undefined && !t.expected.has(have),
        diff: eager ? unifiedDiff(t.path, current, content) : null
      })
    }
    return { files, conflicts, unrestorable }
  }

  /**
   * checkedPath for a path the session's file_change records name. A refusal names the first
   * record that holds the path: a session file is data anyone can write (a hand-made one, one
   * from another machine), and the user must be able to find the line to look at.
   */
  private recordedPath(path: string): string {
    try {
      return checkedPath(this.space.root, path)
    } catch (error) {
      if (!(error instanceof PathOutsideWorkspaceError)) throw error
      const record = fileChangeRecords(this.store.tree()).find((r) => r.path === path)
      throw new RewindError(
        `${record === undefined ? 'The restore' : `The session's file_change record ${record.uuid}`} names a path a restore may not touch. ${error.message}. Nothing was changed.`
      )
    }
  }

  /** Paths another session of the workspace changed after this session last changed them. */
  private changedByOthers(paths: string[]): Set<string> {
    if (paths.length === 0) return new Set()
    const ours = new Map<string, string>()
    for (const r of fileChangeRecords(this.store.tree())) {
      const known = ours.get(r.path)
      if (known === undefined || r.timestamp > known) ours.set(r.path, r.timestamp)
    }
    const earliest = Math.min(...paths.map((p) => Date.parse(ours.get(p) ?? '') || 0))
    const theirs = otherSessionsChanges(
      this.sources,
      this.store.cwd,
      this.store.sessionId,
      earliest
    )
    return new Set(
      paths.filter((p) => {
        const their = theirs.get(p)
        // The same millisecond counts as later: when in doubt, leave the file alone.
        return their !== undefined && their >= (ours.get(p) ?? '')
      })
    )
  }

  /**
   * The diff of one file of `plan` (one its preview left out), from what the file holds now to
   * what the restore would give it.
   */
  fileDiff(plan: RewindPlan, path: string): FileDiff {
    const file = plan.files.find((f) => f.path === path)
    if (file === undefined) {
      throw new RewindError(`${path} is not among the files this rewind would change`, 'not_found')
    }
    const current = readFileAt(this.recordedPath(path), this.settleMs)?.content ?? null
    // A rescue restore's content is still in the other tool's backups until the apply.
    const target =
      file.to === null
        ? null
        : file.toRef !== undefined && plan.source !== undefined
          ? plan.source.read(file.toRef)
          : this.space.blobs.read(file.to)
    return { path, diff: unifiedDiff(path, current, target), outsideChange: file.outsideChange }
  }

  private finishPlan(plan: Omit<RewindPlan, 'preview'>): RewindPlan {
    const diffs = (action: FileAction): PreviewFile[] =>
      plan.files
        .filter((f) => f.action === action)
        .map((f) => ({ path: f.path, diff: f.diff, outsideChange: f.outsideChange }))
    return {
      ...plan,
      preview: {
        restore: diffs('restore'),
        delete: diffs('delete'),
        recreate: diffs('recreate'),
        conflicts: plan.conflicts,
        messagesKept: plan.messagesKept
      }
    }
  }
}

/** The hash and mode of the regular file at `abs`, or null when there is none. */
function hashOfFileAt(abs: string): { hash: string; mode: number } | null {
  const file = readFileAt(abs)
  return file === null ? null : { hash: sha256(file.content), mode: file.mode }
}

/** Why a restore that changes no file was not made, naming the files it could not restore. */
function nothingRestored(unrestorable: RewindPlan['unrestorable']): string {
  const none = 'Nothing was restored, and no step was recorded (Undo has nothing to take back)'
  if (unrestorable.length === 0) return `${none}: every file is already as it was then.`
  const [first] = unrestorable
  const others = unrestorable.length - 1
  return `${none}: no file it would change can be restored. ${first?.path}: ${first?.reason}${others === 0 ? '' : `; and ${others} other file(s)`}.`
}

function describeLeftAlone(leftAlone: string[]): string {
  return leftAlone.length === 0 ? '' : ` Left as they are now: ${leftAlone.join('; ')}.`
}

function countMessages(path: readonly { type: string }[]): number {
  return path.filter((r) => r.type === 'user' || r.type === 'assistant').length
}

function resultOf(ops: RestoreOp[]): Omit<RewindResult, 'prefill'> {
  return {
    restored: ops.filter((op) => op.from !== null && op.to !== null).map((op) => op.path),
    deleted: ops.filter((op) => op.to === null).map((op) => op.path),
    recreated: ops.filter((op) => op.from === null).map((op) => op.path)
  }
}

/** A prompt's uuid by its 1-based index on the active path (the seed's `/rewind N`). */
export function checkpointAt(store: Pick<SessionStore, 'tree'>, index: number): string {
  const checkpoints = store.tree().checkpoints()
  const checkpoint = checkpoints[index - 1]
  if (!Number.isInteger(index) || checkpoint === undefined) {
    throw new RewindError(
      checkpoints.length === 0
        ? 'This session has no checkpoints (no prompt was sent yet)'
        : `No checkpoint ${index}: the active path has checkpoints 1 to ${checkpoints.length}`,
      'not_found'
    )
  }
  return checkpoint.uuid
}
