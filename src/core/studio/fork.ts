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
import type { RewindPlan } from '../rewind/rewind-engine'
import type { SessionStore } from '../session/store'
import type { SessionTree } from '../session/tree'
import { NotFoundError } from '../../shared/coded-error'
import { type TurnIndex, buildSessionGraph, indexTurns } from './graph-view'
import { nodeEnd, resolveNode } from './node-refs'

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
