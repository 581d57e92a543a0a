// Forking from the app, the chat and the CLI: which record a fork at a node ends on, and how the
// optional "restore that node's files" runs. The copy itself is session/fork.ts.
//
// Restoring the files, in this order:
//   1. plan it in the origin, as a switch of the origin to the fork's node: its tree holds both
//      where the files are (its leaf) and where they go (the node), so the preview, the
//      outside-change warnings and the other-session conflicts are exactly a switch's;
//   2. create the fork (nothing on disk changed yet: a failure here leaves the files as they are);
//   3. apply that plan in the fork, filed as the fork's own restore (a switch to the leaf it is
//      already on, with its journal), so the fork's undo puts the files back where the origin
//      left them, and the origin's log is not written at all.
// A pulled session (share/pulled.ts) forks the same way with two differences (share/continue.ts):
// the fork goes among this workspace's own sessions, and the restore brings the node's files from
// the shared backups, planned from before the session rather than from the sharer's leaf.
import type { BlobStore } from '../files/blob-store'
import type { RewindEngine, RewindPlan } from '../rewind/rewind-engine'
import { forkSession } from '../session/fork'
import type { SessionStore } from '../session/store'
import type { SessionTree } from '../session/tree'
import { forkPulled, planPulledRestore } from '../share/continue'
import { pulledFrom } from '../share/pulled'
import { NotFoundError } from '../../shared/coded-error'
import { type TurnIndex, buildSessionGraph, indexTurns } from '../views/session-graph'
import { nodeEnd, resolveNode } from '../views/node-refs'

/**
 * The record a fork named by `ref` ends on: the end of that node on its branch (node-refs.ts);
 * with no ref, the leaf (the whole active path).
 */
export function forkEnd(
  tree: SessionTree,
  sessionId: string,
  ref: string | null,
  index: TurnIndex = indexTurns(tree)
): string {
  if (ref === null) {
    if (tree.leafUuid === null) throw new NotFoundError('Nothing to fork: the session is empty.')
    return tree.leafUuid
  }
  const graph = buildSessionGraph(tree, sessionId, index)
  return nodeEnd(tree, index, resolveNode(tree, graph, index, ref))
}

/** The origin's switch to the fork's node (step 1), filed in the fork (step 3). */
export function restoreInFork(plan: RewindPlan, fork: SessionStore): RewindPlan {
  if (plan.kind !== 'switch-branch' || plan.leafAfter !== fork.leafUuid) {
    throw new Error(
      `The restore was planned for ${plan.leafAfter}, not the fork's ${fork.leafUuid}`
    )
  }
  return { ...plan, leafBefore: fork.leafUuid, leafAfter: fork.leafUuid }
}

/** How a fork of `origin` is planned (step 1, over the origin's engine) and written (step 2). */
export interface ForkRoute {
  plan(engine: RewindEngine, blobs: BlobStore, end: string): Promise<RewindPlan>
  fork(end: string): SessionStore
}

export function forkRoute(home: string, origin: SessionStore): ForkRoute {
  if (pulledFrom(home, origin) !== null) {
    return {
      plan: (engine, blobs, end) => planPulledRestore(engine, blobs, origin, end),
      fork: (end) => forkPulled(home, origin, end)
    }
  }
  return {
    plan: (engine, _blobs, end) => engine.planSwitch(end),
    fork: (end) => forkSession(home, origin, end)
  }
}
