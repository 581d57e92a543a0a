// The top bar: which workspace and model, the demo and read-only states, Undo rewind, Settings.
import { undoRewind } from '../actions/rewind'
import { selectInfo, selectRunning, selectStatus, useAppStore } from '../stores/app-store'
import { selectCanUndo, useGraphStore } from '../stores/graph-store'

const selectSetSettingsOpen = (s: ReturnType<typeof useAppStore.getState>) => s.setSettingsOpen

export function Header() {
  const info = useAppStore(selectInfo)
  const running = useAppStore(selectRunning)
  const status = useAppStore(selectStatus)
  const canUndo = useGraphStore(selectCanUndo)
  const setSettingsOpen = useAppStore(selectSetSettingsOpen)
  const readOnly = info?.readOnlyReason != null
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
      {info !== null && <span className="chip chip--quiet">{info.model}</span>}
      {running && (
        <span className="chip chip--busy" role="status">
          Agent running
        </span>
      )}
      {/* The outcome of the last action (a rewind, a switch...), read out politely. */}
      <span className="header__status" role="status" aria-live="polite" title={status}>
        {status}
      </span>
      <button
        type="button"
        disabled={!canUndo || running || readOnly}
        onClick={() => void undoRewind()}
      >
        Undo rewind
      </button>
      <button type="button" onClick={() => setSettingsOpen(true)}>
        Settings
      </button>
      {readOnly && (
        <p className="header__banner" role="alert">
          Read-only: {info?.readOnlyReason}
        </p>
      )}
    </header>
  )
}
