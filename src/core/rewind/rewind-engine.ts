// The rewind engine: plan (a preview with diffs), apply (journaled, atomic), branch switch and
// continue from any node, the timeline's undo and redo (timeline.ts), and recovery of a restore a
// crash interrupted. It moves the workspace between states of the session tree that the turns'
// file_change records describe (file-targets.ts), from where the files are (the timeline's
// "files at") to the target, and moves the leaf with rewind / navigate records. The content it
// restores comes from a ContentSource: our blob store, or another tool's backups for a rescue
// restore (rescue.ts), whose log is then a companion log (companion-log.ts) instead of the
// session.
//
// This module is the one callers use; its three parts are modules of their own: planning
// (rewind-plan.ts: what a restore would change, nothing written), applying (restore-apply.ts:
// backups, journal, files, record, in the order its header numbers, so a crash at any point
// loses nothing) and recovery (rewind-recovery.ts: at start, what a crash left under way
// finished or rolled back). Undo and redo are here: each is a restore made from a journal.
import type { MergeIntent } from '../session/records'
import type { RewindMode } from '../../shared/messages'
import type { FileDiff, RewindResult } from '../../shared/views'
import type { ContentSource, ExternalTarget } from './content-source'
import { foldersThat } from './created-folders'
import {
  type FolderMoves,
  type RestoreJournal,
  type RestoreOp,
  loadJournal,
  pendingJournal
} from './journal'
import { DiskHashes } from './disk-hashes'
import { filesAsNodeLeftThem } from './node-files'
import { type Timeline, type TimelineAction, replayTimeline } from './timeline'
import { RestoreWriter, type RewindLog, wroteIn } from './restore-apply'
import { RewindError } from './rewind-error'
import { type PlanOptions, type RewindPlan, RewindPlanner } from './rewind-plan'
import { recoverJournals } from './rewind-recovery'
import { type RestoreSpace, overwritesInPlace, settleMarginMs } from './workspace-files'
import { checkWorkspaceFolder } from '../files/workspace-root'

// The engine's types and error, from where its callers take them.
export type { RewindLog } from './restore-apply'
export { RewindError } from './rewind-error'
export type { FileAction, PlanOptions, PlannedFile, RewindPlan } from './rewind-plan'

export interface RewindEngineOptions {
  home: string
  store: RewindLog
  space: RestoreSpace
  /** Called as files are restored (a big restore can take a moment). */
  onProgress?: (done: number, total: number) => void
}

export class RewindEngine {
  private readonly store: RewindLog
  private readonly space: RestoreSpace
  private readonly planner: RewindPlanner
  private readonly writer: RestoreWriter
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
    this.store = options.store
    this.space = options.space
    // How long ago a file must have changed for its stamp to be trusted (settleMarginMs).
    const settleMs = settleMarginMs(options.space.root)
    this.planner = new RewindPlanner(options.home, options.store, options.space, settleMs)
    this.writer = new RestoreWriter(
      options.store,
      options.space,
      settleMs,
      overwritesInPlace(options.space.root),
      options.onProgress ?? (() => undefined)
    )
    this.disk = new DiskHashes(options.space.root, settleMs)
  }

  /** The folder this engine restores into (resolved through symlinks). */
  get root(): string {
    return this.space.root
  }

  // The plans (rewind-plan.ts says what each moves).

  /** Rewind to the state just before the prompt `checkpointUuid`, on any branch. */
  planRewind(
    checkpointUuid: string,
    mode: RewindMode,
    options: PlanOptions = {}
  ): Promise<RewindPlan> {
    return this.planner.planRewind(checkpointUuid, mode, options)
  }

  /** Move the leaf to another branch's `leafUuid`, bringing that branch's files back. */
  planSwitch(leafUuid: string, options: PlanOptions = {}): Promise<RewindPlan> {
    return this.planner.planSwitch(leafUuid, options)
  }

  /** Continue from any record: the leaf and the files go where it left them. */
  planContinue(targetUuid: string, options: PlanOptions = {}): Promise<RewindPlan> {
    return this.planner.planContinue(targetUuid, options)
  }

  /** Files to what another tool's backups say (a rescue restore): code only, the leaf stays. */
  planExternalRestore(
    checkpointUuid: string,
    targets: ExternalTarget[],
    source: ContentSource
  ): Promise<RewindPlan> {
    return this.planner.planExternalRestore(checkpointUuid, targets, source)
  }

  /** A merge's files (core/merge computes them), written as one action. */
  planMerge(
    targets: (ExternalTarget & { targetMode?: number | undefined })[],
    source: ContentSource,
    merge: MergeIntent
  ): Promise<RewindPlan> {
    return this.planner.planMerge(targets, source, merge)
  }

  /** The diff of one file of `plan`, one its preview left out. */
  fileDiff(plan: RewindPlan, path: string): FileDiff {
    return this.planner.fileDiff(plan, path)
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
    const done = await this.writer.applyPlan(plan)
    return { ...resultOf(done), prefill: plan.prefill }
  }

  /**
   * Makes a summary the user asked for (Summarize from / up to here) an action of the timeline:
   * the leaf went from `leafBefore` to the summary, no file changed. Journaled like a restore
   * with no file, so Undo takes the leaf back and Redo brings it to the summary again.
   */
  async recordSummary(leafBefore: string | null, summaryUuid: string): Promise<void> {
    this.requireWritable()
    const move = { checkpointUuid: null, mode: null, leafBefore, leafAfter: summaryUuid }
    await this.writer.run(this.journalFor(move, 'summary', []), new Map())
  }

  /**
   * The timeline (timeline.ts), with Undo and Redo only where they can run here: their journal
   * is readable and finished, and it wrote in this engine's folder. `wholeReach`: the walks'
   * reach ends too at the first step that cannot run here (each step's journal read: for the
   * timeline's list, which offers a walk only where it gets to; Undo and Redo read one each).
   */
  async timeline(wholeReach = false): Promise<Timeline> {
    const timeline = replayTimeline(this.store.tree())
    const usable = async (journalId: string) => {
      const journal = await loadJournal(this.space.paths.restores, journalId).catch(() => null)
      return journal !== null && journal.state === 'recorded' && wroteIn(journal, this.space.root)
    }
    /** The first steps of `steps` that can run here, one at most unless the whole reach is asked. */
    const runnable = async (
      steps: readonly TimelineAction[],
      journalOf: (a: TimelineAction) => string
    ) => {
      const run: TimelineAction[] = []
      for (const step of steps.slice(0, wholeReach ? steps.length : 1)) {
        if (!(await usable(journalOf(step)))) break
        run.push(step)
      }
      return run
    }
    // Undo reverses an action's latest journal, Redo re-applies its first (its id).
    const undo = await runnable(timeline.reach.undo, (a) => a.journalId)
    const redo = await runnable(timeline.reach.redo, (a) => a.id)
    return {
      ...timeline,
      undoable: undo[0] ?? null,
      redoable: redo[0] ?? null,
      reach: wholeReach ? { undo, redo } : timeline.reach
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

  /** The finished journal of a timeline step, or a RewindError saying why it cannot be used. */
  private async stepJournal(id: string, what: 'undo' | 'redo'): Promise<RestoreJournal> {
    const journal = await loadJournal(this.space.paths.restores, id).catch((error: unknown) => {
      throw new RewindError((error as Error).message, 'not_found')
    })
    if (journal.state !== 'recorded') {
      throw new RewindError(`The restore ${id} did not finish: there is nothing to ${what}`)
    }
    if (!wroteIn(journal, this.space.root)) {
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
    const { ops, read } = await this.writer.backUp(
      undone.ops.map((op) => ({
        path: op.path,
        to: op.from,
        toMode: op.fromMode,
        toFolder: op.fromFolder
      }))
    )
    // The folders it removed come back (before the files), those it made go where left empty.
    const folders = {
      makeFolders: foldersThat('are missing', this.space.root, undone.removeFolders ?? []),
      removeFolders: foldersThat('stand', this.space.root, undone.makeFolders ?? [])
    }
    const done = await this.writer.run(
      {
        ...this.journalFor(undone, 'undo', ops, folders),
        leafBefore: undone.leafAfter,
        leafAfter: undone.leafBefore,
        undoes: undone.id
      },
      read
    )
    return { ...resultOf(done), prefill: null }
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
    const { ops, read } = await this.writer.backUp(
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
    const folders = {
      removeFolders: foldersThat('stand', this.space.root, original.removeFolders ?? []),
      makeFolders: foldersThat('are missing', this.space.root, original.makeFolders ?? [])
    }
    const done = await this.writer.run(
      {
        ...this.journalFor(original, 'redo', ops, folders),
        leafAfter: step.summary ?? original.leafAfter,
        redoes: step.id
      },
      read
    )
    return { ...resultOf(done), prefill: null }
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
  private journalFor(
    of: Pick<RestoreJournal, 'checkpointUuid' | 'mode' | 'leafBefore' | 'leafAfter'>,
    kind: RestoreJournal['kind'],
    ops: RestoreOp[],
    folders: FolderMoves = {}
  ): RestoreJournal {
    return pendingJournal(
      { sessionId: this.store.sessionId, root: this.space.root },
      of,
      kind,
      ops,
      folders
    )
  }

  /**
   * Finishes what a crash interrupted, for this session's journals (rewind-recovery.ts).
   * Returns a line per journal handled, for the user.
   */
  recover(): Promise<string[]> {
    return recoverJournals(this.store, this.space, this.writer)
  }

  private requireWritable(): void {
    if (this.store.readOnlyReason !== null) {
      throw new RewindError(`The session is read-only (${this.store.readOnlyReason})`, 'read_only')
    }
  }
}

/** What a finished restore did, from its journal: the files, and the folders it removed or made. */
function resultOf(journal: RestoreJournal): Omit<RewindResult, 'prefill'> {
  const { ops, removeFolders = [], makeFolders = [] } = journal
  return {
    restored: ops.filter((op) => op.from !== null && op.to !== null).map((op) => op.path),
    deleted: ops.filter((op) => op.to === null).map((op) => op.path),
    recreated: ops.filter((op) => op.from === null).map((op) => op.path),
    ...(removeFolders.length > 0 ? { removedFolders: removeFolders } : {}),
    ...(makeFolders.length > 0 ? { madeFolders: makeFolders } : {})
  }
}
