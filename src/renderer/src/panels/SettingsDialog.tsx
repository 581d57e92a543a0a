// Settings. The API key field is write-only: the main process never sends a key back, only where
// one comes from, so the field starts empty and a saved key is never shown.
import { useEffect, useState } from 'react'
import type { PermissionMode } from '../../../shared/messages'
import { CONTEXT_WINDOW_TOKENS } from '../../../shared/summary-settings'
import type { Settings, SettingsUpdate, SummaryOnLeave } from '../../../shared/views'
import { loadSettings, saveSettings } from '../actions/settings'
import { selectSettingsOpen, useAppStore } from '../stores/app-store'
import { Modal } from './Modal'

const PERMISSION_MODES: { mode: PermissionMode; name: string }[] = [
  { mode: 'default', name: 'Ask before edits and commands' },
  { mode: 'acceptEdits', name: 'Accept file edits, ask before commands' },
  { mode: 'bypassPermissions', name: 'Never ask' }
]

const LEAVE_CHOICES: { value: SummaryOnLeave; name: string }[] = [
  { value: 'ask', name: 'Ask each time' },
  { value: 'none', name: 'No summary' },
  { value: 'summarize', name: 'Summarize it' }
]

const KEY_SOURCES: Record<Settings['apiKeySource'], string> = {
  env: 'A key comes from ANTHROPIC_API_KEY in the environment.',
  settings: 'A key is saved (hidden).',
  none: 'No key: the built-in demo model answers.'
}

const selectSetOpen = (s: ReturnType<typeof useAppStore.getState>) => s.setSettingsOpen

function SettingsForm({
  settings,
  onSaved
}: {
  settings: Settings
  onSaved: (s: Settings) => void
}) {
  const [apiKey, setApiKey] = useState('')
  const [model, setModel] = useState(settings.model)
  const [permissionMode, setPermissionMode] = useState(settings.permissionMode)
  const [checkpointEnabled, setCheckpointEnabled] = useState(settings.checkpointEnabled)
  const [bashSandbox, setBashSandbox] = useState(settings.bashSandbox)
  const [summaryOnLeave, setSummaryOnLeave] = useState(settings.summaryOnLeave)
  const [threshold, setThreshold] = useState(Math.round(settings.compactionThreshold * 100))
  const [contextWindow, setContextWindow] = useState(settings.contextWindow)
  const setOpen = useAppStore(selectSetOpen)

  const save = async (update: SettingsUpdate) => {
    const saved = await saveSettings(update)
    if (saved !== null) {
      setApiKey('')
      onSaved(saved)
    }
  }

  return (
    <form
      className="settings"
      onSubmit={(event) => {
        event.preventDefault()
        void save({
          ...(model.trim() !== '' && model.trim() !== settings.model
            ? { model: model.trim() }
            : {}),
          permissionMode,
          bashSandbox,
          // Saved only when changed: an unchanged default stays a default (the demo's checkpoint
          // tools, on while it answers, are not kept on for the model a key brings).
          ...(checkpointEnabled !== settings.checkpointEnabled ? { checkpointEnabled } : {}),
          ...(summaryOnLeave !== settings.summaryOnLeave ? { summaryOnLeave } : {}),
          ...(threshold / 100 !== settings.compactionThreshold
            ? { compactionThreshold: threshold / 100 }
            : {}),
          ...(contextWindow !== settings.contextWindow ? { contextWindow } : {}),
          ...(apiKey === '' ? {} : { apiKey })
        })
      }}
    >
      <label className="field">
        <span>API key</span>
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={apiKey}
          placeholder="Paste a new key to save it"
          onChange={(event) => setApiKey(event.target.value)}
        />
      </label>
      <p className="muted">{KEY_SOURCES[settings.apiKeySource]}</p>
      {settings.apiKeyWarning !== null && (
        <p role="alert" className="callout callout--warning">
          {settings.apiKeyWarning}
        </p>
      )}
      {settings.apiKeySource === 'settings' && (
        <button type="button" onClick={() => void save({ apiKey: '' })}>
          Remove saved key
        </button>
      )}
      <label className="field">
        <span>Model</span>
        <input value={model} onChange={(event) => setModel(event.target.value)} />
      </label>
      <label className="field">
        <span>Permission mode</span>
        <select
          value={permissionMode}
          onChange={(event) => setPermissionMode(event.target.value as PermissionMode)}
        >
          {PERMISSION_MODES.map((choice) => (
            <option key={choice.mode} value={choice.mode}>
              {choice.name}
            </option>
          ))}
        </select>
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checkpointEnabled}
          onChange={(event) => setCheckpointEnabled(event.target.checked)}
        />
        <span>Checkpoint tools</span>
      </label>
      <p className="muted">
        Lets the agent call checkpoint before exploring and rewind after, keeping only its report.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={bashSandbox}
          onChange={(event) => setBashSandbox(event.target.checked)}
        />
        <span>Run Bash in a sandbox</span>
      </label>
      <p className="muted">
        Off, Bash runs with your rights: it can change any file you can, outside the workspace too,
        and use the network; only the permission mode stands in its way. On, a command may write
        only inside the workspace (not its .git) and has no network.
      </p>
      {settings.bashSandboxUnavailable !== null && (
        <p role="alert" className="callout callout--warning">
          The sandbox is not available here: {settings.bashSandboxUnavailable}.
          {bashSandbox ? ' With it on, Bash refuses to run commands.' : ''}
        </p>
      )}
      <label className="field">
        <span>When leaving a branch</span>
        <select
          value={summaryOnLeave}
          onChange={(event) => setSummaryOnLeave(event.target.value as SummaryOnLeave)}
        >
          {LEAVE_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.name}
            </option>
          ))}
        </select>
      </label>
      <p className="muted">
        A summary of the branch you leave (rewind, switch, continue) is added where the conversation
        goes on, so the model keeps what that branch found.
      </p>
      <label className="field">
        <span>Compact the conversation at (% of the context window)</span>
        <input
          type="number"
          min={1}
          max={100}
          required
          value={threshold}
          onChange={(event) => setThreshold(Number(event.target.value))}
        />
      </label>
      <label className="field">
        <span>Context window (tokens)</span>
        <input
          type="number"
          min={CONTEXT_WINDOW_TOKENS.min}
          max={CONTEXT_WINDOW_TOKENS.max}
          step={1000}
          required
          value={contextWindow}
          onChange={(event) => setContextWindow(Number(event.target.value))}
        />
      </label>
      <p className="muted">
        Before a request would pass the threshold, the older turns are summarized and the recent
        ones kept word for word; nothing leaves the session log.
      </p>
      <div className="modal__actions">
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
        <button type="submit" className="primary">
          Save settings
        </button>
      </div>
    </form>
  )
}

export function SettingsDialog() {
  const open = useAppStore(selectSettingsOpen)
  const setOpen = useAppStore(selectSetOpen)
  const [settings, setSettings] = useState<Settings | null>(null)
  useEffect(() => {
    if (!open) return
    let current = true
    void loadSettings().then((loaded) => {
      if (current) setSettings(loaded)
    })
    return () => {
      current = false
    }
  }, [open])
  if (!open) return null
  return (
    <Modal title="Settings" onClose={() => setOpen(false)}>
      {settings === null ? (
        <p>Loading…</p>
      ) : (
        <SettingsForm settings={settings} onSaved={setSettings} />
      )}
    </Modal>
  )
}
