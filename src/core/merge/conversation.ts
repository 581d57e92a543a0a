// What a merge brings of another branch's conversation (issue 31, "bring its conclusions"): the
// retained report when that branch is an agent's exploration (what the agent itself concluded
// when it rewound; no model call), else a summary of that branch from where the two branches
// part, made by the same machinery as the summaries of a branch left (summary/), with the
// instructions the user gives. Asked before anything is written: a summary that fails or is
// stopped leaves the session as it was.
import { abandonedPart } from '../agent/summary/branch-summary'
import { filesTouched } from '../agent/summary/files-touched'
import { type SummaryContext, summarize } from '../agent/summary/summarize'
import { rehydrated, RewindReportDetails } from '../agent/checkpoint/state'
import { REWIND_REPORT_TYPE, type SessionTree } from '../session/tree'
import { MergeError } from './merge-plan'

export interface BroughtConversation {
  summary: string
  source: 'report' | 'summary'
}

/** An exploration's report and the record that holds it. */
export interface RetainedReport {
  uuid: string
  report: string
}

/**
 * The report an agent's exploration produced when `fromUuid` lies in one (between its checkpoint
 * and its rewind, on the branch the rewind left) or is that report; null otherwise.
 */
export function retainedReport(tree: SessionTree, fromUuid: string): RetainedReport | null {
  const from = tree.get(fromUuid)
  if (from?.type === 'custom_message' && from.customType === REWIND_REPORT_TYPE) {
    const details = RewindReportDetails.safeParse(from.details)
    return details.success ? { uuid: from.uuid, report: details.data.report } : null
  }
  // On the exploration's own branch the checkpoint is still open: its rewind report is elsewhere.
  const open = rehydrated(tree.pathTo(fromUuid)).active
  if (open === null) return null
  for (const entry of tree.summaries()) {
    if (entry.kind !== 'rewind_report') continue
    const details = RewindReportDetails.safeParse(entry.details)
    if (details.success && details.data.startedAt === open.startedAt) {
      return { uuid: entry.uuid, report: details.data.report }
    }
  }
  return null
}

/**
 * Whether the conversation at `leafUuid` holds `fromUuid`'s conclusions already: the model reads
 * them there, so bringing them in again would only repeat them. Either the exploration's report
 * is on that path (an agent's rewind leaves it on the branch it went back to), or a merge of that
 * same node brought its conversation in.
 */
export function conclusionsHere(
  tree: SessionTree,
  fromUuid: string,
  leafUuid: string | null,
  report: RetainedReport | null
): boolean {
  if (leafUuid === null) return false
  return tree
    .pathTo(leafUuid)
    .some(
      (record) =>
        record.uuid === report?.uuid ||
        (record.type === 'merge' && record.fromUuid === fromUuid && record.summary !== undefined)
    )
}

/** The conversation of `fromUuid`'s branch, for a merge into the branch at `leafUuid`. */
export async function conversationToBring(
  ctx: Pick<SummaryContext, 'model' | 'window' | 'signal' | 'cwd'> & { tree: SessionTree },
  fromUuid: string,
  leafUuid: string | null,
  instructions?: string
): Promise<BroughtConversation> {
  const { tree } = ctx
  const report = retainedReport(tree, fromUuid)
  if (conclusionsHere(tree, fromUuid, leafUuid, report)) {
    throw new MergeError(
      'conflict',
      'This branch holds that node’s conclusions already (its report, or an earlier merge of it): bringing them in again would repeat them. Nothing was changed.'
    )
  }
  if (report !== null) return { summary: report.report, source: 'report' }
  const records = abandonedPart(tree, fromUuid, leafUuid)
  if (records.length === 0) {
    throw new MergeError(
      'conflict',
      'That node is on this branch already: there is no other conversation to bring in. Nothing was changed.'
    )
  }
  const summary = await summarize(ctx, {
    records,
    files: filesTouched(records, tree, ctx.cwd),
    kind: 'branch',
    instructions
  })
  return { summary: summary.text, source: 'summary' }
}
