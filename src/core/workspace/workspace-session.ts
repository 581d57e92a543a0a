// One session at work in one workspace: the session log, the file history that backs up what the
// agent changes, the rewind engine over both, and the agent. The desktop studio and the terminal
// chat are both built on this, so a rewind means the same thing everywhere.
import { join } from 'node:path'
import type { PermissionMode, RewindMode } from '../../shared/messages'
import type { AgentEvent, LeaveChoice, PermissionRequest, RewindResult } from '../../shared/views'
import { Agent } from '../agent/agent'
import type { ModelClient } from '../agent/model/model-client'
import {
  appendLeaveSummary,
  summarizeFromHere,
  summarizeLeftBranch
} from '../agent/summary/branch-summary'
import { type CompactionSettings, compactBranch, compactUpTo } from '../agent/summary/compaction'
import { type SummaryContext, SummaryError, summaryFailure } from '../agent/summary/summarize'
import { builtinTools } from '../agent/tools'
import { FileHistory } from '../files/file-history'
import type { IgnoredFilesPolicy } from '../files/ignored-files'
import { latestEvery } from '../os/latest-every'
import {
  type PlanOptions,
  type RewindPlan,
  RewindEngine,
  RewindError
} from '../rewind/rewind-engine'
import { stepToward } from '../rewind/timeline'
import { pruneWhenDue } from '../rewind/background-retention'
import { problemsNotice } from '../session/problems'
import { summarizedLeafOf } from '../session/record-text'
import type { SessionStore } from '../session/store'
import { TurnCommits } from '../share/commit-links'
import type { SessionTree } from '../session/tree'
import type { MergeAsk, MergeWorkspace, PreparedMerge } from '../merge/merge'
import type { MergeChoice } from '../merge/merge-apply'

/** How often, at most, a restore's progress is sent again. */
const PROGRESS_EVERY_MS = 100

export interface WorkspaceSessionOptions {
  home: string
  store: SessionStore
  model: ModelClient
  permissionMode: PermissionMode
  checkpointTools: boolean
  /** The setting bash.sandbox. */
  bashSandbox: boolean
  askPermission(request: PermissionRequest): Promise<boolean>
  onEvent(event: AgentEvent): void
  /** Settings compaction.threshold and compaction.contextWindow. */
  compaction?: CompactionSettings
  /** The setting ignoredFiles. */
  ignoredFiles?: IgnoredFilesPolicy
  /** A parallel run's: the file-history folder of its session, which keeps its backups. */
  historyRoot?: string
}

export class WorkspaceSession {
  /** Lines for the user: an interrupted restore finished, another session in the workspace... */
  readonly notices: string[]

  private constructor(
    readonly store: SessionStore,
    readonly history: FileHistory,
    readonly engine: RewindEngine,
    readonly agent: Agent,
    notices: string[],
    /** Records the git commits each turn made; null for a read-only session. */
    readonly commits: TurnCommits | null,
    /** The day's retention going on beside the session (over many logs): its lines once done. */
    readonly retention: Promise<string[]>
  ) {
    this.notices = notices
  }

  private pruningBeside = false

  /**
   * Whether the day's retention is still running beside the session: its worker keeps the
   * process alive until it ends (a command leaving meanwhile says so).
   */
  get retentionGoing(): boolean {
    return this.pruningBeside
  }

  static async open(options: WorkspaceSessionOptions): Promise<WorkspaceSession> {
    const { store } = options
    const history = await FileHistory.open({
      home: options.home,
      cwd: store.cwd,
      sessionId: store.sessionId,
      sessionFile: store.file,
      log: store,
      recordedPaths: recordedPaths(store.tree()),
      ...(options.historyRoot !== undefined ? { historyRoot: options.historyRoot } : {}),
      ...(options.ignoredFiles !== undefined ? { ignoredFiles: options.ignoredFiles } : {})
    })
    // Retention applies without anyone running `gc`: at most once a day per workspace; over many
    // logs, beside the session (background-retention.ts), telling what it pruned when done.
    const pruning = await pruneWhenDue(options.home, history.paths.root)
    // A restore of many files shows how far it got (restore_progress), its last file at once.
    const progress = latestEvery<{ done: number; total: number }>(
      (files) => options.onEvent({ type: 'restore_progress', ...files }),
      PROGRESS_EVERY_MS
    )
    const engine = new RewindEngine({
      home: options.home,
      store,
      space: { root: history.root, paths: history.paths, blobs: history.blobs },
      onProgress: (done, total) => {
        progress.push({ done, total })
        if (done === total) progress.flush()
      }
    })
    // A restore a crash interrupted is finished or rolled back before anything else runs.
    const recovered = await engine.recover()
    if (store.readOnlyReason === null) {
      // Changes a resumed session makes before its next prompt still belong to its last one.
      const last = store.tree().lastCheckpointUuid()
      if (last !== null) history.beginCheckpoint(last)
      // The one-time scan Bash change tracking needs runs now, while the user types; a failure
      // (a full disk) is retried by the first command, which then refuses to run if it fails.
      history.prepareForCommands().catch(() => undefined)
    }
    // The commits each turn makes (share/commit-links.ts); a read-only session runs no turn.
    const commits = store.readOnlyReason === null ? new TurnCommits(store.cwd, store) : null
    const agent = new Agent({
      session: store,
      cwd: store.cwd,
      model: options.model,
      tools: builtinTools({ bashSandbox: options.bashSandbox }),
      permissionMode: options.permissionMode,
      askPermission: options.askPermission,
      guard: history,
      onCheckpoint: async (promptUuid) => {
        history.beginCheckpoint(promptUuid)
        await commits?.turnStarted(promptUuid)
      },
      onEvent: (event) => {
        if (event.type === 'status' && !event.running) commits?.turnEnded()
        options.onEvent(event)
      },
      checkpointTools: options.checkpointTools,
      ...(options.compaction !== undefined ? { compaction: options.compaction } : {})
    })
    const notices = [
      ...store.openingNotices,
      ...(store.readOnlyReason !== null ? [store.readOnlyReason] : []),
      ...(store.tornTail
        ? [
            'The session file ended in a torn line (a crash mid-write); every complete record was kept.'
          ]
        : []),
      ...problemsNotice(store.file, store.problems, store.unlistedProblems),
      ...history.notices,
      ...pruning.done,
      ...recovered
    ]
    const retention = pruning.going ?? Promise.resolve([])
    const session = new WorkspaceSession(store, history, engine, agent, notices, commits, retention)
    session.pruningBeside = pruning.going !== null
    void retention.then((lines) => {
      session.pruningBeside = false
      for (const message of lines) {
        session.notices.push(message)
        options.onEvent({ type: 'notice', level: 'warning', message })
      }
    })
    return session
  }

  planRewind(checkpointUuid: string, mode: RewindMode, options?: PlanOptions): Promise<RewindPlan> {
    return this.engine.planRewind(checkpointUuid, mode, options)
  }

  planSwitch(leafUuid: string, options?: PlanOptions): Promise<RewindPlan> {
    return this.engine.planSwitch(leafUuid, options)
  }

  planContinue(targetUuid: string, options?: PlanOptions): Promise<RewindPlan> {
    return this.engine.planContinue(targetUuid, options)
  }

  /**
   * Applies a previewed plan, then brings the agent to the new branch. With a summary asked for,
   * the branch the move leaves is summarized first (a stop or a failure there changes nothing),
   * and the summary is appended on the new position once the move is made. `alsoLeft`: the ends
   * of other branches the move leaves behind (an adopt's other runs), each summarized the same way.
   */
  async apply(
    plan: RewindPlan,
    leave: LeaveChoice = { mode: 'none' },
    alsoLeft: readonly string[] = []
  ): Promise<RewindResult> {
    const movesLeaf = plan.mode !== 'code' && plan.leafAfter !== plan.leafBefore
    const ends = [...(movesLeaf ? [plan.leafBefore] : []), ...(movesLeaf ? alsoLeft : [])]
    // A branch already summarized on the way to the new position (a switch back to where an
    // undone switch left its summary) is not summarized again: the model would read it twice.
    // Looked for only when a summary is asked: the path may be long.
    const onTheWay =
      leave.mode === 'summarize' && ends.length > 0
        ? leftSummariesOnPath(this.store.tree(), plan.leafAfter)
        : new Map<string, string>()
    const left = ends.filter((end) => !onTheWay.has(end ?? ''))
    const prepared =
      leave.mode === 'summarize' && left.length > 0
        ? await this.summaryJob(async (ctx) => {
            const summaries = []
            for (const oldLeaf of left) {
              const summary = await summarizeLeftBranch(ctx, {
                oldLeaf,
                newLeaf: plan.leafAfter,
                instructions: leave.instructions
              })
              if (summary !== null) summaries.push(summary)
            }
            return summaries
          })
        : []
    const result = await this.engine.apply(plan)
    const summaries = prepared.map((summary) => appendLeaveSummary(this.store, summary))
    this.afterLeafOrFilesMoved(plan.mode === 'code' ? 'code' : 'conversation', result)
    const kept = ends.map((end) => onTheWay.get(end ?? ''))
    const summaryUuid = summaries.at(-1)?.uuid ?? kept.findLast((uuid) => uuid !== undefined)
    return { ...result, summaryUuid: summaryUuid ?? null }
  }

  async rewind(
    checkpointUuid: string,
    mode: RewindMode,
    leave?: LeaveChoice
  ): Promise<RewindResult> {
    return this.apply(await this.planRewind(checkpointUuid, mode), leave)
  }

  /**
   * "Summarize from here": the prompt and what follows it become one summary on the prompt's
   * parent, the new leaf; the prompt's text comes back to be sent again. No file changes.
   */
  async summarizeFromHere(
    promptUuid: string,
    instructions?: string
  ): Promise<{ summaryUuid: string; prefill: string }> {
    const leafBefore = this.store.leafUuid
    const { record, prefill } = await this.summaryJob((ctx) =>
      summarizeFromHere(ctx, promptUuid, instructions)
    )
    await this.engine.recordSummary(leafBefore, record.uuid)
    this.agent.reloadFromSession()
    this.agent.rehydrateFileState()
    return { summaryUuid: record.uuid, prefill }
  }

  /** "Summarize up to here": what comes before the prompt becomes one summary (a compaction). */
  async summarizeUpToHere(
    promptUuid: string,
    instructions?: string
  ): Promise<{ summaryUuid: string }> {
    const leafBefore = this.store.leafUuid
    const record = await this.summaryJob((ctx) => compactUpTo(ctx, promptUuid, instructions))
    if (record === null) {
      throw new SummaryError(
        'conflict',
        'What comes before that prompt is already a single summary. Nothing was changed.'
      )
    }
    await this.engine.recordSummary(leafBefore, record.uuid)
    return { summaryUuid: record.uuid }
  }

  /** /compact: the older part of the branch becomes one summary now, the recent turns stay. */
  async compact(instructions?: string): Promise<{ summaryUuid: string }> {
    const record = await this.summaryJob((ctx) => compactBranch(ctx, 'manual', instructions))
    if (record === null) {
      throw new SummaryError(
        'conflict',
        'There is nothing older to compact: the branch is only its latest turn. Nothing was changed.'
      )
    }
    return { summaryUuid: record.uuid }
  }

  /** A summary as the agent's one job (stop() cancels it), its failure said in words. */
  private async summaryJob<T>(job: (ctx: SummaryContext) => Promise<T>): Promise<T> {
    try {
      return await this.agent.runSummaryJob(job)
    } catch (error) {
      throw summaryFailure(error)
    }
  }

  /** What core/merge works on: this session's tree, leaf, engine and backups. */
  mergeWorkspace(): MergeWorkspace {
    return {
      tree: () => this.store.tree(),
      leafUuid: () => this.store.leafUuid,
      engine: this.engine,
      space: this.history
    }
  }

  /**
   * The preview of a merge (core/merge): nothing is written. Core/merge is loaded here, when a
   * merge is asked for: a session opened to chat or compact never loads it (bench/summarize-process.ts).
   */
  async prepareMerge(ask: MergeAsk): Promise<PreparedMerge> {
    const { prepareMerge } = await import('../merge/merge')
    return prepareMerge(this.mergeWorkspace(), ask)
  }

  /**
   * Brings another branch in (core/merge): its conversation first, when asked (the agent's one
   * job: a stop or a failure changes nothing), then its files and the merge record as one action.
   */
  async merge(
    prepared: PreparedMerge,
    choice: MergeChoice,
    conversation: { instructions?: string | undefined } | null
  ): Promise<{ uuid: string; paths: string[] }> {
    const [{ conversationToBring }, { runMerge }] = await Promise.all([
      import('../merge/conversation'),
      import('../merge/merge')
    ])
    const brought =
      conversation === null
        ? undefined
        : await this.summaryJob((ctx) =>
            conversationToBring(
              { ...ctx, tree: ctx.store.tree() },
              prepared.ask.fromUuid,
              ctx.store.leafUuid,
              conversation.instructions
            )
          )
    const done = await runMerge(this.mergeWorkspace(), prepared, {
      ...choice,
      ...(brought === undefined ? {} : { conversation: brought })
    })
    this.afterLeafOrFilesMoved('conversation', {
      restored: done.paths,
      deleted: [],
      recreated: [],
      prefill: null
    })
    return done
  }

  /** Undoes the timeline's last action; repeated, it walks the timeline back. */
  async undo(): Promise<RewindResult> {
    const result = await this.engine.undo()
    this.afterLeafOrFilesMoved('conversation', result)
    return result
  }

  /** Does again the first action undone, while nothing was done since. */
  async redo(): Promise<RewindResult> {
    const result = await this.engine.redo()
    this.afterLeafOrFilesMoved('conversation', result)
    return result
  }

  /**
   * Undoes or redoes, one step after another, until the timeline stands right after the action
   * `id` (it done, those after it undone): what clicking an entry of the timeline does. Each
   * step is an undo or redo of its own (journaled, in the timeline); one that cannot be taken
   * stops the walk where it got, saying why.
   */
  async walkTo(id: string): Promise<RewindResult> {
    const walked: RewindResult = { restored: [], deleted: [], recreated: [], prefill: null }
    // Each step moves one action from done to undone or back: never more steps than actions.
    for (let steps = 0; ; steps++) {
      const timeline = await this.engine.timeline()
      const step = stepToward(timeline, id)
      if (step === null) {
        throw new RewindError(
          'That action is not in the timeline. Nothing was changed.',
          'not_found'
        )
      }
      if (step === 'there' || steps > timeline.actions.length) return walked
      if ((step === 'undo' ? timeline.undoable : timeline.redoable) === null) {
        throw new RewindError(
          `${steps === 0 ? 'Nothing was changed' : `After ${steps} step(s)`}: the next ${step} cannot be taken (a prompt was sent since, or its restore is gone).`,
          'conflict'
        )
      }
      const result = await (step === 'undo' ? this.undo() : this.redo())
      walked.restored.push(...result.restored)
      walked.deleted.push(...result.deleted)
      walked.recreated.push(...result.recreated)
    }
  }

  /**
   * Read-before-edit is trusted only for what the model saw on the branch it is on now: a move
   * of the leaf keeps what the model wrote on the new branch (file-state.ts), a code-only restore
   * forgets the files it rewrote.
   */
  private afterLeafOrFilesMoved(scope: 'code' | 'conversation', result: RewindResult): void {
    // The files it wrote are not a change of unknown origin to the next command.
    this.history.expectChanges([...result.restored, ...result.deleted, ...result.recreated])
    if (scope === 'conversation') {
      this.agent.rehydrateFileState()
    } else {
      for (const rel of [...result.restored, ...result.deleted, ...result.recreated]) {
        this.agent.fileState.forget(join(this.store.cwd, rel))
      }
    }
    this.agent.reloadFromSession()
  }

  /** Stops a running turn and waits for it, so its last records reach the log before it closes. */
  async close(): Promise<void> {
    await this.agent.stop()
    await this.commits?.settled()
    await this.history.close()
    this.store.close()
  }
}

/** Every path the session's file_change records name, on any branch. */
function recordedPaths(tree: SessionTree): Set<string> {
  const paths = new Set<string>()
  for (const record of tree.records) {
    const r = record as { type?: unknown; path?: unknown }
    if (r.type === 'file_change' && typeof r.path === 'string') paths.add(r.path)
  }
  return paths
}

/** The branches summarized on the path to `leaf` (their ends), each with its summary's uuid. */
function leftSummariesOnPath(tree: SessionTree, leaf: string | null): Map<string, string> {
  const found = new Map<string, string>()
  for (const record of tree.pathTo(leaf)) {
    if (record.type !== 'branch_summary') continue
    const end = summarizedLeafOf(record)
    if (end !== null) found.set(end, record.uuid)
  }
  return found
}
