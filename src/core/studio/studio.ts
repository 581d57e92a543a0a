// The studio: what the desktop window and the browser page drive. It keeps one workspace session
// open, answers the contract's requests through handlers.ts, and pushes events: the graph when the
// tree's shape changes, the agent's stream as it comes, permission requests.
//
// What it shows of the session (titles, transcripts, diffs, the agent's stream) has strings that
// look like API keys masked (shared/mask-secrets.ts); the log keeps what was said. Permission
// requests are the exception: the user approves exactly what would run.
//
// It can also show another tool's session (viewed-session.ts) read-only in place of ours: the
// views read the viewed tree (viewTree()), everything that would write refuses, and what is
// left is "Restore files here" (a rescue restore from that tool's backups) and "Continue in
// Rewind Studio" (a new session of ours holding the path to a node). A session pulled from a git
// remote (core/share) is one of ours opened read-only: its Fork makes a session of one's own here,
// the node's files from the shared backups (fork.ts forkRoute).
import type { EventSink } from '../../shared/contract'
import type { GraphUpdate } from '../../shared/graph-encoding'
import { maskSecretsIn } from '../../shared/mask-secrets'
import { shownText } from '../../shared/shown-text'
import type { RewindMode } from '../../shared/messages'
import { formatBytes, utf8Length } from '../../shared/prompt-limit'
import {
  type AgentEvent,
  type AppInfo,
  type LeaveChoice,
  type CheckpointView,
  type CompareView,
  type ExportFormat,
  type ExportedFile,
  type FileDiff,
  MAX_EXPORT_BYTES,
  type NodeDetail,
  type PermissionRequest,
  type ProjectSummary,
  type RescuePreview,
  type RescueResult,
  type RewindPreview,
  type RewindResult,
  type SearchEntry,
  type SessionGraph,
  type SessionSummary,
  type Settings,
  type SettingsUpdate,
  type TimelineEntry,
  type TranscriptEntry,
  type TranscriptWindow,
  TOOL_NAMES
} from '../../shared/views'
import type { RewindPlan } from '../rewind/rewind-engine'
import { planRescue } from '../rewind/rescue'
import { continueForeign } from '../session/continue-foreign'
import { readerOf } from '../session/load'
import { realPathOf } from '../session/paths'
import type { SessionTree } from '../session/tree'
import { unifiedDiff } from '../rewind/file-diff'
import { allFileChanges } from '../rewind/node-files'
import { renderExport } from '../export/render'
import { SessionStore } from '../session/store'
import { type Sources, sharedSources } from '../sources/discovery'
import { type CompareSources, buildCompareView, compareFileDiff } from '../views/compare-view'
import { FileTail, stoppedFollowingNotice } from '../sources/live-tail'
import { StudioError } from './studio-error'
import {
  buildSessionGraph,
  buildTranscript,
  indexTurns,
  nodeSummary,
  ownerNode,
  ownerTitle,
  rawRecordsOf,
  cutRecordForViews,
  subagentNodeId,
  subagentNodes,
  type TurnIndex
} from '../views/session-graph'
import { forkRoute, restoreInFork } from './fork-at-node'
import { openPulledStore, pulledFrom } from '../share/pulled'
import { turnCommits } from '../share/commit-links'
import { GraphVersions } from '../views/graph-versions'
import { type TranscriptAnchor, transcriptWindow } from '../views/transcript-window'
import { timelineEntries, timelineStep } from '../views/timeline-view'
import type { ModelSetup } from './model-setup'
import { branchLeafOf, nodeEnd } from '../views/node-refs'
import { buildSearchIndex } from '../views/search-view'
import { TouchedFilesWatch } from './touched-files-watch'
import { ViewedSession } from './viewed-session'
import { WorkspaceSession } from '../workspace/workspace-session'
import type { MergeAccess } from './merge-handlers'
import { type ParallelAccess, RunBoard, runsView } from './parallel-handlers'
import { turnUsage } from '../views/turn-usage'

export interface StudioOptions {
  home: string
  cwd: string
  version: string
  models: ModelSetup
  emit: EventSink
  /** Opens (or creates) the session the studio starts on. */
  openStore(): SessionStore
}

export class Studio {
  private work!: WorkspaceSession
  private turnIndex: TurnIndex | null = null
  /** The graph of the tree's current shape, and the record its files are at. */
  private graphCache: { graph: SessionGraph; filesAt: string | null; version: number } | null = null
  /** The graphs built lately, by version: the page gets deltas against them. */
  private readonly graphVersions = new GraphVersions()
  private pushedVersion: number | undefined
  /** What the last graph pushed said of the files (the marker's "changed since"). */
  private pushedChangedSince: boolean | undefined
  /** The folders of the files the session touched, watched for the marker (see recheckFiles). */
  private readonly touchedWatch: TouchedFilesWatch
  /** How many records the tree had when touchedWatch was last given its paths. */
  private watchedRecords = -1
  /** The last branch transcript built (unmasked), for the windows the page asks for. */
  private transcriptCache: { leafUuid: string | null; entries: TranscriptEntry[] } | null = null
  private searchCache: SearchEntry[] | null = null
  private readonly pendingPermissions = new Map<
    string,
    { request: PermissionRequest; resolve: (allow: boolean) => void }
  >()
  private lastPlan: RewindPlan | null = null
  /** The exclusive operation under way (see exclusive()), for the busy message. */
  private operation: string | null = null
  /** Every session on disk, summarized once and kept in the session index (core/sources). */
  private readonly sources: Sources
  /** Another tool's session shown instead of ours, read-only; null: ours is shown. */
  private viewed: ViewedSession | null = null
  /** The rescue restore last previewed, applied as shown when it still fits. */
  private lastRescue: { nodeId: string; plan: RewindPlan } | null = null
  /** Following the session's file while another program writes it (read-only views). */
  private tail: FileTail | null = null
  /** The session shown was pulled from a git remote (core/share): someone else's, read-only. */
  private pulled = false
  /** Why following our read-only session's file stopped for good (it grew past what is read). */
  private stoppedFollowing: string | null = null
  /** The parallel runs under way from this session (parallel-handlers.ts). */
  private readonly runBoard: RunBoard

  private constructor(private readonly options: StudioOptions) {
    this.sources = sharedSources(options.home)
    this.runBoard = new RunBoard(options.emit, () => runsView(this.parallel()))
    this.touchedWatch = new TouchedFilesWatch(realPathOf(options.cwd), () => this.recheckFiles())
  }

  static async open(options: StudioOptions): Promise<Studio> {
    const studio = new Studio(options)
    await studio.attach(options.openStore())
    return studio
  }

  private async attach(store: SessionStore): Promise<void> {
    this.pulled = pulledFrom(this.options.home, store) !== null
    const settings = this.options.models.runSettings()
    this.work = await WorkspaceSession.open({
      home: this.options.home,
      store,
      model: await this.options.models.client(),
      permissionMode: settings.permissionMode,
      checkpointTools: settings.checkpointEnabled,
      compaction: this.options.models.compaction(),
      ignoredFiles: this.options.models.ignoredFiles(),
      bashSandbox: settings.bashSandbox,
      askPermission: (request) => this.askPermission(request),
      onEvent: (event) => this.onAgentEvent(event)
    })
    this.followAppends(store)
    this.watchedRecords = -1
    this.shapeChanged()
  }

  /**
   * A session open read-only because another program writes it (our CLI chat holding its lock)
   * is followed: what that program appends is read as it lands (sources/live-tail.ts) and the
   * graph pushed again, within a second of each line. A file replaced or truncated is opened
   * again from the start. Never written: a read-only view has no writer.
   */
  private followAppends(store: SessionStore): void {
    this.tail?.close()
    this.tail = null
    this.stoppedFollowing = null
    const from = store.followFrom
    if (from === null) return
    const tail: FileTail = new FileTail(
      store.file,
      from,
      {
        appended: (records) => {
          store.follow(records, tail.at)
          this.shapeChanged()
        },
        reset: () => {
          tail.close()
          void this.replaceSession(() => SessionStore.open(store.file, { readOnly: true })).catch(
            (error: unknown) => this.notice('error', (error as Error).message)
          )
        },
        stopped: (error) => {
          // Kept for the next app:info too (a page opened later learns it there).
          this.stoppedFollowing = stoppedFollowingNotice(store.file, error)
          this.notice('error', this.stoppedFollowing)
        }
      },
      { held: store.tree().records.length }
    )
    this.tail = tail
  }

  private get store(): SessionStore {
    return this.work.store
  }

  /** The tree the views show: the viewed foreign session's, else ours. */
  private viewTree(): SessionTree {
    return this.viewed?.tree ?? this.store.tree()
  }

  info(): AppInfo {
    const viewed = this.viewed
    return {
      version: this.options.version,
      workspace: this.options.cwd,
      sessionId: viewed?.sessionId ?? this.store.sessionId,
      sessionFile: viewed?.file ?? this.store.file,
      readOnlyReason: viewed !== null ? foreignReadOnly(viewed) : this.store.readOnlyReason,
      demo: this.options.models.isScripted(),
      model: this.options.models.effectiveModel(),
      notices: [
        ...this.options.models.notices(),
        ...this.work.notices,
        ...(viewed?.problemsNotice() ?? []),
        ...(viewed === null && this.stoppedFollowing !== null ? [this.stoppedFollowing] : [])
      ],
      running: this.work.agent.running,
      pendingPermissions: [...this.pendingPermissions.values()].map((p) => p.request),
      contextUsage: this.work.agent.contextUsage(),
      foreign: viewed?.info() ?? null,
      shared: viewed === null ? pulledFrom(this.options.home, this.store) : null
    }
  }

  // ---- the tree -------------------------------------------------------------------------------

  private index(): TurnIndex {
    this.turnIndex ??= indexTurns(this.viewTree())
    return this.turnIndex
  }

  /**
   * The graph, built once per shape of the tree (never per streamed token). Whether the files
   * changed since is looked at on every call: a stat per file the session touched, so a hand
   * edit shows the next time the renderer asks.
   */
  async graph(): Promise<SessionGraph> {
    const { graph, version } = await this.versionedGraph()
    this.tellFilesMarker(graph, version)
    return graph
  }

  /** The graph in the page's compact form: a delta from version `since` when it is still kept. */
  async graphUpdate(since: number | undefined): Promise<GraphUpdate> {
    const { graph, version } = await this.versionedGraph()
    this.tellFilesMarker(graph, version)
    return this.graphVersions.update(graph, version, since)
  }

  private async versionedGraph(): Promise<{ graph: SessionGraph; version: number }> {
    const { graph, filesAt, version } = this.graphCache ?? (await this.buildGraph())
    // Another tool's session records no after-state to compare the disk with.
    const changedSince =
      this.viewed === null && !this.pulled && this.work.engine.filesChangedSince(filesAt)
    return { graph: { ...graph, filesAt: { ...graph.filesAt, changedSince } }, version }
  }

  private async buildGraph(): Promise<NonNullable<Studio['graphCache']>> {
    const generation = this.generation
    const viewed = this.viewed
    const timeline = await this.engineTimeline()
    const tree = this.viewTree()
    const index = this.index()
    // A pulled session's files were never here: this machine's are at none of its nodes.
    const filesAt =
      viewed !== null ? rescuedTo(tree, timeline) : this.pulled ? null : timeline.filesAt
    const graph = buildSessionGraph(tree, viewed?.sessionId ?? this.store.sessionId, index, {
      filesAt: { nodeId: ownerNode(index, filesAt), changedSince: false },
      undo: timelineStep(tree, index, timeline.undoable),
      redo: timelineStep(tree, index, timeline.redoable),
      running: this.work.agent.running,
      answering: viewed?.writerAtWork() === true
    })
    if (viewed !== null) graph.nodes.push(...subagentNodes(viewed.subagents(), index, graph.nodes))
    const built = { graph, filesAt, version: this.graphVersions.record(graph) }
    // Another change may have landed while timeline() read its journals: keep only a fresh graph.
    if (generation === this.generation) this.graphCache = built
    return built
  }

  /** What "Search the session" looks through, per node: built once per shape, masked. */
  searchIndex(): SearchEntry[] {
    this.searchCache ??= maskSecretsIn(buildSearchIndex(this.viewTree(), this.index()))
    return this.searchCache
  }

  /** Every rewind, switch and continue, oldest first, named for people. */
  async timeline(): Promise<TimelineEntry[]> {
    return timelineEntries(this.viewTree(), this.index(), await this.engineTimeline())
  }

  /** Our session's timeline, or the viewed session's rescue restores (its companion log). */
  private engineTimeline() {
    return this.viewed === null
      ? this.work.engine.timeline()
      : this.viewed.timeline(realPathOf(this.options.cwd))
  }

  /** The prompts on the path to `leafUuid` (null: the active path), as the rewind picker lists them. */
  checkpoints(leafUuid: string | null): CheckpointView[] {
    const tree = this.viewTree()
    if (leafUuid !== null && tree.get(leafUuid) === undefined) {
      throw new StudioError('not_found', `No message ${leafUuid} in this session.`)
    }
    return tree.checkpoints(tree.pathTo(leafUuid ?? tree.leafUuid)).map((c) => ({
      index: c.index,
      uuid: c.uuid,
      prompt: shownText(c.prompt),
      filesChanged: c.filesChanged
    }))
  }

  async compare(a: string, b: string): Promise<CompareView> {
    return maskSecretsIn(buildCompareView(await this.compareSources(), a, b))
  }

  async compareFile(a: string, b: string, path: string): Promise<FileDiff> {
    return maskSecretsIn(compareFileDiff(await this.compareSources(), a, b, path))
  }

  private async compareSources(): Promise<CompareSources> {
    const viewed = this.viewed
    return {
      tree: this.viewTree(),
      index: this.index(),
      nodes: (await this.graph()).nodes,
      // A foreign session's file_change records name its tool's backups.
      blobs: viewed === null ? this.work.history.blobs : { read: (ref) => viewed.readBackup(ref) },
      disk: this.work.engine.disk,
      // The same caveat as its rescue restore: what the tool's backups hold, in its reader's words.
      caveat: viewed === null || viewed.rescued().backups === null ? null : viewed.reader.keeps
    }
  }

  private generation = 0

  /** The tree changed shape: drop the projections and push the new graph to the renderer. */
  private shapeChanged(): void {
    this.generation++
    this.turnIndex = null
    this.graphCache = null
    this.searchCache = null
    this.transcriptCache = null
    // No request awaits the push: a graph that cannot be built is said here (a notice, the stack
    // to the host's log), or its rejection would be unhandled and end the host (issue 26: opening
    // a pi session did).
    this.versionedGraph()
      .then(({ graph, version }) => this.pushGraph(graph, version))
      .catch((error: unknown) => {
        console.error(`The graph push failed: ${(error as Error)?.stack ?? String(error)}`)
        this.notice(
          'error',
          `The session's graph could not be drawn: ${(error as Error)?.message ?? String(error)}`
        )
      })
    this.watchTouchedFiles()
    // A move, a summary or a new message changes what the next request holds: the header's meter.
    this.options.emit('agent:event', {
      type: 'context_usage',
      usage: this.work.agent.contextUsage()
    })
  }

  /**
   * Pushes the graph to every page. Each push is a delta from the one before, so a page that got
   * them all follows along; one that missed some asks with the version it holds.
   */
  private pushGraph(graph: SessionGraph, version: number): void {
    const update = this.graphVersions.update(graph, version, this.pushedVersion)
    this.pushedVersion = version
    this.pushedChangedSince = graph.filesAt.changedSince
    this.options.emit('session:graphUpdate', update)
  }

  /**
   * Gives the watch the files our session touched: every path a file_change record names (the
   * marker's state holds each). Looked at again when the log grew, once a turn is over (the
   * checks wait for its end anyway); none while another tool's session is shown (no marker).
   */
  private watchTouchedFiles(): void {
    if (this.work.agent.running) return
    if (this.viewed !== null) {
      this.watchedRecords = -1
      this.touchedWatch.follow([])
      return
    }
    const tree = this.store.tree()
    if (tree.records.length === this.watchedRecords) return
    this.watchedRecords = tree.records.length
    this.touchedWatch.follow([...new Set(allFileChanges(tree).map((change) => change.path))])
  }

  /**
   * A touched file changed on disk (touched-files-watch.ts): the graph is pushed when the marker
   * says something else than the last push did. Not while the agent or a restore writes: they
   * push the graph when they are done.
   */
  private recheckFiles(): void {
    if (this.viewed !== null || this.work.agent.running || this.operation !== null) return
    void this.versionedGraph()
      .then(({ graph, version }) => this.tellFilesMarker(graph, version))
      // The next request reads the disk again and says what failed.
      .catch(() => undefined)
  }

  /**
   * Every page learns what the files marker says when it says something else than the last push:
   * found by the watch, or by a page asking (on focus, a change the watch could not see), so the
   * pages agree and the watch compares with what they hold.
   */
  private tellFilesMarker(graph: SessionGraph, version: number): void {
    if (this.work.agent.running || this.operation !== null) return
    if (graph.filesAt.changedSince !== this.pushedChangedSince) this.pushGraph(graph, version)
  }

  /** Bookmarks a node of the graph (null removes the bookmark); the graph shows it at once. */
  label(nodeId: string, label: string | null): void {
    this.requireWritable()
    if (this.store.tree().get(nodeId) === undefined) {
      throw new StudioError('not_found', `No node ${nodeId} in this session.`)
    }
    this.store.appendLabel({ targetUuid: nodeId, label })
    this.shapeChanged()
  }

  transcript(leafUuid: string | null): TranscriptEntry[] {
    return maskSecretsIn(this.branchTranscript(leafUuid))
  }

  /** A window of a branch's transcript; only the entries sent are masked. */
  transcriptRange(
    leafUuid: string | null,
    anchor: TranscriptAnchor,
    before: number,
    after: number
  ): TranscriptWindow {
    return maskSecretsIn(transcriptWindow(this.branchTranscript(leafUuid), anchor, before, after))
  }

  /** Built once per shape of the tree and branch: a page scrolling asks for many windows. */
  private branchTranscript(leafUuid: string | null): TranscriptEntry[] {
    if (this.transcriptCache?.leafUuid === leafUuid) return this.transcriptCache.entries
    const tree = this.viewTree()
    if (leafUuid !== null && tree.get(leafUuid) === undefined) {
      throw new StudioError('not_found', `No message ${leafUuid} in this session.`)
    }
    const entries = buildTranscript(tree, leafUuid ?? tree.leafUuid, this.index())
    this.transcriptCache = { leafUuid, entries }
    return entries
  }

  async node(nodeId: string): Promise<NodeDetail> {
    const graph = await this.graph()
    const node = graph.nodes.find((n) => n.id === nodeId)
    if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
    const run = this.viewed?.subagents().find((r) => subagentNodeId(r) === nodeId)
    if (run !== undefined) {
      // A sub-agent's node holds its whole transcript.
      const entries = buildTranscript(run.tree, run.tree.leafUuid).map((e) => ({ ...e, nodeId }))
      const raw = run.tree.records.map((record) => ({
        line: null,
        record: cutRecordForViews(record)
      }))
      return maskSecretsIn({ node, entries, files: [], summary: null, usage: null, raw })
    }
    const tree = this.viewTree()
    const entries = buildTranscript(tree, node.branchLeafUuid, this.index()).filter(
      (entry) => entry.nodeId === nodeId
    )
    const files = await this.turnDiffs(nodeId)
    const raw = rawRecordsOf(tree, this.index(), nodeId, this.viewed?.lines ?? null)
    return maskSecretsIn({
      node,
      entries,
      files,
      summary: this.summaryOf(nodeId),
      usage: turnUsage(entries.map((entry) => tree.get(entry.uuid))),
      raw,
      commits: await turnCommits(this.options.cwd, tree, nodeId)
    })
  }

  /** Each file a turn changed: its content before the turn → after it. */
  private async turnDiffs(nodeId: string): Promise<NodeDetail['files']> {
    const byPath = new Map<
      string,
      { before: string | null; after: string | null; afterUnknown: boolean }
    >()
    for (const change of this.viewTree().fileChanges(nodeId)) {
      const seen = byPath.get(change.path)
      byPath.set(change.path, {
        before: seen ? seen.before : change.before,
        after: change.after,
        afterUnknown: change.afterUnknown === true
      })
    }
    const viewed = this.viewed
    const blobs = this.work.history.blobs
    const content = async (ref: string | null) =>
      viewed !== null
        ? viewed.content(ref)
        : ref === null
          ? null
          : await blobs.get(ref).catch(() => null)
    return Promise.all(
      [...byPath].map(async ([path, { before, after, afterUnknown }]) =>
        afterUnknown
          ? {
              path,
              diff: '',
              outsideChange: false,
              note: `${viewed === null ? 'The tool' : TOOL_NAMES[viewed.format]} keeps only the content before each change: how this turn left the file was never saved (the next prompt's snapshot would have said).`
            }
          : {
              path,
              diff: unifiedDiff(path, await content(before), await content(after)),
              outsideChange: false
            }
      )
    )
  }

  private summaryOf(nodeId: string): NodeDetail['summary'] {
    const tree = this.viewTree()
    const record = tree.get(nodeId)
    if (record === undefined) return null
    const summary = nodeSummary(record)
    if (summary === null || record.type !== 'compaction') return summary
    // A compaction also says from which turn the model reads word for word again.
    const kept = ownerNode(this.index(), record.firstKeptUuid)
    return {
      ...summary,
      keptFrom: kept === null ? null : { nodeId: kept, title: ownerTitle(tree, this.index(), kept) }
    }
  }

  // ---- the agent ------------------------------------------------------------------------------

  private requireWritable(): void {
    this.requireOwnSession()
    if (this.store.readOnlyReason !== null) {
      throw new StudioError('read_only', this.store.readOnlyReason)
    }
  }

  /** What acts on our session's log or agent is refused while another tool's session is shown. */
  private requireOwnSession(): void {
    if (this.viewed !== null) throw new StudioError('read_only', foreignReadOnly(this.viewed))
  }

  private requireIdle(): void {
    if (this.work.agent.running) {
      throw new StudioError('busy', 'The agent is working: stop it first.')
    }
    if (this.operation !== null) {
      throw new StudioError('busy', `Still busy with ${this.operation}: try again in a moment.`)
    }
  }

  /**
   * What changes the workspace, the leaf or the session (a rewind, an undo, a branch switch, a
   * session or settings change) runs alone: a request arriving while one of them awaits its I/O
   * is refused as busy instead of interleaving with it.
   */
  private async exclusive<T>(operation: string, run: () => Promise<T>): Promise<T> {
    this.requireIdle()
    this.operation = operation
    try {
      return await run()
    } finally {
      this.operation = null
    }
  }

  send(prompt: string): void {
    this.requireWritable()
    this.requireIdle()
    if (prompt.trim() === '') throw new StudioError('invalid_payload', 'The prompt is empty.')
    // The agent reports its own failures (a notice per failure), so only the unexpected is added.
    void this.work.agent
      .send(prompt)
      .catch((error: unknown) => this.notice('error', (error as Error).message))
      .finally(() => this.shapeChanged())
  }

  /** Stops the running turn and resolves once it has wound down, so a new prompt is taken. */
  async stop(): Promise<void> {
    const stopped = this.work.agent.stop()
    for (const [id, pending] of this.pendingPermissions) {
      this.pendingPermissions.delete(id)
      pending.resolve(false)
      this.options.emit('agent:permissionResolved', { requestId: id })
    }
    await stopped
  }

  private askPermission(request: PermissionRequest): Promise<boolean> {
    return new Promise((resolve) => {
      this.pendingPermissions.set(request.requestId, { request, resolve })
      this.options.emit('agent:permission', request)
    })
  }

  answerPermission(requestId: string, allow: boolean): void {
    const pending = this.pendingPermissions.get(requestId)
    if (pending === undefined) {
      throw new StudioError('not_found', 'That permission request is no longer waiting.')
    }
    this.pendingPermissions.delete(requestId)
    pending.resolve(allow)
    // Every window showed the question: the others take it down now.
    this.options.emit('agent:permissionResolved', { requestId })
  }

  private onAgentEvent(event: AgentEvent): void {
    // A streamed piece is too short to hold a whole key: the renderer masks the text it builds.
    this.options.emit('agent:event', event.type === 'block_delta' ? event : maskSecretsIn(event))
    if (event.type === 'message_end') this.shapeChanged()
  }

  private notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.options.emit('agent:event', { type: 'notice', level, message })
  }

  // ---- rewinds --------------------------------------------------------------------------------

  private async remember(plan: Promise<RewindPlan>): Promise<RewindPreview> {
    this.lastPlan = await plan
    return maskSecretsIn(this.lastPlan.preview)
  }

  previewRewind(checkpointUuid: string, mode: RewindMode): Promise<RewindPreview> {
    this.requireOwnSession()
    return this.remember(this.work.planRewind(checkpointUuid, mode))
  }

  previewSwitch(leafUuid: string): Promise<RewindPreview> {
    this.requireOwnSession()
    return this.remember(this.work.planSwitch(leafUuid))
  }

  async previewContinue(nodeId: string): Promise<RewindPreview> {
    this.requireOwnSession()
    return this.remember(this.work.planContinue(await this.endOfNode(nodeId)))
  }

  /** One file's diff from the preview shown last (a big preview leaves most diffs out). */
  previewFileDiff(path: string): FileDiff {
    if (this.lastPlan === null) {
      throw new StudioError('not_found', 'No rewind preview is open: preview the rewind again.')
    }
    return maskSecretsIn(this.work.engine.fileDiff(this.lastPlan, path))
  }

  /**
   * Applies the plan the user previewed when it still fits (same target, leaf unchanged), so
   * "Restore" does exactly what the preview showed; plans afresh otherwise.
   */
  rewind(checkpointUuid: string, mode: RewindMode, summary?: LeaveChoice): Promise<RewindResult> {
    this.requireWritable()
    return this.applied('a rewind', async () => {
      const plan =
        this.lastPlan?.kind === 'rewind' &&
        this.lastPlan.checkpointUuid === checkpointUuid &&
        this.lastPlan.mode === mode &&
        this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await this.work.planRewind(checkpointUuid, mode)
      return this.work.apply(plan, this.leaveChoice(summary))
    })
  }

  switchBranch(leafUuid: string, summary?: LeaveChoice): Promise<RewindResult> {
    this.requireWritable()
    return this.applied('a branch switch', async () => {
      const plan =
        this.lastPlan?.kind === 'switch-branch' &&
        this.lastPlan.leafAfter === leafUuid &&
        this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await this.work.planSwitch(leafUuid)
      return this.work.apply(plan, this.leaveChoice(summary))
    })
  }

  /** The choice a move request made for the branch it leaves, else the remembered one. */
  private leaveChoice(asked: LeaveChoice | undefined): LeaveChoice {
    if (asked !== undefined) return asked
    return { mode: this.settings().summaryOnLeave === 'summarize' ? 'summarize' : 'none' }
  }

  // ---- summaries ------------------------------------------------------------------------------

  /** The prompt and what follows it become one summary; no file changes. */
  summarizeFromHere(
    nodeId: string,
    instructions?: string
  ): Promise<{ summaryUuid: string; prefill: string }> {
    this.requireWritable()
    return this.summarized(() => this.work.summarizeFromHere(nodeId, instructions))
  }

  /** What comes before the prompt becomes one summary; the later turns stay verbatim. */
  summarizeUpToHere(nodeId: string, instructions?: string): Promise<{ summaryUuid: string }> {
    this.requireWritable()
    return this.summarized(() => this.work.summarizeUpToHere(nodeId, instructions))
  }

  compact(instructions?: string): Promise<{ summaryUuid: string }> {
    this.requireWritable()
    return this.summarized(() => this.work.compact(instructions))
  }

  /**
   * A summary runs alone like a rewind (refused as busy while the agent works); the agent shows
   * it as running, so Stop (agent:stop) cancels it.
   */
  private summarized<T>(run: () => Promise<T>): Promise<T> {
    return this.exclusive('a summary', async () => {
      try {
        return await run()
      } finally {
        this.lastPlan = null
        this.shapeChanged()
      }
    })
  }

  /** Moves the conversation and the files to a node, as previewContinue showed. */
  continueFrom(nodeId: string, summary?: LeaveChoice): Promise<RewindResult> {
    this.requireWritable()
    return this.applied('a continue', async () => {
      const target = await this.endOfNode(nodeId)
      const plan =
        this.lastPlan?.kind === 'continue' &&
        this.lastPlan.leafAfter === target &&
        this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await this.work.planContinue(target)
      return this.work.apply(plan, this.leaveChoice(summary))
    })
  }

  /** What the merge channels work with (merge-handlers.ts): the session at work, one job at a time. */
  merging(): MergeAccess {
    this.requireOwnSession()
    return {
      work: this.work,
      leafUuid: this.store.leafUuid,
      endOfNode: (nodeId) => this.endOfNode(nodeId),
      apply: (run) => {
        this.requireWritable()
        return this.exclusive('a merge', () => run().finally(() => this.shapeChanged()))
      }
    }
  }

  /** What the parallel channels work with (parallel-handlers.ts). */
  parallel(): ParallelAccess {
    return {
      home: this.options.home,
      work: this.work,
      board: this.runBoard,
      models: this.options.models,
      viewingOther: this.viewed !== null,
      tree: () => this.store.tree(),
      nodeOf: (uuid) => ownerNode(this.index(), uuid),
      endOfNode: (nodeId) => this.endOfNode(nodeId),
      requireWritable: () => this.requireWritable(),
      changed: () => this.shapeChanged(),
      exclusive: (operation, run) =>
        this.exclusive(operation, () =>
          run().finally(() => {
            this.lastPlan = null
            this.shapeChanged()
          })
        ),
      leaveChoice: (asked) => this.leaveChoice(asked)
    }
  }

  /** Undoes the last action of the timeline: ours, or the viewed session's last rescue restore. */
  undo(): Promise<RewindResult> {
    if (this.viewed !== null) return this.rescueStep('an undo', (engine) => engine.undo())
    this.requireWritable()
    return this.applied('an undo', () => this.work.undo())
  }

  redo(): Promise<RewindResult> {
    if (this.viewed !== null) return this.rescueStep('a redo', (engine) => engine.redo())
    this.requireWritable()
    return this.applied('a redo', () => this.work.redo())
  }

  private applied(operation: string, run: () => Promise<RewindResult>): Promise<RewindResult> {
    return this.exclusive(operation, async () => {
      try {
        return await run()
      } finally {
        this.lastPlan = null
        this.shapeChanged()
      }
    })
  }

  // ---- sessions and settings ------------------------------------------------------------------

  /**
   * The workspace's sessions from every source, newest first, then the files that are none. From
   * the session index: only a log whose size or mtime changed is read (ours after a turn: only its
   * new lines), so no turn waits on other sessions' logs.
   */
  listSessions(): SessionSummary[] {
    const listed = this.sources.workspaceSessions(this.options.cwd)
    const sessions = listed.filter((s) => s.problem === null)
    const broken = listed
      .filter((s) => s.problem !== null)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
    return [...sessions, ...broken].map((s) => ({
      sessionId: s.sessionId,
      file: s.file,
      source: s.source,
      createdAt: s.createdAt,
      lastActivity: s.lastActivity,
      title: s.title === null ? null : shownText(s.title),
      firstPrompt: s.summary.firstPrompt === null ? null : shownText(s.summary.firstPrompt),
      prompts: s.summary.prompts,
      current: s.file === (this.viewed?.file ?? this.store.file),
      problem: s.problem
    }))
  }

  /** Every project found in the homes of the tools, with its session counts (All projects). */
  listProjects(): ProjectSummary[] {
    return this.sources.projects()
  }

  openSession(sessionId: string): Promise<AppInfo> {
    this.requireIdle()
    const file = SessionStore.find(this.options.home, this.options.cwd, sessionId)
    if (file === null)
      throw new StudioError('not_found', `No session ${sessionId} in this workspace.`)
    // The one we are on: reopening it would find its lock held (by us) and open it read-only.
    if (file === this.store.file) {
      this.stopViewing()
      return Promise.resolve(this.info())
    }
    return this.replaceSession(() => SessionStore.open(file))
  }

  /**
   * A new session holding the path to `nodeId` (session/fork.ts), opened at once. With
   * `restoreFiles`, the files are brought to that node's state in the fork (studio/fork-at-node.ts),
   * applying what previewFork showed when it still fits. The fork stands whatever the restore
   * does: a refused restore is a notice, with the files as they were.
   */
  fork(nodeId: string, restoreFiles: boolean): Promise<AppInfo> {
    this.requireOwnSession()
    return this.exclusive('a fork', async () => {
      const end = await this.endOfNode(nodeId)
      this.runBoard.refuseLeaving()
      const route = forkRoute(this.options.home, this.store)
      const plan = restoreFiles
        ? this.lastPlan?.kind === 'switch-branch' &&
          this.lastPlan.leafAfter === end &&
          this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await route.plan(this.work.engine, this.work.history.blobs, end)
        : null
      const fork = route.fork(end)
      await this.work.close()
      this.lastPlan = null
      await this.attach(fork)
      if (plan !== null) {
        try {
          await this.work.apply(restoreInFork(plan, fork))
        } catch (error) {
          this.notice(
            'error',
            `The fork was made; its files were not restored: ${(error as Error).message}`
          )
        } finally {
          this.shapeChanged()
        }
      }
      return this.info()
    })
  }

  /** What restoring the files to `nodeId`'s state would change, before a fork. */
  async previewFork(nodeId: string): Promise<RewindPreview> {
    this.requireOwnSession()
    const end = await this.endOfNode(nodeId)
    const route = forkRoute(this.options.home, this.store)
    return this.remember(route.plan(this.work.engine, this.work.history.blobs, end))
  }

  /** Where a node ends on its branch (node-refs.ts): a fork's end, where "Continue" goes. */
  private async endOfNode(nodeId: string): Promise<string> {
    const node = (await this.graph()).nodes.find((n) => n.id === nodeId)
    if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
    return nodeEnd(this.viewTree(), this.index(), node)
  }

  /**
   * The session rendered for the page's Export… (core/export): the whole tree, or the branch
   * through `nodeId` (the active one without it). Bounded: the page holds it whole.
   */
  async export(
    format: ExportFormat,
    scope: 'all' | 'branch',
    nodeId: string | undefined
  ): Promise<ExportedFile> {
    const tree = this.viewTree()
    const viewed = this.viewed
    // Another tool's session exports as ours does: read-only, from its own tree.
    const source =
      viewed === null
        ? { tree, header: this.store.header, file: this.store.file }
        : { tree, header: { sessionId: viewed.sessionId, cwd: viewed.cwd }, file: viewed.file }
    let leafUuid = tree.leafUuid
    if (scope === 'branch' && nodeId !== undefined) {
      const node = (await this.graph()).nodes.find((n) => n.id === nodeId)
      if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
      leafUuid = branchLeafOf(tree, node)
    }
    const rendered = renderExport(
      source,
      format,
      scope === 'all' ? { kind: 'all' } : { kind: 'branch', leafUuid }
    )
    const bytes = utf8Length(rendered.content)
    if (bytes > MAX_EXPORT_BYTES) {
      throw new StudioError(
        'unavailable',
        `The export is ${formatBytes(bytes)}, more than the app hands over (${formatBytes(MAX_EXPORT_BYTES)}): write it with \`rewind-studio export ${source.file} --format ${format}${scope === 'all' ? ' --all' : ''} -o FILE\`.`
      )
    }
    return rendered
  }

  /** Shows a session pulled from a remote (share/pull.ts), read-only, saying where it came from. */
  openPulled(file: string, notices: readonly string[]): Promise<AppInfo> {
    return this.replaceSession(() => openPulledStore(this.options.home, file, notices))
  }

  /** The data home ($REWIND_STUDIO_HOME) this studio keeps its sessions and backups in. */
  get home(): string {
    return this.options.home
  }

  newSession(): Promise<AppInfo> {
    return this.replaceSession(() =>
      SessionStore.create({ home: this.options.home, cwd: this.options.cwd })
    )
  }

  private replaceSession(open: () => SessionStore): Promise<AppInfo> {
    return this.exclusive('a session change', async () => {
      this.runBoard.refuseLeaving()
      // Opened before the current one closes: a session that cannot open leaves us where we were.
      const store = open()
      this.stopViewing()
      this.tail?.close()
      await this.work.close()
      this.lastPlan = null
      await this.attach(store)
      return this.info()
    })
  }

  // ---- another tool's sessions ----------------------------------------------------------------

  /**
   * Shows another tool's session file read-only, followed while that tool writes it. Only a file
   * the discovery lists (a session file in a project folder of a known home, sources/homes.ts)
   * is opened: never an arbitrary path from the page.
   */
  openFile(file: string): Promise<AppInfo> {
    return this.exclusive('opening a session', async () => {
      const source = this.sources.sourceOf(file)
      const reader = source === null || source === 'rewind-studio' ? null : readerOf(source)
      if (reader === null) {
        throw new StudioError(
          'not_found',
          source === 'rewind-studio'
            ? `${file} is a Rewind Studio session: open it by its id.`
            : `${file} is no session where Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI or OpenCode keep theirs: only those are opened. Nothing was opened.`
        )
      }
      let viewed: ViewedSession
      try {
        viewed = new ViewedSession(file, reader, {
          home: this.options.home,
          claudeHome: this.sources.homes['claude-code']
        })
      } catch (error) {
        throw new StudioError('not_found', `Cannot read ${file}: ${(error as Error).message}`)
      }
      this.stopViewing()
      this.viewed = viewed
      viewed.follow(
        () => this.shapeChanged(),
        (notice) => this.notice('error', notice)
      )
      this.shapeChanged()
      return this.info()
    })
  }

  private stopViewing(): void {
    if (this.viewed === null) return
    this.viewed.close()
    this.viewed = null
    this.lastRescue = null
    this.shapeChanged()
  }

  /**
   * "Restore files here" on a prompt of the viewed session: its files as the tool's backups say
   * they were before that prompt (rewind/rescue.ts), previewed.
   */
  async previewRescue(nodeId: string): Promise<RescuePreview> {
    const { viewed, root } = this.rescueTarget()
    // A preview writes nothing, not even the companion log's first line.
    const space = viewed.rescue(root, true)
    try {
      const plan = await planRescue(space, viewed.rescued(), this.promptOf(nodeId))
      this.lastRescue = { nodeId, plan }
      return maskSecretsIn({
        ...plan.preview,
        promptUuid: nodeId,
        promptIndex: viewed.tree.checkpoints(viewed.tree.pathTo(nodeId)).length,
        skipped: plan.unrestorable
      })
    } finally {
      space.close()
    }
  }

  /** Applies the rescue restore previewed for `nodeId` (planned afresh when it no longer fits). */
  applyRescue(nodeId: string): Promise<RescueResult> {
    const { viewed, root } = this.rescueTarget()
    return this.exclusive('a restore', async () => {
      const space = viewed.rescue(root)
      try {
        const previewed = this.lastRescue?.nodeId === nodeId ? this.lastRescue.plan : null
        const plan = previewed ?? (await planRescue(space, viewed.rescued(), this.promptOf(nodeId)))
        const result = await space.engine.apply(plan)
        return { ...result, skipped: plan.unrestorable }
      } finally {
        space.close()
        this.lastRescue = null
        this.shapeChanged()
      }
    })
  }

  private rescueStep(
    operation: string,
    run: (engine: ReturnType<ViewedSession['rescue']>['engine']) => Promise<RewindResult>
  ): Promise<RewindResult> {
    const { viewed, root } = this.rescueTarget()
    return this.exclusive(operation, async () => {
      const space = viewed.rescue(root)
      try {
        return await run(space.engine)
      } finally {
        space.close()
        this.shapeChanged()
      }
    })
  }

  /**
   * The viewed session and the folder its files are restored into: this workspace, which must be
   * the one the session recorded (its paths are relative to it).
   */
  private rescueTarget(): { viewed: ViewedSession; root: string } {
    const viewed = this.viewed
    if (viewed === null) {
      throw new StudioError(
        'not_found',
        "No other tool's session is shown: nothing to restore from."
      )
    }
    const root = realPathOf(this.options.cwd)
    if (realPathOf(viewed.cwd) !== root) {
      throw new StudioError(
        'conflict',
        `This session ran in ${viewed.cwd || '(no folder recorded)'}, not in ${this.options.cwd}: open that folder to restore its files. Nothing was changed.`
      )
    }
    return { viewed, root }
  }

  /** A prompt node of the viewed session, or not_found saying what a restore goes back to. */
  private promptOf(nodeId: string): string {
    const tree = this.viewTree()
    const record = tree.get(nodeId)
    if (record === undefined || tree.checkpoints(tree.pathTo(nodeId)).at(-1)?.uuid !== nodeId) {
      throw new StudioError(
        'not_found',
        `${nodeId} is no prompt of this session: files are restored to how they were before a prompt (the tool keeps only the content before each change, so the state after a turn cannot be rebuilt). Nothing was changed.`
      )
    }
    return nodeId
  }

  /**
   * Continue in Rewind Studio: a new session of ours holding the path to `nodeId` (its end on its
   * branch) converted from the viewed session (session/continue-foreign.ts), opened with the
   * agent ready. No file is touched.
   */
  continueForeign(nodeId: string): Promise<AppInfo> {
    const viewed = this.viewed
    if (viewed === null) {
      return Promise.reject(
        new StudioError('not_found', "No other tool's session is shown: nothing to continue.")
      )
    }
    return this.endOfNode(nodeId).then((at) => {
      if (viewed.tree.get(at) === undefined) {
        throw new StudioError(
          'not_found',
          `${nodeId} is no point of the conversation (a sub-agent's transcript is not): continue from a turn. Nothing was written.`
        )
      }
      return this.replaceSession(() =>
        continueForeign({
          home: this.options.home,
          cwd: this.options.cwd,
          origin: { file: viewed.file, format: viewed.format, sessionId: viewed.sessionId },
          tree: viewed.tree,
          at
        })
      )
    })
  }

  settings(): Settings {
    return this.options.models.settings()
  }

  updateSettings(update: SettingsUpdate): Promise<Settings> {
    return this.exclusive('a settings change', async () => {
      // Refused before anything is saved or closed: a model that cannot load changes nothing.
      await this.options.models.update(update)
      // A new model, mode or tool set takes effect on a fresh agent over the same session.
      const store = this.store
      await this.work.history.close()
      await this.attach(store)
      return this.settings()
    })
  }

  async close(): Promise<void> {
    this.touchedWatch.close()
    this.viewed?.close()
    this.tail?.close()
    await this.stop()
    // Each run stopped and joined as far as it got, before the session closes.
    await this.runBoard.stopAll()
    await this.work.close()
  }
}

function foreignReadOnly(viewed: ViewedSession): string {
  return `This ${TOOL_NAMES[viewed.format]} session is shown read-only: it is never written. "Continue in Rewind Studio" carries it on as a new session of ours${viewed.hasBackups ? '; "Restore files here" puts its files back from its backups' : ''}.`
}

/**
 * Where the files of a viewed session stand: before the prompt of the last rescue restore still
 * done, else where the tool left them (its leaf).
 */
function rescuedTo(
  tree: SessionTree,
  timeline: Awaited<ReturnType<ViewedSession['timeline']>>
): string | null {
  const done = timeline.actions.filter((a) => a.state === 'done').at(-1)
  if (done?.checkpointUuid == null) return tree.leafUuid
  return tree.get(done.checkpointUuid)?.parentUuid ?? null
}
