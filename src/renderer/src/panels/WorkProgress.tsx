// How far long work got, where it was asked for: a summary being written counts its characters
// and can be stopped (agent:stop: nothing is changed); a restore of many files fills a bar, file
// by file. The dialogs that start the work show it; the composer shows what runs without one
// (a compaction the turn needed, an undo from the timeline).
import { stopAgent } from '../actions/agent'
import { selectWork, useWorkStore } from '../stores/work-store'

const count = (n: number) => n.toLocaleString('en-US')

/** "Summarizing…" with the characters written so far and, unless the caller has one, Stop. */
export function SummaryWriting({ what, stop = true }: { what: string; stop?: boolean }) {
  const work = useWorkStore(selectWork)
  const chars = work?.kind === 'summary' ? work.chars : null
  return (
    <p className="callout summarizing" role="status">
      {what}
      {chars !== null && ` ${count(chars)} characters written.`}{' '}
      {stop && (
        <button type="button" onClick={() => void stopAgent()}>
          Stop summary
        </button>
      )}
    </p>
  )
}

export function RestoreProgress() {
  const work = useWorkStore(selectWork)
  if (work?.kind !== 'restore') return null
  return (
    <div className="restore-progress" role="status">
      <span>
        Restoring files: {count(work.done)} of {count(work.total)}
      </span>
      <progress aria-label="Files restored" value={work.done} max={Math.max(1, work.total)} />
    </div>
  )
}

/** For the composer: either kind, the summary without a Stop of its own (the composer has one). */
export function WorkProgress() {
  const kind = useWorkStore((s) => s.work?.kind ?? null)
  if (kind === 'summary') return <SummaryWriting what="Writing a summary…" stop={false} />
  return kind === 'restore' ? <RestoreProgress /> : null
}
