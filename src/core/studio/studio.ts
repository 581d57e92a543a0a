// The studio: what the desktop window and the browser page drive. It keeps one workspace session
// open, answers the contract's requests through handlers.ts, and pushes events: the graph when the
// tree's shape changes, the agent's stream as it comes, permission requests.
//
// What it shows of the session (titles, transcripts, diffs, the agent's stream) has strings that
// look like API keys masked (shared/mask-secrets.ts); the log keeps what was said. Permission
// requests are the exception: the user approves exactly what would run.
import type { EventSink } from '../../shared/contract'
import { maskSecrets, maskSecretsIn } from '../../shared/mask-secrets'
import type { RewindMode } from '../../shared/messages'
import type {
  AgentEvent,
  AppInfo,
  CheckpointView,
  CompareView,
  FileDiff,
  NodeDetail,
  PermissionRequest,
  RewindPreview,
  RewindResult,
  SessionGraph,
  SessionSummary,
  Settings,
  SettingsUpdate,
  TimelineEntry,
  TranscriptEntry
} from '../../shared/views'
import type { RewindPlan } from '../rewind/rewind-engine'
import { unifiedDiff } from '../rewind/file-diff'
import { forkSession } from '../session/fork'
import { SessionStore } from '../session/store'
import { type CompareSources, buildCompareView, compareFileDiff } from './compare-view'
import { StudioError } from './dispatch'
import {
  buildSessionGraph,
  buildTranscript,
  indexTurns,
  ownerNode,
  type TurnIndex
} from './graph-view'
import { restoreInFork } from './fork'
import { timelineEntries, timelineStep } from './timeline-view'
import type { ModelSetup } from './model-setup'
import { nodeEnd } from './node-refs'
import { WorkspaceSession } from './workspace-session'

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
  private graphCache: { graph: SessionGraph; filesAt: string | null } | null = null
  private readonly pendingPermissions = new Map<
    string,
    { request: PermissionRequest; resolve: (allow: boolean) => void }
  >()
  private lastPlan: RewindPlan | null = null
  /** The exclusive operation under way (see exclusive()), for the busy message. */
  private operation: string | null = null

  private constructor(private readonly options: StudioOptions) {}

  static async open(options: StudioOptions): Promise<Studio> {
    const studio = new Studio(options)
    await studio.attach(options.openStore())
    return studio
  }

  private async attach(store: SessionStore): Promise<void> {
    const settings = this.options.models.settings()
    this.work = await WorkspaceSession.open({
      home: this.options.home,
      store,
      model: await this.options.models.client(),
      permissionMode: settings.permissionMode,
      checkpointTools: settings.checkpointEnabled,
      bashSandbox: settings.bashSandbox,
      askPermission: (request) => this.askPermission(request),
      onEvent: (event) => this.onAgentEvent(event)
    })
    this.shapeChanged()
  }

  private get store(): SessionStore {
    return this.work.store
  }

  info(): AppInfo {
    return {
      version: this.options.version,
      workspace: this.options.cwd,
      sessionId: this.store.sessionId,
      sessionFile: this.store.file,
      readOnlyReason: this.store.readOnlyReason,
      demo: this.options.models.isScripted(),
      model: this.options.models.settings().model,
      notices: [...this.options.models.notices(), ...this.work.notices],
      running: this.work.agent.running,
      pendingPermissions: [...this.pendingPermissions.values()].map((p) => p.request)
    }
  }

  // ---- the tree -------------------------------------------------------------------------------

  private index(): TurnIndex {
    this.turnIndex ??= indexTurns(this.store.tree())
    return this.turnIndex
  }

  /**
   * The graph, built once per shape of the tree (never per streamed token). Whether the files
   * changed since is looked at on every call: a stat per file the session touched, so a hand
   * edit shows the next time the renderer asks.
   */
  async graph(): Promise<SessionGraph> {
    const { graph, filesAt } = this.graphCache ?? (await this.buildGraph())
    const changedSince = this.work.engine.filesChangedSince(filesAt)
    return { ...graph, filesAt: { ...graph.filesAt, changedSince } }
  }

  private async buildGraph(): Promise<NonNullable<Studio['graphCache']>> {
    const generation = this.generation
    const timeline = await this.work.engine.timeline()
    const tree = this.store.tree()
    const index = this.index()
    const graph = buildSessionGraph(tree, this.store.sessionId, index, {
      filesAt: { nodeId: ownerNode(index, timeline.filesAt), changedSince: false },
      undo: timelineStep(tree, index, timeline.undoable),
      redo: timelineStep(tree, index, timeline.redoable)
    })
    const built = { graph, filesAt: timeline.filesAt }
    // Another change may have landed while timeline() read its journals: keep only a fresh graph.
    if (generation === this.generation) this.graphCache = built
    return built
  }

  /** Every rewind, switch and continue, oldest first, named for people. */
  async timeline(): Promise<TimelineEntry[]> {
    const timeline = await this.work.engine.timeline()
    return timelineEntries(this.store.tree(), this.index(), timeline)
  }

  /** The prompts on the path to `leafUuid` (null: the active path), as the rewind picker lists them. */
  checkpoints(leafUuid: string | null): CheckpointView[] {
    const tree = this.store.tree()
    if (leafUuid !== null && tree.get(leafUuid) === undefined) {
      throw new StudioError('not_found', `No message ${leafUuid} in this session.`)
    }
    return tree.checkpoints(tree.pathTo(leafUuid ?? tree.leafUuid)).map((c) => ({
      index: c.index,
      uuid: c.uuid,
      prompt: maskSecrets(c.prompt),
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
    return {
      tree: this.store.tree(),
      index: this.index(),
      nodes: (await this.graph()).nodes,
      blobs: this.work.history.blobs,
      disk: this.work.engine.disk
    }
  }

  private generation = 0

  /** The tree changed shape: drop the projections and push the new graph to the renderer. */
  private shapeChanged(): void {
    this.generation++
    this.turnIndex = null
    this.graphCache = null
    void this.graph().then((graph) => this.options.emit('session:graph', graph))
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
    const tree = this.store.tree()
    if (leafUuid !== null && tree.get(leafUuid) === undefined) {
      throw new StudioError('not_found', `No message ${leafUuid} in this session.`)
    }
    return maskSecretsIn(buildTranscript(tree, leafUuid ?? tree.leafUuid, this.index()))
  }

  async node(nodeId: string): Promise<NodeDetail> {
    const graph = await this.graph()
    const node = graph.nodes.find((n) => n.id === nodeId)
    if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
    const tree = this.store.tree()
    const entries = buildTranscript(tree, node.branchLeafUuid, this.index()).filter(
      (entry) => entry.nodeId === nodeId
    )
    const files = await this.turnDiffs(nodeId)
    return maskSecretsIn({ node, entries, files, summary: this.summaryOf(nodeId) })
  }

  /** Each file a turn changed: its content before the turn → after it. */
  private async turnDiffs(nodeId: string): Promise<NodeDetail['files']> {
    const byPath = new Map<string, { before: string | null; after: string | null }>()
    for (const change of this.store.tree().fileChanges(nodeId)) {
      const seen = byPath.get(change.path)
      byPath.set(change.path, { before: seen ? seen.before : change.before, after: change.after })
    }
    const blobs = this.work.history.blobs
    const content = async (hash: string | null) =>
      hash === null ? null : await blobs.get(hash).catch(() => null)
    return Promise.all(
      [...byPath].map(async ([path, { before, after }]) => ({
        path,
        diff: unifiedDiff(path, await content(before), await content(after)),
        outsideChange: false
      }))
    )
  }

  private summaryOf(nodeId: string): NodeDetail['summary'] {
    const record = this.store.tree().get(nodeId)
    if (record?.type === 'branch_summary') {
      const details = record.details as { startedAt?: unknown } | undefined
      return {
        text: record.summary,
        startedAt: typeof details?.startedAt === 'string' ? details.startedAt : null,
        rewoundAt: record.timestamp
      }
    }
    if (record?.type === 'custom_message') {
      const details = record.details as
        { report?: unknown; startedAt?: unknown; rewoundAt?: unknown } | undefined
      const text =
        typeof details?.report === 'string'
          ? details.report
          : typeof record.content === 'string'
            ? record.content
            : record.content.map((b) => ('text' in b ? String(b.text) : '')).join('\n')
      return {
        text,
        startedAt: typeof details?.startedAt === 'string' ? details.startedAt : null,
        rewoundAt: typeof details?.rewoundAt === 'string' ? details.rewoundAt : null
      }
    }
    return null
  }

  // ---- the agent ------------------------------------------------------------------------------

  private requireWritable(): void {
    if (this.store.readOnlyReason !== null) {
      throw new StudioError('read_only', this.store.readOnlyReason)
    }
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
    return this.remember(this.work.planRewind(checkpointUuid, mode))
  }

  previewSwitch(leafUuid: string): Promise<RewindPreview> {
    return this.remember(this.work.planSwitch(leafUuid))
  }

  async previewContinue(nodeId: string): Promise<RewindPreview> {
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
  rewind(checkpointUuid: string, mode: RewindMode): Promise<RewindResult> {
    this.requireWritable()
    return this.applied('a rewind', async () => {
      const plan =
        this.lastPlan?.kind === 'rewind' &&
        this.lastPlan.checkpointUuid === checkpointUuid &&
        this.lastPlan.mode === mode &&
        this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await this.work.planRewind(checkpointUuid, mode)
      return this.work.apply(plan)
    })
  }

  switchBranch(leafUuid: string): Promise<RewindResult> {
    this.requireWritable()
    return this.applied('a branch switch', async () => {
      const plan =
        this.lastPlan?.kind === 'switch-branch' &&
        this.lastPlan.leafAfter === leafUuid &&
        this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await this.work.planSwitch(leafUuid)
      return this.work.apply(plan)
    })
  }

  /** Moves the conversation and the files to a node, as previewContinue showed. */
  continueFrom(nodeId: string): Promise<RewindResult> {
    this.requireWritable()
    return this.applied('a continue', async () => {
      const target = await this.endOfNode(nodeId)
      const plan =
        this.lastPlan?.kind === 'continue' &&
        this.lastPlan.leafAfter === target &&
        this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await this.work.planContinue(target)
      return this.work.apply(plan)
    })
  }

  undo(): Promise<RewindResult> {
    this.requireWritable()
    return this.applied('an undo', () => this.work.undo())
  }

  redo(): Promise<RewindResult> {
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

  listSessions(): SessionSummary[] {
    return SessionStore.list(this.options.home, this.options.cwd).map((listing) => {
      const current = listing.file === this.store.file
      const checkpoints = current
        ? this.store.tree().checkpoints()
        : listing.problem === null
          ? promptsOf(listing.file)
          : []
      return {
        sessionId: listing.sessionId,
        file: listing.file,
        createdAt: listing.createdAt,
        firstPrompt: checkpoints[0] === undefined ? null : maskSecrets(checkpoints[0].prompt),
        prompts: checkpoints.length,
        current,
        problem: listing.problem
      }
    })
  }

  openSession(sessionId: string): Promise<AppInfo> {
    this.requireIdle()
    const file = SessionStore.find(this.options.home, this.options.cwd, sessionId)
    if (file === null)
      throw new StudioError('not_found', `No session ${sessionId} in this workspace.`)
    // The one we are on: reopening it would find its lock held (by us) and open it read-only.
    if (file === this.store.file) return Promise.resolve(this.info())
    return this.replaceSession(() => SessionStore.open(file))
  }

  /**
   * A new session holding the path to `nodeId` (session/fork.ts), opened at once. With
   * `restoreFiles`, the files are brought to that node's state in the fork (studio/fork.ts),
   * applying what previewFork showed when it still fits. The fork stands whatever the restore
   * does: a refused restore is a notice, with the files as they were.
   */
  fork(nodeId: string, restoreFiles: boolean): Promise<AppInfo> {
    return this.exclusive('a fork', async () => {
      const end = await this.endOfNode(nodeId)
      const plan = restoreFiles
        ? this.lastPlan?.kind === 'switch-branch' &&
          this.lastPlan.leafAfter === end &&
          this.lastPlan.leafBefore === this.store.leafUuid
          ? this.lastPlan
          : await this.work.planSwitch(end)
        : null
      const fork = forkSession(this.options.home, this.store, end)
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
    return this.remember(this.work.planSwitch(await this.endOfNode(nodeId)))
  }

  /** Where a node ends on its branch (node-refs.ts): a fork's end, where "Continue" goes. */
  private async endOfNode(nodeId: string): Promise<string> {
    const node = (await this.graph()).nodes.find((n) => n.id === nodeId)
    if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
    return nodeEnd(this.store.tree(), this.index(), node)
  }

  newSession(): Promise<AppInfo> {
    return this.replaceSession(() =>
      SessionStore.create({ home: this.options.home, cwd: this.options.cwd })
    )
  }

  private replaceSession(open: () => SessionStore): Promise<AppInfo> {
    return this.exclusive('a session change', async () => {
      // Opened before the current one closes: a session that cannot open leaves us where we were.
      const store = open()
      await this.work.close()
      this.lastPlan = null
      await this.attach(store)
      return this.info()
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
    await this.stop()
    await this.work.close()
  }
}

/** The checkpoints on another session's active path, read without taking its lock. */
function promptsOf(file: string) {
  const other = SessionStore.open(file, { readOnly: true })
  try {
    return other.tree().checkpoints()
  } finally {
    other.close()
  }
}
