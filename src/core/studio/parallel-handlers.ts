// The contract's parallel channels over a studio (Try in parallel…, core/parallel): runs started
// from a node of the session at work, each in its own workspace, listed with their compare-table
// rows and placed in the graph; stopped, adopted (a continue to the run's end on the session's own
// rewind engine: preview, warnings, journal, Undo; the branch left and the start's other runs
// summarized when asked), discarded. The studio holds a RunBoard: the launches under way survive
// the handlers (made per request), every page is told of each change by one `parallel:runs`
// event, and the studio's close stops them and waits for their joins.
import type { EventSink, Handlers } from '../../shared/contract'
import { maskSecretsIn } from '../../shared/mask-secrets'
import type { RunView, RunsView } from '../../shared/parallel-views'
import type { LeaveChoice, RewindPreview } from '../../shared/views'
import { type AdoptPlan, applyAdopt, discardRun, findRun, planAdopt } from '../parallel/adopt'
import {
  type LaunchOptions,
  ParallelRuns,
  RunPlaces,
  requestStop,
  runPermissionMode
} from '../parallel/launcher'
import { type RunManifest, sessionRuns } from '../parallel/run-manifest'
import { runRow } from '../parallel/run-table'
import type { SessionTree } from '../session/tree'
import type { WorkspaceSession } from '../workspace/workspace-session'
import type { ModelSetup } from './model-setup'
import { StudioError } from './studio-error'

type ParallelChannel =
  | 'parallel:start'
  | 'parallel:list'
  | 'parallel:stop'
  | 'parallel:adoptPreview'
  | 'parallel:adopt'
  | 'parallel:discard'

/** What a studio lends the runs (Studio.parallel()): its session at work, its graph, one job. */
export interface ParallelAccess {
  home: string
  work: WorkspaceSession
  board: RunBoard
  models: ModelSetup
  /** Another tool's session is shown: ours has no graph on the page, so no runs are listed. */
  viewingOther: boolean
  tree(): SessionTree
  /** The graph node a record belongs to. */
  nodeOf(uuid: string): string | null
  /** Where a graph node ends on its branch: what a run continues from. */
  endOfNode(nodeId: string): Promise<string>
  /** Refuses (read_only) unless our session is shown and writable. */
  requireWritable(): void
  /** The tree changed shape (a run joined): the graph is pushed. */
  changed(): void
  /** Runs alone (busy otherwise), the graph pushed after. */
  exclusive<T>(operation: string, run: () => Promise<T>): Promise<T>
  leaveChoice(asked: LeaveChoice | undefined): LeaveChoice
}

/** The runs a studio has under way, and the adopt it previewed last. */
export class RunBoard {
  private readonly launches = new Set<ParallelRuns>()
  private places: RunPlaces | null = null
  private pushing: ReturnType<typeof setTimeout> | null = null
  /** The adopt last previewed: applied as shown while the run and the leaf are the same. */
  previewed: { leafBefore: string | null; adopt: AdoptPlan } | null = null

  constructor(
    private readonly emit: EventSink,
    private readonly view: () => RunsView
  ) {}

  /** A run of this host is under way. */
  get running(): boolean {
    return this.launches.size > 0
  }

  /** Every launch of this host shares maxRuns places: two starts still run maxRuns at once. */
  launch(options: Omit<LaunchOptions, 'maxRuns'>, maxRuns: number): ParallelRuns {
    if (this.places?.size !== maxRuns || !this.running) this.places = new RunPlaces(maxRuns)
    const runs = ParallelRuns.start({ ...options, maxRuns: this.places })
    this.launches.add(runs)
    void runs.finished.finally(() => {
      this.launches.delete(runs)
      this.changed()
    })
    return runs
  }

  /** Stops a run of this host; true when it was one. */
  async stop(id: string): Promise<boolean> {
    for (const runs of this.launches) {
      if (runs.runs.some((run) => run.id === id)) {
        await runs.stop(id)
        return true
      }
    }
    return false
  }

  /** Stops every run and waits for their ends (each stopped run is joined as far as it got). */
  async stopAll(): Promise<void> {
    const launches = [...this.launches]
    await Promise.all(launches.map((runs) => runs.stopAll()))
    await Promise.all(launches.map((runs) => runs.finished.catch(() => undefined)))
    if (this.pushing !== null) clearTimeout(this.pushing)
    this.pushing = null
  }

  /** The session cannot be left (closed, replaced) while its runs go on: they join into it. */
  refuseLeaving(): void {
    if (this.running) {
      throw new StudioError(
        'busy',
        'Parallel runs of this session are going on: stop them (or wait for their end) first.'
      )
    }
  }

  /** Tells every page, at most every 200 ms: a run's turn streams many changes. */
  changed(): void {
    if (this.pushing !== null) return
    this.pushing = setTimeout(() => {
      this.pushing = null
      try {
        this.emit('parallel:runs', this.view())
      } catch (error) {
        console.error(`The runs push failed: ${(error as Error).stack ?? String(error)}`)
      }
    }, 200)
  }
}

export function parallelHandlers(access: () => ParallelAccess): Pick<Handlers, ParallelChannel> {
  return {
    'parallel:start': async ({ nodeId, prompts, check, model }) => {
      const a = access()
      a.requireWritable()
      const startUuid = await a.endOfNode(nodeId)
      const settings = a.models.runSettings()
      const { work } = a
      a.board.launch(
        {
          home: a.home,
          session: work.store,
          blobs: work.history.blobs,
          historyRoot: work.history.paths.root,
          startUuid,
          prompts,
          model: a.models.modelForRuns(model),
          permissionMode: runPermissionMode(settings.permissionMode),
          checkpointTools: settings.checkpointEnabled,
          bashSandbox: settings.bashSandbox,
          compaction: a.models.compaction(),
          ignoredFiles: a.models.ignoredFiles(),
          check: check ?? null,
          onRun: (run) => {
            a.board.changed()
            // Joined: its records are a branch of the tree now, drawn with the graph pushed.
            if (run.joined) a.changed()
          },
          onEvent: (_id, event) => {
            if (event.type === 'message_end') a.board.changed()
          }
        },
        a.models.maxRuns()
      )
      return runsView(a)
    },
    'parallel:list': async () => runsView(access()),
    'parallel:stop': async ({ runId }) => {
      const a = access()
      a.requireWritable()
      const run = findRun(a.home, a.work.store, runId)
      if (run.state !== 'running') {
        throw new StudioError('conflict', `Run ${run.id} is ${run.state}: nothing to stop.`)
      }
      // A run of another process (the CLI's) is asked by a file in its folder.
      if (!(await a.board.stop(run.id))) requestStop(a.home, run)
      a.board.changed()
      return runsView(a)
    },
    'parallel:adoptPreview': ({ runId }) => {
      const a = access()
      a.requireWritable()
      return a.exclusive('an adopt preview', async (): Promise<RewindPreview> => {
        const adopt = await planAdoptHere(a, runId)
        a.board.previewed = { leafBefore: a.work.store.leafUuid, adopt }
        a.board.changed()
        return maskSecretsIn(adopt.plan.preview)
      })
    },
    'parallel:adopt': ({ runId, summary }) => {
      const a = access()
      a.requireWritable()
      return a.exclusive('an adopt', async () => {
        const kept = a.board.previewed
        a.board.previewed = null
        const adopt =
          kept !== null &&
          kept.adopt.run.id === findRun(a.home, a.work.store, runId).id &&
          kept.leafBefore === a.work.store.leafUuid
            ? kept.adopt
            : await planAdoptHere(a, runId)
        try {
          return await applyAdopt(a.home, adopt, { work: a.work, leave: a.leaveChoice(summary) })
        } finally {
          a.board.changed()
        }
      })
    },
    'parallel:discard': async ({ runId }) => {
      const a = access()
      a.requireWritable()
      await discardRun(a.home, a.work.store, runId)
      a.board.changed()
      return runsView(a)
    }
  }
}

function planAdoptHere(a: ParallelAccess, runId: string): Promise<AdoptPlan> {
  const { history } = a.work
  return planAdopt({
    home: a.home,
    session: a.work.store,
    space: { root: history.root, paths: history.paths, blobs: history.blobs },
    run: runId,
    dryRun: false
  })
}

/** Every run of the session at work, placed in the graph, masked. */
export function runsView(a: ParallelAccess): RunsView {
  const maxRuns = a.models.maxRuns()
  if (a.viewingOther) return { runs: [], maxRuns }
  const store = a.work.store
  const tree = a.tree()
  const runs = sessionRuns(a.home, store.cwd, store.sessionId).map((run) => runView(a, tree, run))
  return maskSecretsIn({ runs, maxRuns })
}

function runView(a: ParallelAccess, tree: SessionTree, run: RunManifest): RunView {
  const row = runRow(run, a.work.history.blobs)
  return {
    id: run.id,
    group: run.group,
    startNodeId: a.nodeOf(run.startUuid),
    state: row.state,
    prompt: row.prompt,
    model: run.model,
    startedAt: run.startedAt,
    files: row.files,
    linesAdded: row.linesAdded,
    linesRemoved: row.linesRemoved,
    tokens: row.tokens,
    ms: row.ms,
    check: row.check,
    error: row.error,
    joined: run.joined,
    nodeId: run.joined ? firstNodeOf(a, tree, run) : null,
    removed: run.removed
  }
}

/** The node a joined run's branch begins with: the record after the start on its path. */
function firstNodeOf(a: ParallelAccess, tree: SessionTree, run: RunManifest): string | null {
  if (run.leaf === null || !tree.has(run.leaf)) return null
  const path = tree.pathTo(run.leaf)
  const at = path.findIndex((record) => record.uuid === run.startUuid)
  const first = at < 0 ? undefined : path[at + 1]
  return first === undefined ? null : a.nodeOf(first.uuid)
}
