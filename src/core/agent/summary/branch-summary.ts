// Summaries of a branch the conversation leaves: after a move away from it (a rewind of the
// conversation, a branch switch, continue-from-here), and "Summarize from here" (the prompt and
// what follows it become one summary, the conversation goes on from the prompt's parent). The
// summary is a branch_summary appended on the new position, where the model sees it (context.ts);
// its details name the leaf of the branch it summarizes (fromLeafUuid: the graph draws the link)
// and list the files read and modified there. Nothing is rewritten and no file is touched.
import type { BranchSummaryRecord } from '../../session/records'
import type { SessionStore } from '../../session/store'
import { promptText, type SessionTree, type TreeRecord } from '../../session/tree'
import { promptIndexOnPath } from './compaction'
import { filesTouched } from './files-touched'
import { type Summary, type SummaryContext, summarize, summaryDetails } from './summarize'

/** The records of `oldLeaf`'s branch after the last record it shares with `newLeaf`'s. */
export function abandonedPart(
  tree: SessionTree,
  oldLeaf: string | null,
  newLeaf: string | null
): TreeRecord[] {
  const from = tree.pathTo(oldLeaf)
  const to = tree.pathTo(newLeaf)
  let common = 0
  while (common < from.length && from[common]?.uuid === to[common]?.uuid) common++
  return from.slice(common)
}

/** A summary made before a move, appended once the move is done (appendLeaveSummary). */
export interface LeaveSummary {
  summary: Summary
  fromLeafUuid: string
  instructions: string | undefined
}

/**
 * Summarizes what a move from `oldLeaf` to `newLeaf` leaves behind; null when it leaves nothing
 * (a move forward along the branch). The model is asked before anything moves, so a summary
 * that fails or is stopped leaves the session as it was.
 */
export async function summarizeLeftBranch(
  ctx: SummaryContext,
  move: { oldLeaf: string | null; newLeaf: string | null; instructions?: string | undefined }
): Promise<LeaveSummary | null> {
  const tree = ctx.store.tree()
  const left = abandonedPart(tree, move.oldLeaf, move.newLeaf)
  if (left.length === 0 || move.oldLeaf === null) return null
  const summary = await summarize(ctx, {
    records: left,
    files: filesTouched(left, tree, ctx.cwd),
    kind: 'branch',
    instructions: move.instructions
  })
  return { summary, fromLeafUuid: move.oldLeaf, instructions: move.instructions }
}

/**
 * Appends a leave summary as a child of `at` (default: the current leaf, the move's new
 * position); it becomes the leaf.
 */
export function appendLeaveSummary(
  store: SessionStore,
  leave: LeaveSummary,
  at: string | null = store.leafUuid,
  extra: Record<string, unknown> = {}
): BranchSummaryRecord {
  return store.appendBranchSummary({
    fromId: at ?? 'root',
    summary: leave.summary.text,
    details: summaryDetails(leave.summary, leave.instructions, {
      fromLeafUuid: leave.fromLeafUuid,
      ...extra
    })
  })
}

/**
 * "Summarize from here": the prompt (on the active branch) and everything after it become one
 * branch_summary, a child of the prompt's parent and the new leaf. Returns it and the prompt's
 * text, offered again in the composer.
 */
export async function summarizeFromHere(
  ctx: SummaryContext,
  promptUuid: string,
  instructions?: string
): Promise<{ record: BranchSummaryRecord; prefill: string }> {
  const tree = ctx.store.tree()
  const path = tree.activePath()
  const prompt = path[promptIndexOnPath(path, promptUuid)]
  if (prompt?.type !== 'user') throw new Error(`${promptUuid} is no prompt`)
  const oldLeaf = ctx.store.leafUuid
  const leave = await summarizeLeftBranch(ctx, {
    oldLeaf,
    newLeaf: prompt.parentUuid,
    instructions
  })
  if (leave === null) throw new Error('summarizeFromHere: the branch from a prompt is never empty')
  const record = appendLeaveSummary(ctx.store, leave, prompt.parentUuid, {
    fromPromptUuid: promptUuid
  })
  return { record, prefill: promptText(prompt) }
}
