// Try in parallel… (core/parallel through the studio's parallel channels): runs started from a
// node, each in its own workspace; their list as every page is told of it (parallel:runs), drawn
// in the explorer (graph/run-nodes.ts) and compared in the Runs table; Stop, Discard, and Adopt
// this run, which opens the move dialog (rewind-store's 'adopt': its preview, the choice for the
// branches left, Undo after).
import type { RunsDiskUse, RunView, RunsView } from '../../../shared/parallel-views'
import { RUN_NODE_PREFIX } from '../graph/run-nodes'
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import { attempt } from './report'
import { openMove } from './rewind'

export function receiveRuns(view: RunsView): void {
  useGraphStore.getState().receiveRuns(view.runs)
}

export async function refreshRuns(): Promise<void> {
  const view = await attempt('Listing the parallel runs', () =>
    getBridge().request('parallel:list', {})
  )
  if (view !== null) receiveRuns(view)
}

export interface ParallelAsk {
  nodeId: string
  prompts: string[]
  check: string
  model: string
}

/** Resolves true once the runs are started (the dialog then closes). */
export async function startRuns(ask: ParallelAsk): Promise<boolean> {
  const check = ask.check.trim()
  const model = ask.model.trim()
  const view = await attempt('Starting the runs', () =>
    getBridge().request('parallel:start', {
      nodeId: ask.nodeId,
      prompts: ask.prompts,
      ...(check !== '' ? { check } : {}),
      ...(model !== '' ? { model } : {})
    })
  )
  if (view === null) return false
  receiveRuns(view)
  const n = ask.prompts.length
  useAppStore
    .getState()
    .setStatus(
      `${n} run${n === 1 ? '' : 's'} started, at most ${view.maxRuns} at once: each is a branch of the node when it ends.`
    )
  return true
}

export async function stopRun(runId: string): Promise<void> {
  const view = await attempt('Stopping the run', () =>
    getBridge().request('parallel:stop', { runId })
  )
  if (view !== null) receiveRuns(view)
}

/** What the workspaces of one start's runs take on disk now; null when it could not be asked. */
export function runsDiskUse(group: string): Promise<RunsDiskUse | null> {
  return attempt('Measuring the runs’ workspaces', () =>
    getBridge().request('parallel:diskUse', { group })
  )
}

export async function discardRun(runId: string): Promise<void> {
  const view = await attempt('Discarding the run', () =>
    getBridge().request('parallel:discard', { runId })
  )
  if (view === null) return
  receiveRuns(view)
  useAppStore.getState().setStatus('Its workspace was removed; its branch stays in the tree.')
}

/** Adopt this run: the move dialog on its first node (or the node drawn for it), to its end. */
export function openAdopt(run: RunView): void {
  openMove('adopt', run.nodeId ?? RUN_NODE_PREFIX + run.id, run.id)
}
