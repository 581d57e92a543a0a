// The rewind picker: which turn, which of the three modes, the preview, then Restore. The radio
// buttons' names are the ones Claude Code users know; tests and screen readers find them by name.
import { useShallow } from 'zustand/react/shallow'
import type { RewindMode } from '../../../shared/messages'
import type { GraphNode } from '../../../shared/views'
import { applyBranchSwitch, applyRewind, chooseRewind } from '../actions/rewind'
import { selectRunning, useAppStore } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import {
  selectCloseDialog,
  selectDialog,
  useRewindStore,
  type PreviewState
} from '../stores/rewind-store'
import { Modal } from './Modal'
import { PreviewList } from './PreviewList'

const MODES: { mode: RewindMode; name: string; description: string }[] = [
  {
    mode: 'both',
    name: 'Code and conversation',
    description:
      'Files go back to how they were before this prompt; the conversation continues from before it.'
  },
  {
    mode: 'conversation',
    name: 'Conversation only',
    description: 'The conversation continues from before this prompt; files stay as they are.'
  },
  {
    mode: 'code',
    name: 'Code only',
    description:
      'Files go back to how they were before this prompt; the conversation stays where it is.'
  }
]

/** Turns a rewind can target: the active path's, plus the chosen one if it is elsewhere. */
const selectTurnChoices = (targetId: string) => (s: { nodes: readonly GraphNode[] }) =>
  s.nodes.filter((node) => node.kind === 'turn' && (node.onActivePath || node.id === targetId))

function PreviewBody({ preview }: { preview: PreviewState }) {
  switch (preview.state) {
    case 'loading':
      return <p aria-live="polite">Computing what would change…</p>
    case 'failed':
      return (
        <p role="alert" className="callout callout--error">
          No preview: {preview.message}
        </p>
      )
    case 'ready':
      return <PreviewList preview={preview.preview} />
  }
}

function RewindForm({
  targetId,
  mode,
  preview,
  applying
}: {
  targetId: string
  mode: RewindMode
  preview: PreviewState
  applying: boolean
}) {
  const turns = useGraphStore(useShallow(selectTurnChoices(targetId)))
  const close = useRewindStore(selectCloseDialog)
  // A run started in another window: the main process would refuse, so Restore waits.
  const running = useAppStore(selectRunning)
  return (
    <form
      className="rewind-form"
      onSubmit={(event) => {
        event.preventDefault()
        void applyRewind()
      }}
    >
      <label className="field">
        <span>Rewind to before</span>
        <select value={targetId} onChange={(e) => chooseRewind({ targetId: e.target.value })}>
          {turns.map((turn, i) => (
            <option key={turn.id} value={turn.id}>
              {i + 1}. {turn.title || '(empty)'}
              {turn.filesChanged > 0
                ? ` (${turn.filesChanged} file${turn.filesChanged === 1 ? '' : 's'})`
                : ''}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="modes">
        <legend>What to restore</legend>
        {MODES.map((choice) => (
          <div key={choice.mode} className="mode">
            <input
              type="radio"
              id={`mode-${choice.mode}`}
              name="rewind-mode"
              value={choice.mode}
              checked={mode === choice.mode}
              aria-describedby={`mode-${choice.mode}-help`}
              onChange={() => chooseRewind({ mode: choice.mode })}
            />
            <label htmlFor={`mode-${choice.mode}`}>{choice.name}</label>
            <p id={`mode-${choice.mode}-help`} className="mode__help">
              {choice.description}
            </p>
          </div>
        ))}
      </fieldset>
      <PreviewBody preview={preview} />
      <div className="modal__actions">
        <button type="button" onClick={close}>
          Cancel
        </button>
        <button
          type="submit"
          className="primary"
          disabled={applying || running || preview.state !== 'ready'}
        >
          Restore
        </button>
      </div>
    </form>
  )
}

export function RewindDialogs() {
  const dialog = useRewindStore(selectDialog)
  const close = useRewindStore(selectCloseDialog)
  switch (dialog.kind) {
    case 'closed':
      return null
    case 'rewind':
      return (
        <Modal title="Rewind" onClose={close} wide>
          <RewindForm {...dialog} />
        </Modal>
      )
    case 'switch':
      return (
        <Modal title="Switch to this branch" onClose={close} wide>
          <p>
            The conversation continues from the end of this branch, and the files change to match
            it:
          </p>
          <PreviewBody preview={dialog.preview} />
          <div className="modal__actions">
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              className="primary"
              disabled={dialog.applying || dialog.preview.state !== 'ready'}
              onClick={() => void applyBranchSwitch()}
            >
              Switch branch
            </button>
          </div>
        </Modal>
      )
  }
}
