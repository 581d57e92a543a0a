// The record that finishes a restore (step 4 of the rewind engine's order), and how recovery
// tells whether a journal's record is in the log already. A rewind, a switch, a continue, an undo
// or a redo is one rewind / navigate record naming its journal, and no file_change record: what
// a restore wrote is no turn's change. A merge (core/merge) is its own turn: its record and the
// file_change records of what it wrote (source merge), in one write.
import type { MergeFileChange } from '../session/merge-records'
import type { RestoreJournal, RestoreOp } from './journal'
import type { RewindLog } from './rewind-engine'

/**
 * The one record that finishes a restore: a rewind or navigate naming its journal. No
 * file_change record: what a restore wrote is no turn's change (the timeline says where the
 * files are, the journal what it overwrote).
 */
export function recordRestore(store: RewindLog, journal: RestoreJournal): void {
  switch (journal.kind) {
    case 'rewind':
      store.appendRewind({
        leafUuid: journal.leafAfter,
        checkpointUuid: journal.checkpointUuid ?? '',
        mode: journal.mode ?? 'both',
        restoreId: journal.id
      })
      return
    case 'switch-branch':
    case 'continue':
      store.appendNavigate({
        leafUuid: journal.leafAfter,
        reason: journal.kind,
        restoreId: journal.id
      })
      return
    case 'summary':
      store.appendNavigate({
        leafUuid: journal.leafAfter,
        reason: 'summarize',
        restoreId: journal.id
      })
      return
    case 'redo':
      store.appendNavigate({
        leafUuid: journal.leafAfter,
        reason: 'redo',
        restoreId: journal.id,
        ...(journal.redoes === undefined ? {} : { redoes: journal.redoes })
      })
      return
    case 'undo':
      store.appendNavigate({
        leafUuid: journal.leafAfter,
        reason: 'undo-rewind',
        restoreId: journal.undoes ?? journal.id
      })
      return
    case 'merge':
      // Its own turn: what it wrote is that turn's change (source merge), unlike a restore's.
      if (journal.merge === undefined || store.appendMerge === undefined) {
        throw new Error(`Merge journal ${journal.id} cannot be recorded here`)
      }
      store.appendMerge(journal.merge, journal.ops.map(mergeChange))
      return
  }
}

interface RestoreRecordRef {
  restoreId: string
  /** An undo-rewind navigate (its restoreId names the restore it undid). */
  undo: boolean
}

function restoreRef(record: unknown): RestoreRecordRef | null {
  const r = record as { type?: unknown; reason?: unknown; restoreId?: unknown } | null
  if (typeof r?.restoreId !== 'string') return null
  if (r.type === 'rewind' || r.type === 'merge') return { restoreId: r.restoreId, undo: false }
  if (r.type === 'navigate') return { restoreId: r.restoreId, undo: r.reason === 'undo-rewind' }
  return null
}

/** Whether the session log already holds the record that finishes `journal`. */
export function hasRecord(records: readonly unknown[], journal: RestoreJournal): boolean {
  const wanted = journal.kind === 'undo' ? journal.undoes : journal.id
  return records.some((record) => {
    const ref = restoreRef(record)
    return ref !== null && ref.restoreId === wanted && ref.undo === (journal.kind === 'undo')
  })
}

/** A merge's op as its file_change record says it (an existing file keeps its own bits). */
function mergeChange(op: RestoreOp): MergeFileChange {
  const afterMode = op.to === null ? undefined : (op.toMode ?? op.fromMode)
  return {
    path: op.path,
    before: op.from,
    after: op.to,
    ...(op.fromMode === undefined ? {} : { beforeMode: op.fromMode }),
    ...(afterMode === undefined ? {} : { afterMode })
  }
}
