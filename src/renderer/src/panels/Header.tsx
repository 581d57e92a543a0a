// The top bar: which workspace and model, the demo and read-only states, Undo and Redo (each
// named after the action it would reverse or apply again), Export…, Settings.
import type { TimelineStep } from '../../../shared/views'
import { walkTimeline } from '../actions/rewind'
import { selectInfo, selectRunning, selectStatus, useAppStore } from '../stores/app-store'
import { selectTimelineSteps, useGraphStore } from '../stores/graph-store'
import { useShallow } from 'zustand/react/shallow'
import { useState } from 'react'
import { ExportDialog } from './ExportDialog'

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
      {name}
    </button>
  )
}

const selectSetSettingsOpen = (s: ReturnType<typeof useAppStore.getState>) => s.setSettingsOpen

export function Header() {
  const info = useAppStore(selectInfo)
  const running = useAppStore(selectRunning)
  const status = useAppStore(selectStatus)
  const { undo, redo } = useGraphStore(useShallow(selectTimelineSteps))
  const setSettingsOpen = useAppStore(selectSetSettingsOpen)
  const readOnly = info?.readOnlyReason != null
  const [exporting, setExporting] = useState(false)
  return (
    <header className="header">
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
      {running && (
        <span className="chip chip--busy" role="status">
          Agent running
        </span>
      )}
      {/* The outcome of the last action (a rewind, a switch...), read out politely. */}
      <span className="header__status" role="status" aria-live="polite" title={status}>
        {status}
      </span>
      <TimelineButton verb="Undo" step={undo} locked={running || readOnly} />
      <TimelineButton verb="Redo" step={redo} locked={running || readOnly} />
      <button type="button" disabled={info === null} onClick={() => setExporting(true)}>
        Export…
      </button>
      <button type="button" onClick={() => setSettingsOpen(true)}>
        Settings
      </button>
      {exporting && <ExportDialog onClose={() => setExporting(false)} />}
      {readOnly && (
        <p className="header__banner" role="alert">
          Read-only: {info?.readOnlyReason}
        </p>
      )}
    </header>
  )
}
