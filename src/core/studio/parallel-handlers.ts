// The contract's parallel channels over a studio (Try in parallel…, core/parallel): runs started
// from a node of the session at work, each in its own workspace, listed with their compare-table
// rows and placed in the graph; stopped, adopted (a continue to the run's end on the session's own
// rewind engine: preview, warnings, journal, Undo; the branch left and the start's other runs
// summarized when asked), discarded. The studio holds this section (StudioRuns): the launches
// under way survive the handlers (made per request), every page is told of each change by one
// `parallel:runs` event, the session is not left while they go on (leaving()), and the studio's
// close stops them and waits for their joins.
import type { Handlers } from '../../shared/contract'
import { maskSecretsIn } from '../../shared/mask-secrets'
import type { RunView, RunsView } from '../../shared/parallel-views'
import type { RewindPreview } from '../../shared/views'
import { type AdoptPlan, applyAdopt, discardRun, findRun, planAdopt } from '../parallel/adopt'
import {
  type LaunchOptions,
  ParallelRuns,
  RunPlaces,
  requestStop,
  runPermissionMode
} from '../parallel/launcher'
import { isUnderway, type RunManifest, sessionRuns } from '../parallel/run-manifest'
import { runWorkspaceUse } from '../parallel/run-gc'
import { runRow } from '../parallel/run-table'
import type { SessionTree } from '../session/tree'
import { ownerNode } from '../views/session-graph'
import { leaveChoice } from './rewind-handlers'
import type { StudioContext } from './studio-context'
import { StudioError } from './studio-error'

type ParallelChannel =
  | 'parallel:start'
  | 'parallel:list'
  | 'parallel:stop'
  | 'parallel:adoptPreview'
  | 'parallel:adopt'
  | 'parallel:discard'
  | 'parallel:diskUse'

/** The studio's runs section: the launches under way, and the adopt it previewed last. */
export class StudioRuns {
  private readonly launches = new Set<ParallelRuns>()
  private places: RunPlaces | null = null
  private pushing: ReturnType<typeof setTimeout> | null = null
  /** The adopt last previewed: applied as shown while the run and the leaf are the same. */
  previewed: { leafBefore: string | null; adopt: AdoptPlan } | null = null

  constructor(readonly ctx: StudioContext) {}

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
        this.ctx.emit('parallel:runs', runsView(this.ctx))
      } catch (error) {
        console.error(`The runs push failed: ${(error as Error).stack ?? String(error)}`)
      }
    }, 200)
  }
}

export function parallelHandlers(runs: StudioRuns): Pick<Handlers, ParallelChannel> {
  const { ctx } = runs
  /** Alone (busy otherwise), the graph pushed after and the last preview forgotten. */
  const alone = <T>(operation: string, run: () => Promise<T>): Promise<T> =>
    ctx.exclusive(operation, () =>
      run().finally(() => {
        ctx.lastPlan = null
        ctx.shapeChanged()
      })
    )
  return {
    'parallel:start': async ({ nodeId, prompts, check, model }) => {
      ctx.requireWritable()
      const startUuid = await ctx.endOfNode(nodeId)
      const settings = ctx.models.runSettings()
      const { work } = ctx
      runs.launch(
        {
          home: ctx.home,
          session: work.store,
          blobs: work.history.blobs,
          historyRoot: work.history.paths.root,
          startUuid,
          prompts,
          model: ctx.models.modelForRuns(model),
          permissionMode: runPermissionMode(settings.permissionMode),
          checkpointTools: settings.checkpointEnabled,
          bashSandbox: settings.bashSandbox,
          compaction: ctx.models.compaction(),
          ignoredFiles: ctx.models.ignoredFiles(),
          check: check ?? null,
          onRun: (run) => {
            runs.changed()
            // Joined: its records are a branch of the tree now, drawn with the graph pushed.
            if (run.joined) ctx.shapeChanged()
          },
          onEvent: (_id, event) => {
            if (event.type === 'message_end') runs.changed()
          }
        },
        ctx.models.maxRuns()
      )
      return runsView(ctx)
    },
    'parallel:list': async () => runsView(ctx),
    'parallel:stop': async ({ runId }) => {
      ctx.requireWritable()
      const run = findRun(ctx.home, ctx.store, runId)
      if (!isUnderway(run)) {
        throw new StudioError('conflict', `Run ${run.id} is ${run.state}: nothing to stop.`)
      }
      // A run of another process (the CLI's) is asked by a file in its folder.
      if (!(await runs.stop(run.id))) requestStop(ctx.home, run)
      runs.changed()
      return runsView(ctx)
    },
    'parallel:adoptPreview': ({ runId }) => {
      ctx.requireWritable()
      return alone('an adopt preview', async (): Promise<RewindPreview> => {
        const adopt = await planAdoptHere(ctx, runId)
        runs.previewed = { leafBefore: ctx.store.leafUuid, adopt }
        runs.changed()
        return maskSecretsIn(adopt.plan.preview)
      })
    },
    'parallel:adopt': ({ runId, summary }) => {
      ctx.requireWritable()
      return alone('an adopt', async () => {
        const kept = runs.previewed
        runs.previewed = null
        const adopt =
          kept !== null &&
          kept.adopt.run.id === findRun(ctx.home, ctx.store, runId).id &&
          kept.leafBefore === ctx.store.leafUuid
            ? kept.adopt
            : await planAdoptHere(ctx, runId)
        try {
          return await applyAdopt(ctx.home, adopt, {
            work: ctx.work,
            leave: leaveChoice(ctx, summary)
          })
        } finally {
          runs.changed()
        }
      })
    },
    'parallel:discard': async ({ runId }) => {
      ctx.requireWritable()
      await discardRun(ctx.home, ctx.store, runId)
      runs.changed()
      return runsView(ctx)
    },
    'parallel:diskUse': async ({ group }) => {
      const use = { workspaces: 0, bytes: 0 }
      if (ctx.viewed !== null) return use
      for (const run of sessionRuns(ctx.home, ctx.store.cwd, ctx.store.sessionId)) {
        const bytes = run.group === group ? runWorkspaceUse(ctx.home, run) : null
        if (bytes === null) continue
        use.workspaces++
        use.bytes += bytes
      }
      return use
    }
  }
}

function planAdoptHere(ctx: StudioContext, runId: string): Promise<AdoptPlan> {
  const { history } = ctx.work
  return planAdopt({
    home: ctx.home,
    session: ctx.store,
    space: { root: history.root, paths: history.paths, blobs: history.blobs },
    run: runId,
    dryRun: false
  })
}

/** Every run of the session at work, placed in the graph, masked. */
function runsView(ctx: StudioContext): RunsView {
  const maxRuns = ctx.models.maxRuns()
  // Another tool's session is shown: ours has no graph on the page, so no runs are listed.
  if (ctx.viewed !== null) return { runs: [], maxRuns }
  const { store } = ctx
  const tree = store.tree()
  const index = ctx.index()
  const nodeOf = (uuid: string) => ownerNode(index, uuid)
  const runs = sessionRuns(ctx.home, store.cwd, store.sessionId).map((run) =>
    runView(ctx, tree, nodeOf, run)
  )
  return maskSecretsIn({ runs, maxRuns })
}

function runView(
  ctx: StudioContext,
  tree: SessionTree,
  nodeOf: (uuid: string) => string | null,
  run: RunManifest
): RunView {
  const row = runRow(run, ctx.work.history.blobs)
  return {
    id: run.id,
    group: run.group,
    startNodeId: nodeOf(run.startUuid),
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
    nodeId: run.joined ? firstNodeOf(tree, nodeOf, run) : null,
    adoptable: !isUnderway(run) && run.runSession !== null,
    removed: run.removed
  }
}

/** The node a joined run's branch begins with: the record after the start on its path. */
function firstNodeOf(
  tree: SessionTree,
  nodeOf: (uuid: string) => string | null,
  run: RunManifest
): string | null {
  if (run.leaf === null || !tree.has(run.leaf)) return null
  const path = tree.pathTo(run.leaf)
  const at = path.findIndex((record) => record.uuid === run.startUuid)
  const first = at < 0 ? undefined : path[at + 1]
  return first === undefined ? null : nodeOf(first.uuid)
}
