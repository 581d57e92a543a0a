// Applying a requested rewind, once the step that called it has ended (its tool results are in
// the session): branch from the checkpoint entry with a branch_summary holding the report, then a
// hidden rewind-report note. The exploration stays in the log on the branch it leaves; the
// rewind call and its "Rewind requested" result stay there too, never on the kept branch.
import type { BranchSummaryRecord, CustomMessageRecord } from '../../session/records'
import type { SessionStore } from '../../session/store'
import type { CheckpointState, CompletedRewind } from './state'
import { CHECKPOINT_MISSING_LOG, REWIND_REPORT_TYPE, rewindReport } from './texts'

export interface AppliedRewind {
  summary: BranchSummaryRecord
  report: CustomMessageRecord
  completed: CompletedRewind
  /** The checkpoint entry was gone: the branch starts at the root. */
  fellBack: boolean
}

/** Where the kept branch continues from (an entry uuid or "root"). */
function branchPoint(
  store: SessionStore,
  entryUuid: string,
  currentBatchUuid: string | null
): string {
  if (entryUuid !== currentBatchUuid) return entryUuid
  // Checkpoint and rewind were called in the same step, so the checkpoint entry also holds the
  // rewind's result. Branch from before that step: the kept branch then holds neither call.
  const results = store.tree().get(entryUuid)
  const call = results?.parentUuid == null ? undefined : store.tree().get(results.parentUuid)
  return call?.parentUuid ?? 'root'
}

export function applyRewind(
  store: SessionStore,
  state: CheckpointState,
  now: Date,
  log: (line: string) => void
): AppliedRewind {
  const active = state.active
  const pending = state.pending
  if (active === null || pending === null)
    throw new Error('applyRewind needs an active checkpoint and a pending report')
  let fromId = branchPoint(store, active.entryUuid, state.batchResultUuid)
  let fellBack = false
  if (fromId !== 'root' && store.tree().get(fromId) === undefined) {
    log(CHECKPOINT_MISSING_LOG)
    fromId = 'root'
    fellBack = true
  }
  const rewoundAt = now.toISOString()
  const summary = store.appendBranchSummary({
    fromId,
    summary: pending.report,
    details: { startedAt: active.startedAt }
  })
  const report = store.appendCustomMessage({
    customType: REWIND_REPORT_TYPE,
    hidden: true,
    content: rewindReport(pending.report),
    details: { report: pending.report, startedAt: active.startedAt, rewoundAt }
  })
  // The state changes only once both records are on disk: a failed append leaves it as it was.
  const completed = state.complete(rewoundAt)
  return { summary, report, completed, fellBack }
}
