// The timeline: every rewind, branch switch and continue of the session, oldest first, each named
// for what it did. Undo walks it back from the newest done entry, Redo forward again; an undone
// entry stays listed (and can be redone) until a new action replaces it.
import { walkTimeline } from '../actions/rewind'
import {
  selectReadOnlyReason,
  selectRunning,
  selectWalkingTimeline,
  useAppStore
} from '../stores/app-store'
import { selectTimelineSteps, useGraphStore } from '../stores/graph-store'
import { selectTimelineEntries, useTimelineStore } from '../stores/timeline-store'
import { useShallow } from 'zustand/react/shallow'
import { timelineButtonName } from './Header'

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })

function formatTime(timestamp: string): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? timestamp : when.format(date)
}

export function Timeline() {
  const entries = useTimelineStore(selectTimelineEntries)
  const { undo, redo } = useGraphStore(useShallow(selectTimelineSteps))
  const running = useAppStore(selectRunning)
  const readOnly = useAppStore(selectReadOnlyReason) !== null
  const walking = useAppStore(selectWalkingTimeline)
  const locked = running || readOnly || walking
  if (entries === null) return <p className="muted panel-pad">Loading…</p>
  return (
    <div className="timeline" tabIndex={0} role="region" aria-label="Timeline of actions">
      <div className="timeline__actions">
        <button
          type="button"
          disabled={undo === null || locked}
          onClick={() => void walkTimeline('undo')}
        >
          {timelineButtonName('Undo', undo)}
        </button>
        <button
          type="button"
          disabled={redo === null || locked}
          onClick={() => void walkTimeline('redo')}
        >
          {timelineButtonName('Redo', redo)}
        </button>
      </div>
      {entries.length === 0 && (
        <p className="muted">No rewind, switch or continue yet: each one is listed here.</p>
      )}
      <ol className="timeline__list">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className={`timeline__entry timeline__entry--${entry.state}`}
            aria-current={entry.id === undo?.id ? 'step' : undefined}
          >
            <span className="timeline__label">{entry.label}</span>
            <span className="timeline__meta">
              {formatTime(entry.timestamp)} · {entry.state === 'done' ? 'done' : 'undone'}
              {entry.id === undo?.id ? ' · Undo reverses this' : ''}
              {entry.id === redo?.id ? ' · Redo applies this again' : ''}
            </span>
          </li>
        ))}
      </ol>
    </div>
  )
}
