// What the studio's sections share (studio.ts keeps it; each section is a module of its own with
// the handlers of its channels: tree-handlers.ts, agent-handlers.ts, rewind-handlers.ts,
// summary-handlers.ts, session-handlers.ts, foreign-handlers.ts, share and merge). A section reads
// what is open and acts through this interface, never through another section's fields: the
// session at work and the one shown, the one job under way, how the pages are told.
import type { EventSink } from '../../shared/contract'
import type { AppInfo, SessionGraph } from '../../shared/views'
import type { RewindPlan } from '../rewind/rewind-engine'
import type { SessionStore } from '../session/store'
import type { SessionTree } from '../session/tree'
import type { Sources } from '../sources/discovery'
import type { TurnIndex } from '../views/session-graph'
import type { WorkspaceSession } from '../workspace/workspace-session'
import type { ModelSetup } from './model-setup'
import type { ViewedSession } from './viewed-session'

export interface StudioContext {
  /** The data home ($REWIND_STUDIO_HOME) this studio keeps its sessions and backups in. */
  readonly home: string
  readonly cwd: string
  readonly models: ModelSetup
  readonly emit: EventSink
  /** Every session on disk, summarized once and kept in the session index (core/sources). */
  readonly sources: Sources
  /** The session at work: another replaces it when a session opens, so it is read each time. */
  readonly work: WorkspaceSession
  /** The log of the session at work (work.store). */
  readonly store: SessionStore
  /** Another tool's session shown instead of ours, read-only; null: ours is shown. */
  readonly viewed: ViewedSession | null
  /** The session shown was pulled from a git remote (core/share): someone else's, read-only. */
  readonly pulled: boolean
  /** The exclusive operation under way (see exclusive()), for the busy message. */
  readonly operation: string | null
  /**
   * The rewind plan previewed last (a rewind, a switch, a continue, a fork's restore), applied as
   * shown while it still fits; forgotten by any move, summary or session change.
   */
  lastPlan: RewindPlan | null

  info(): AppInfo
  /** The tree the views show: the viewed foreign session's, else ours. */
  viewTree(): SessionTree
  index(): TurnIndex
  graph(): Promise<SessionGraph>
  /** Where a node ends on its branch (node-refs.ts): a fork's end, where "Continue" goes. */
  endOfNode(nodeId: string): Promise<string>
  /** The tree changed shape: drop the projections and push the new graph to the pages. */
  shapeChanged(): void
  notice(level: 'info' | 'warning' | 'error', message: string): void

  requireWritable(): void
  /** What acts on our session's log or agent is refused while another tool's session is shown. */
  requireOwnSession(): void
  requireIdle(): void
  /**
   * What changes the workspace, the leaf or the session (a rewind, an undo, a branch switch, a
   * session or settings change) runs alone: a request arriving while one of them awaits its I/O
   * is refused as busy instead of interleaving with it.
   */
  exclusive<T>(operation: string, run: () => Promise<T>): Promise<T>
  /** A fresh WorkspaceSession (agent, history, engine) over `store`; the caller closed the last. */
  attach(store: SessionStore): Promise<void>
  /** Opens another session in place of the one shown (refused as busy like every move). */
  replaceSession(open: () => SessionStore): Promise<AppInfo>
  /** Shows our session again in place of another tool's. */
  stopViewing(): void
}
