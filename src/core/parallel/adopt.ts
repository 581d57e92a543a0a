// Adopting a run: its files come into the user's workspace and the conversation goes on at the
// run's end. It is a continue of the session to the run's last record, through the rewind engine
// (rewind-engine.ts: back up → journal → write → record), so it has a continue's preview, its
// warnings for files changed outside the agent and by other sessions, its journal (a kill mid-way
// is rolled back or completed by the next open's recover()), and its step on the timeline, which
// Undo takes back. The run's content comes from the session's own file history, where the run
// kept its backups; its workspace is only removed once the files are in.
//
// A run not yet joined (a crash ended the process that ran it) is joined first; a dry run
// plans over the session with the run's records added in memory, and writes nothing.
import { CodedError, NotFoundError } from '../../shared/coded-error'
import type { LeaveChoice, RewindResult } from '../../shared/views'
import { RewindEngine, type RewindLog, type RewindPlan } from '../rewind/rewind-engine'
import type { RestoreSpace } from '../rewind/workspace-files'
import { SessionTree } from '../session/tree'
import type { SessionStore } from '../session/store'
import { uuidv7 } from '../session/uuid-v7'
import type { WorkspaceSession } from '../workspace/workspace-session'
import { joinRun, runRecords } from './run-join'
import { isUnderway, type RunManifest, saveRun, sessionRuns } from './run-manifest'
import { removeRunWorkspace } from './run-workspace'

/** The run of `session` named by its id or a unique start of it (8 characters or more). */
export function findRun(
  home: string,
  session: Pick<SessionStore, 'cwd' | 'sessionId'>,
  ref: string
): RunManifest {
  const runs = sessionRuns(home, session.cwd, session.sessionId)
  const exact = runs.find((run) => run.id === ref)
  if (exact !== undefined) return exact
  const matches = ref.length >= 8 ? runs.filter((run) => run.id.startsWith(ref)) : []
  if (matches.length === 1) return matches[0] as RunManifest
  throw new NotFoundError(
    matches.length > 1
      ? `${ref} names ${matches.length} runs of this session: give more of the id.`
      : `This session has no run ${ref} (rewind-studio runs FILE lists them).`
  )
}

export interface AdoptPlan {
  run: RunManifest
  plan: RewindPlan
  engine: RewindEngine
}

export async function planAdopt(options: {
  home: string
  session: SessionStore
  space: RestoreSpace
  run: string
  dryRun: boolean
  /** Files written so far of those to write (a big adopt takes a moment). */
  onProgress?: (done: number, total: number) => void
}): Promise<AdoptPlan> {
  const { home, session } = options
  let run = findRun(home, session, options.run)
  if (isUnderway(run)) {
    throw new CodedError(
      'busy',
      `Run ${run.id} is still ${run.state}: stop it or wait for its end.`
    )
  }
  if (run.runSession === null) {
    throw new CodedError('conflict', `Run ${run.id} never started its turn: nothing to adopt.`)
  }
  let log: RewindLog = session
  let leaf: string
  if (run.joined) {
    leaf = run.leaf ?? run.startUuid
  } else if (options.dryRun) {
    const joined = previewLog(session, run)
    log = joined.log
    leaf = joined.leaf
  } else {
    run = joinRun(home, session, run)
    leaf = run.leaf ?? run.startUuid
  }
  // Adopted already (a second click, a second page): the conversation is at its end or past it.
  if (
    log
      .tree()
      .pathTo(log.leafUuid)
      .some((record) => record.uuid === leaf)
  ) {
    throw new CodedError(
      'conflict',
      `Run ${run.id} is on the conversation's branch already: nothing to adopt. Nothing was changed.`
    )
  }
  const engine = new RewindEngine({
    home,
    store: log,
    space: options.space,
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {})
  })
  const plan = await engine.planContinue(leaf, { diffs: false })
  return { run, plan, engine }
}

/**
 * Applies the adopt planned, then removes the run's workspace (its files are in the user's).
 * `through` a session at work (the app's, or the CLI's when summarizing) it is that session's
 * move, as any continue: its agent follows to the run's end, and with a summary asked for the
 * branch left and the start's other runs (runsLeftBehind) are summarized onto the run's end.
 */
export async function applyAdopt(
  home: string,
  adopt: AdoptPlan,
  through?: { work: WorkspaceSession; leave: LeaveChoice }
): Promise<RewindResult> {
  const result =
    through === undefined
      ? await adopt.engine.apply(adopt.plan)
      : await through.work.apply(
          adopt.plan,
          through.leave,
          runsLeftBehind(home, through.work.store, adopt.run)
        )
  await removeRunWorkspace(home, adopt.run)
  saveRun(home, { ...adopt.run, removed: 'adopted' })
  return result
}

/** Where the other runs of `run`'s start ended: joined, each with a branch of its own. */
export function runsLeftBehind(
  home: string,
  session: Pick<SessionStore, 'cwd' | 'sessionId'>,
  run: RunManifest
): string[] {
  return sessionRuns(home, session.cwd, session.sessionId).flatMap((other) =>
    other.id !== run.id &&
    other.group === run.group &&
    other.joined &&
    other.leaf !== null &&
    other.leaf !== other.startUuid
      ? [other.leaf]
      : []
  )
}

/** Removes a run's workspace; its branch, if joined, stays in the tree. */
export async function discardRun(
  home: string,
  session: Pick<SessionStore, 'cwd' | 'sessionId'>,
  ref: string
): Promise<RunManifest> {
  const run = findRun(home, session, ref)
  if (isUnderway(run)) {
    throw new CodedError('busy', `Run ${run.id} is still ${run.state}: stop it first.`)
  }
  await removeRunWorkspace(home, run)
  const discarded = { ...run, removed: run.removed ?? ('discarded' as const) }
  saveRun(home, discarded)
  return discarded
}

/** The session as joining `run` would make it, in memory: what a dry run plans over. */
function previewLog(session: SessionStore, run: RunManifest): { log: RewindLog; leaf: string } {
  const { records, leaf } = runRecords(run)
  const back = {
    type: 'navigate',
    uuid: uuidv7(),
    parentUuid: session.leafUuid,
    timestamp: new Date().toISOString(),
    leafUuid: session.leafUuid,
    reason: 'switch-branch',
    run: run.id
  }
  const tree = SessionTree.fromRecords([
    ...session.tree().records,
    ...records.map((r) => ({ ...(r as object), run: run.id })),
    back
  ])
  const refuse = (): never => {
    throw new CodedError('read_only', 'A dry run writes nothing')
  }
  return {
    log: {
      sessionId: session.sessionId,
      cwd: session.cwd,
      leafUuid: session.leafUuid,
      readOnlyReason: 'a dry run',
      tree: () => tree,
      appendRewind: refuse,
      appendNavigate: refuse
    },
    leaf: leaf ?? run.startUuid
  }
}
