// The studio: what the desktop window and the browser page drive. It keeps one workspace session
// open and what its sections share (studio-context.ts: the session at work and the one shown, the
// one job under way, the events to the pages); each section answers the contract's channels of
// its prefixes in a module of its own (handlers.ts puts them together): the tree's views
// (tree-handlers.ts), the agent (agent-handlers.ts), rewinds and the timeline
// (rewind-handlers.ts), summaries (summary-handlers.ts), sessions and settings
// (session-handlers.ts), another tool's sessions (foreign-handlers.ts), share and merge.
//
// What it shows of the session (titles, transcripts, diffs, the agent's stream) has strings that
// look like API keys masked (shared/mask-secrets.ts); the log keeps what was said. Permission
// requests are the exception: the user approves exactly what would run.
//
// It can also show another tool's session (viewed-session.ts) read-only in place of ours: the
// views read the viewed tree (viewTree()), everything that would write refuses. A session pulled
// from a git remote (core/share) is one of ours opened read-only: its Fork makes a session of
// one's own here, the node's files from the shared backups (fork-at-node.ts forkRoute).
import type { EventSink } from '../../shared/contract'
import type { AppInfo, SessionGraph } from '../../shared/views'
import type { RewindPlan } from '../rewind/rewind-engine'
import { pulledFrom } from '../share/pulled'
import { SessionStore } from '../session/store'
import type { SessionTree } from '../session/tree'
import { type Sources, sharedSources } from '../sources/discovery'
import { FileTail, stoppedFollowingNotice } from '../sources/live-tail'
import type { TurnIndex } from '../views/session-graph'
import { WorkspaceSession } from '../workspace/workspace-session'
import { StudioAgent } from './agent-handlers'
import { StudioForeign, foreignReadOnly } from './foreign-handlers'
import type { ModelSetup } from './model-setup'
import { StudioRuns } from './parallel-handlers'
import type { StudioContext } from './studio-context'
import { StudioError } from './studio-error'
import { StudioTree } from './tree-handlers'
import type { ViewedSession } from './viewed-session'

export interface StudioOptions {
  home: string
  cwd: string
  version: string
  models: ModelSetup
  emit: EventSink
  /** Opens (or creates) the session the studio starts on. */
  openStore(): SessionStore
}

export class Studio implements StudioContext {
  private session!: WorkspaceSession
  readonly sources: Sources
  /** The sections that keep state of their own; the others are handlers over this context. */
  readonly tree: StudioTree
  readonly agent: StudioAgent
  readonly foreign: StudioForeign
  readonly runs: StudioRuns
  lastPlan: RewindPlan | null = null
  private job: string | null = null
  private shownPulled = false
  /** Following the session's file while another program writes it (read-only views). */
  private tail: FileTail | null = null
  /** Why following our read-only session's file stopped for good (it grew past what is read). */
  private stoppedFollowing: string | null = null

  private constructor(private readonly options: StudioOptions) {
    this.sources = sharedSources(options.home)
    this.tree = new StudioTree(this)
    this.agent = new StudioAgent(this)
    this.foreign = new StudioForeign(this)
    this.runs = new StudioRuns(this)
  }

  static async open(options: StudioOptions): Promise<Studio> {
    const studio = new Studio(options)
    await studio.attach(options.openStore())
    return studio
  }

  get home(): string {
    return this.options.home
  }

  get cwd(): string {
    return this.options.cwd
  }

  get models(): ModelSetup {
    return this.options.models
  }

  get emit(): EventSink {
    return this.options.emit
  }

  get work(): WorkspaceSession {
    return this.session
  }

  get store(): SessionStore {
    return this.session.store
  }

  get viewed(): ViewedSession | null {
    return this.foreign.viewed
  }

  get pulled(): boolean {
    return this.shownPulled
  }

  get operation(): string | null {
    return this.job
  }

  async attach(store: SessionStore): Promise<void> {
    this.shownPulled = pulledFrom(this.options.home, store) !== null
    const settings = this.options.models.runSettings()
    this.session = await WorkspaceSession.open({
      home: this.options.home,
      store,
      model: await this.options.models.client(),
      permissionMode: settings.permissionMode,
      checkpointTools: settings.checkpointEnabled,
      compaction: this.options.models.compaction(),
      ignoredFiles: this.options.models.ignoredFiles(),
      bashSandbox: settings.bashSandbox,
      askPermission: (request) => this.agent.askPermission(request),
      onEvent: (event) => this.agent.onAgentEvent(event)
    })
    this.followAppends(store)
    this.tree.opened()
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

  viewTree(): SessionTree {
    return this.viewed?.tree ?? this.store.tree()
  }

  index(): TurnIndex {
    return this.tree.index()
  }

  graph(): Promise<SessionGraph> {
    return this.tree.graph()
  }

  endOfNode(nodeId: string): Promise<string> {
    return this.tree.endOfNode(nodeId)
  }

  shapeChanged(): void {
    this.tree.changed()
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
      pendingPermissions: this.agent.pending(),
      contextUsage: this.work.agent.contextUsage(),
      foreign: viewed?.info() ?? null,
      shared: viewed === null ? pulledFrom(this.options.home, this.store) : null
    }
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.options.emit('agent:event', { type: 'notice', level, message })
  }

  requireWritable(): void {
    this.requireOwnSession()
    if (this.store.readOnlyReason !== null) {
      throw new StudioError('read_only', this.store.readOnlyReason)
    }
  }

  requireOwnSession(): void {
    if (this.viewed !== null) throw new StudioError('read_only', foreignReadOnly(this.viewed))
  }

  requireIdle(): void {
    if (this.work.agent.running) {
      throw new StudioError('busy', 'The agent is working: stop it first.')
    }
    if (this.job !== null) {
      throw new StudioError('busy', `Still busy with ${this.job}: try again in a moment.`)
    }
  }

  async exclusive<T>(operation: string, run: () => Promise<T>): Promise<T> {
    this.requireIdle()
    this.job = operation
    try {
      return await run()
    } finally {
      this.job = null
    }
  }

  leaving(): void {
    this.runs.refuseLeaving()
  }

  replaceSession(open: () => SessionStore): Promise<AppInfo> {
    return this.exclusive('a session change', async () => {
      this.leaving()
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

  stopViewing(): void {
    this.foreign.stopViewing()
  }

  async close(): Promise<void> {
    // A cold index being built for the list stops between two steps, writing nothing half.
    this.sources.stopBuilding(this.cwd)
    this.tree.close()
    this.viewed?.close()
    this.tail?.close()
    await this.agent.stop()
    // Each run stopped and joined as far as it got, before the session closes.
    await this.runs.stopAll()
    await this.work.close()
  }
}
