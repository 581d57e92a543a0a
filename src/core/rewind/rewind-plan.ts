// Planning a restore (the rewind engine's first part, rewind-engine.ts): where the files go for
// a rewind to a prompt, a branch switch, a continue from any record, a rescue restore from
// another tool's backups or a merge, read against the disk. Nothing is written: a plan is a
// preview (its first files' diffs made at once, the rest by fileDiff on request), the files
// another session of the workspace changed since (left alone unless asked), the files whose
// content is gone, and for each file what the preview saw on disk, so the apply
// (restore-apply.ts) refuses a file changed since and need not read an untouched one again.
import type { RewindMode } from '../../shared/messages'
import type { FileDiff, PreviewFile, RewindPreview } from '../../shared/views'
import { BlobMissingError, sha256 } from '../files/blob-store'
import { PathOutsideWorkspaceError } from '../files/workspace-paths'
import type { MergeIntent } from '../session/records'
import { isPrompt, promptText } from '../session/tree'
import { Sources } from '../sources/discovery'
import {
  type ContentSource,
  ContentMissingError,
  type ExternalTarget,
  blobContent
} from './content-source'
import { unifiedDiff } from './file-diff'
import { filesWhenSent } from './file-lineage'
import { fileTargets, foldersMadeBetween, untrackedBetween } from './file-targets'
import { fileChangeRecords, otherSessionsChanges } from './other-sessions'
import type { RewindLog } from './restore-apply'
import { RewindError } from './rewind-error'
import { replayTimeline } from './timeline'
import {
  type FileStamp,
  type RestoreSpace,
  checkedPath,
  folderBlocked,
  readFileAt
} from './workspace-files'

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
  /**
   * Folders the changes taken back made (file-targets.ts foldersMadeBetween): removed once the
   * files are done, those left empty. Not in the preview, which lists files.
   */
  removeFolders: string[]
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
 * Diffs a plan computes for its first files: a small rewind's preview shows every diff at once,
 * a big one lists its files without making a thousand diffs nobody opens (they cost more than
 * the restore itself). The rest are made one by one on request (fileDiff).
 */
const EAGER_DIFFS = { files: 20, contentBytes: 512_000 }

/** What planning reads of the session's log. */
type PlanLog = Pick<RewindLog, 'sessionId' | 'cwd' | 'leafUuid' | 'tree'>

export class RewindPlanner {
  /**
   * The workspace's other sessions, summarized in the session index (their changed paths): read
   * from the data home and kept up to date here, never written (a --dry-run changes nothing).
   */
  private readonly sources: Sources

  /** `settleMs`: how long ago a file must have changed for its stamp to be trusted. */
  constructor(
    home: string,
    private readonly store: PlanLog,
    private readonly space: RestoreSpace,
    private readonly settleMs: number
  ) {
    // Read-only caches: a preview writes nothing; the app's session list keeps the index warm.
    this.sources = new Sources({ home, persist: false })
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
      removeFolders: [],
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
      removeFolders: [],
      messagesKept: null,
      prefill: null,
      source,
      merge
    })
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
  ): Promise<Pick<RewindPlan, 'files' | 'conflicts' | 'unrestorable' | 'removeFolders'>> {
    const tree = this.store.tree()
    const targets = from === to ? [] : fileTargets(tree, from, to)
    const planned = await this.planTargets(targets, blobContent(this.space.blobs), options, true)
    // What commands changed without a backup is named too, never passed over in silence.
    planned.unrestorable.push(...(from === to ? [] : untrackedBetween(tree, from, to)))
    return { ...planned, removeFolders: from === to ? [] : foldersMadeBetween(tree, from, to) }
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
    this.refuseBlockedFolders(files)
    return { files, conflicts, unrestorable }
  }

  /** Refuses the plan when a file it recreates has a file where its folder must go. */
  private refuseBlockedFolders(files: readonly PlannedFile[]): void {
    const recreated = files.filter((f) => f.action === 'recreate').map((f) => f.path)
    if (recreated.length === 0) return
    const deleted = new Set(files.filter((f) => f.action === 'delete').map((f) => f.path))
    const blocked = folderBlocked(this.space.root, recreated, deleted)
    if (blocked === null) return
    throw new RewindError(
      `Cannot put ${blocked.path} back: ${blocked.blocker} is not a folder now (a file is in the way, made since). Move it and try again. Nothing was changed.`
    )
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

function countMessages(path: readonly { type: string }[]): number {
  return path.filter((r) => r.type === 'user' || r.type === 'assistant').length
}
