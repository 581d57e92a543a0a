// The timeline: every rewind, branch switch and continue of the session, oldest first, each named
// for what it did. Undo walks it back from the newest done entry, Redo forward again; an undone
// entry stays listed (and can be redone) until a new action replaces it. Each entry acts: its
// name selects the node it went to, and `Undo to here` / `Redo to here` walk the timeline, step
// by step, until it stands right after that entry (timeline:walkTo), on the entries a walk can
// reach.
import type { TimelineEntry } from '../../../shared/views'
import { walkTimeline, walkTimelineTo } from '../actions/rewind'
import { jumpToNode } from '../actions/search'
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

/** Undo back to a done entry, Redo forward to an undone one: the timeline then stands after it. */
function walkName(entry: TimelineEntry): string {
  return entry.state === 'undone' ? 'Redo to here' : 'Undo to here'
}

/** The last entry done, where the timeline stands (also when Undo cannot reach it). */
function isLastDone(entries: readonly TimelineEntry[], entry: TimelineEntry): boolean {
  return entries.findLast((e) => e.state === 'done')?.id === entry.id
}

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
        {entries.map((entry) => {
          const current = entry.id === undo?.id || (undo === null && isLastDone(entries, entry))
          return (
            <li
              key={entry.id}
              className={`timeline__entry timeline__entry--${entry.state}`}
              aria-current={entry.id === undo?.id ? 'step' : undefined}
            >
              {/* The entry's name selects the node it went to in the graph. */}
              <button
                type="button"
                className="link timeline__label"
                disabled={entry.nodeId === null}
                title={entry.nodeId === null ? 'It went to the start: no node to show' : undefined}
                onClick={() => entry.nodeId !== null && jumpToNode(entry.nodeId)}
              >
                {entry.label}
              </button>
              <span className="timeline__meta">
                {formatTime(entry.timestamp)} · {entry.state === 'done' ? 'done' : 'undone'}
                {entry.id === undo?.id ? ' · Undo reverses this' : ''}
                {entry.id === redo?.id ? ' · Redo applies this again' : ''}
              </span>
              {/* Offered only where a walk can get to: past a step whose leaf moved since, none can. */}
              {!current && entry.walkable && (
                <button
                  type="button"
                  className="timeline__walk"
                  disabled={locked}
                  aria-label={`${walkName(entry)}: ${entry.label}`}
                  onClick={() => void walkTimelineTo(entry)}
                >
                  {walkName(entry)}
                </button>
              )}
            </li>
          )
        })}
      </ol>
    </div>
  )
}
