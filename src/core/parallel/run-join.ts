// A run joins its session: the records its own log holds past the copy of the path it started
// from go into the session's log as a branch of the start node (SessionStore.appendRun), the
// leaf left where it was. Done once the run has ended (launcher), or by adopt for a run a crash
// cut short. Idempotent: a run whose first record is in the session already is not joined again.
import { SessionStore } from '../session/store'
import { type RunManifest, saveRun } from './run-manifest'

/** The records of the run's log to join (past its prefix, no header) and the run's leaf. */
export function runRecords(run: RunManifest): { records: unknown[]; leaf: string | null } {
  if (run.runSession === null) return { records: [], leaf: null }
  const log = SessionStore.open(run.runSession, { readOnly: true, reason: 'a run being joined' })
  try {
    const records = log
      .tree()
      .records.slice(run.prefixRecords)
      .filter((r) => (r as { type?: unknown }).type !== 'session')
    return { records, leaf: log.leafUuid }
  } finally {
    log.close()
  }
}

/**
 * Joins `run` into `session` (its writer); returns the manifest as saved, with the run's leaf:
 * where adopting it leaves the conversation.
 */
export function joinRun(home: string, session: SessionStore, run: RunManifest): RunManifest {
  if (run.joined) return run
  const { records, leaf } = runRecords(run)
  const first = records[0] as { uuid?: unknown } | undefined
  const already = typeof first?.uuid === 'string' && session.tree().has(first.uuid)
  if (records.length > 0 && !already) session.appendRun(run.id, records)
  const joined = { ...run, joined: true, leaf: leaf ?? run.startUuid }
  saveRun(home, joined)
  return joined
}
