// The top bar: which workspace and model, how full the model's context is, the demo and
// read-only states, Undo and Redo (each named after the action it would reverse or apply again),
// Export…, Settings.
import type { ContextUsage, TimelineStep } from '../../../shared/views'
import { shownOneLine } from '../../../shared/shown-text'
import { walkTimeline } from '../actions/rewind'
import {
  selectContextUsage,
  selectInfo,
  selectRunning,
  selectStatus,
  selectWalkingTimeline,
  useAppStore
} from '../stores/app-store'
import { selectTimelineSteps, useGraphStore } from '../stores/graph-store'
import { useShallow } from 'zustand/react/shallow'
import { useState } from 'react'
import { selectThemeChoice, useThemeStore, type ThemeChoice } from '../theme'
import { ExportDialog } from './ExportDialog'
import { ShareDialog } from './ShareDialog'

/** "Undo switch to branch "…"": the verb, then the action's own name, lower-cased first. */
export function timelineButtonName(verb: 'Undo' | 'Redo', step: TimelineStep | null): string {
  if (step === null) return verb
  return `${verb} ${step.label.charAt(0).toLowerCase()}${step.label.slice(1)}`
}

function TimelineButton({
  verb,
  step,
  locked
}: {
  verb: 'Undo' | 'Redo'
  step: TimelineStep | null
  locked: boolean
}) {
  const name = timelineButtonName(verb, step)
  return (
    <button
      type="button"
      className="header__timeline"
      title={name}
      disabled={step === null || locked}
      onClick={() => void walkTimeline(verb === 'Undo' ? 'undo' : 'redo')}
    >
      <span className="header__timeline-text">{name}</span>
    </button>
  )
}

const tokens = new Intl.NumberFormat('en-US')

/** "12% of the context window (24,000 of 200,000 tokens, estimated)": the meter's full reading. */
export function contextText(usage: ContextUsage): string {
  const share = Math.round((100 * usage.tokens) / usage.window)
  const estimated = usage.estimated ? ', estimated' : ''
  return `${share}% of the context window (${tokens.format(usage.tokens)} of ${tokens.format(usage.window)} tokens${estimated})`
}

/**
 * How full the next request's context is: the API's count where it gave one, an estimate before
 * the first answer (marked ~). Compaction starts at the threshold (settings).
 */
function ContextMeter() {
  const usage = useAppStore(selectContextUsage)
  if (usage === null) return null
  const share = Math.min(100, Math.round((100 * usage.tokens) / usage.window))
  const text = contextText(usage)
  return (
    <span
      className="header__context"
      role="meter"
      aria-label="Context"
      aria-valuemin={0}
      aria-valuemax={usage.window}
      aria-valuenow={Math.min(usage.tokens, usage.window)}
      aria-valuetext={text}
      title={text}
    >
      <span className="header__context-label">
        Context {usage.estimated ? '~' : ''}
        {share}%
      </span>
      <span className="header__context-bar" aria-hidden="true">
        <span className="header__context-fill" style={{ width: `${share}%` }} />
      </span>
    </span>
  )
}

const THEMES: { choice: ThemeChoice; name: string }[] = [
  { choice: 'system', name: 'System' },
  { choice: 'light', name: 'Light' },
  { choice: 'dark', name: 'Dark' }
]

/** Light, dark, or as the OS says; remembered by this browser (theme.ts). */
function ThemeChoiceField() {
  const choice = useThemeStore(selectThemeChoice)
  const choose = useThemeStore((s) => s.choose)
  return (
    <select
      aria-label="Theme"
      title="Theme"
      value={choice}
      onChange={(event) => choose(event.target.value as ThemeChoice)}
    >
      {THEMES.map((theme) => (
        <option key={theme.choice} value={theme.choice}>
          {theme.name}
        </option>
      ))}
    </select>
  )
}

const selectSetSettingsOpen = (s: ReturnType<typeof useAppStore.getState>) => s.setSettingsOpen

export function Header() {
  const info = useAppStore(selectInfo)
  const running = useAppStore(selectRunning)
  const walking = useAppStore(selectWalkingTimeline)
  const status = useAppStore(selectStatus)
  const { undo, redo } = useGraphStore(useShallow(selectTimelineSteps))
  const setSettingsOpen = useAppStore(selectSetSettingsOpen)
  const readOnly = info?.readOnlyReason != null
  // Another tool's session is read-only, yet its rescue restores walk the timeline.
  const timelineLocked = running || walking || (readOnly && info?.foreign === null)
  const [exporting, setExporting] = useState(false)
  const [sharing, setSharing] = useState(false)
  return (
    <header className="header">
      <div className="header__row">
        <h1 className="header__name">Rewind Studio</h1>
        <span className="header__workspace" title={info?.workspace}>
          {info?.workspace ?? 'Connecting…'}
        </span>
        {info?.demo === true && (
          <span className="chip" title="No API key: a scripted model answers">
            Demo model
          </span>
        )}
        {info !== null && (
          <span className="chip chip--quiet" title={info.model}>
            {info.model}
          </span>
        )}
        <ContextMeter />
        {running && (
          <span className="chip chip--busy" role="status">
            Agent running
          </span>
        )}
        <span className="header__gap" />
        <button type="button" disabled={info === null} onClick={() => setExporting(true)}>
          Export…
        </button>
        <button
          type="button"
          disabled={info === null || info.foreign !== null || info.shared != null}
          title="Share this session through the workspace's git remote"
          onClick={() => setSharing(true)}
        >
          Share…
        </button>
        <button type="button" onClick={() => setSettingsOpen(true)}>
          Settings
        </button>
        <ThemeChoiceField />
      </div>
      {/* Undo and Redo say what they would do, and the last action's outcome what it did: a row
          of their own, so at 1280 and 900 px each is read whole (two lines at most). */}
      <div className="header__row header__row--timeline">
        <TimelineButton verb="Undo" step={undo} locked={timelineLocked} />
        <TimelineButton verb="Redo" step={redo} locked={timelineLocked} />
        {/* The outcome of the last action (a rewind, a switch...), read out politely. */}
        <span
          className="header__status"
          role="status"
          aria-live="polite"
          title={shownOneLine(status)}
        >
          {shownOneLine(status)}
        </span>
      </div>
      {exporting && <ExportDialog onClose={() => setExporting(false)} />}
      {sharing && <ShareDialog onClose={() => setSharing(false)} />}
      {readOnly && (
        <p className="header__banner" role="alert">
          Read-only: {info?.readOnlyReason}
        </p>
      )}
    </header>
  )
}
