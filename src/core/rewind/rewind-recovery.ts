// Recovery (the rewind engine's third part, rewind-engine.ts): at start, what a crash left
// under way is finished or taken back, from the journals (journal.ts) that applying writes before
// it touches a file (restore-apply.ts, steps 2 to 4 of its order). A journal still `pending` may
// have changed only some files: they are rolled back, each to the content it had, and the temp
// files a crash left beside them removed. One `applied` wrote every file: it gets its session
// record, once. A file changed by someone else since is left as it is and named.
import {
  type JournalState,
  type RestoreJournal,
  type RestoreOp,
  listJournals,
  saveJournal
} from './journal'
import { type RestoreWriter, type RewindLog, describeLeftAlone, wroteIn } from './restore-apply'
import { hasRecord, recordRestore } from './restore-records'
import { type RestoreSpace, checkedPath, removeLeftoverTemps } from './workspace-files'

/** The journals recovery acts on. */
const UNFINISHED: ReadonlySet<JournalState> = new Set(['pending', 'applied'])

/**
 * Finishes what a crash interrupted, for this session's journals: a restore that may have
 * changed only some files is rolled back; one whose files are all done gets its record.
 * Returns a line per journal handled, for the user.
 */
export async function recoverJournals(
  store: RewindLog,
  space: RestoreSpace,
  writer: RestoreWriter
): Promise<string[]> {
  const damaged: string[] = []
  // Only this session's unfinished journals need anything: the others are not checked
  // against the schema (each names every file its restore touched).
  const journals = await listJournals(
    space.paths.restores,
    damaged,
    (j) => j.sessionId === store.sessionId && UNFINISHED.has(j.state as JournalState),
    UNFINISHED
  )
  // Read-only (a dry run, another process writing): nothing is put right, but what the next
  // writer will do first is said, since a plan made now is of the files as they are before it.
  if (store.readOnlyReason !== null) return journals.map(notYetRecovered)
  const notices = damaged.map(
    (message) =>
      `${message}. It was skipped: if a crash interrupted the restore it describes, that restore was not rolled back.`
  )
  for (const journal of journals) {
    if (journal.sessionId !== store.sessionId) continue
    if (journal.state === 'pending' && !wroteIn(journal, space.root)) {
      // Its files are in another folder (a CLI rewind with --cwd): rolled back by a start there.
      notices.push(
        `An interrupted ${journal.kind} (${journal.id}) was restoring files in ${journal.root}: it is rolled back by the next rewind there (--cwd ${journal.root}).`
      )
      continue
    }
    if (journal.state === 'pending') {
      removeTempsOf(space.root, journal.ops)
      const leftAlone = await writer.rollBack(journal)
      await saveJournal(space.paths.restores, { ...journal, state: 'rolled-back' })
      notices.push(
        `An interrupted ${journal.kind} (${journal.id}) was rolled back: ${journal.ops.length - leftAlone.length} file(s) are as they were before it.${describeLeftAlone(leftAlone)}`
      )
    } else if (journal.state === 'applied') {
      if (!hasRecord(store.tree().records, journal)) recordRestore(store, journal)
      await saveJournal(space.paths.restores, { ...journal, state: 'recorded' })
      notices.push(`An interrupted ${journal.kind} (${journal.id}) was completed.`)
    }
  }
  return notices
}

function notYetRecovered(journal: RestoreJournal): string {
  const files = `${journal.ops.length} file(s)`
  return journal.state === 'pending'
    ? `A ${journal.kind} (${journal.id}) is under way in another process or was interrupted: if interrupted, the next rewind or opening of the session rolls its ${files} back first, so what is shown here, made of the files as they are now, may not be what it does.`
    : `A ${journal.kind} (${journal.id}) wrote its ${files} but is not recorded yet: the next rewind or opening of the session records it first.`
}

/** The temp files a crash mid-write left beside the journal's files (never through a link). */
function removeTempsOf(root: string, ops: RestoreOp[]): void {
  for (const op of ops) {
    try {
      removeLeftoverTemps(checkedPath(root, op.path))
    } catch {
      // Best effort: a path that cannot be checked any more is reported by the rollback that
      // follows, and a temp file left behind is litter, not a loss.
    }
  }
}
