// The rewind picker: which prompt of the branch, which of the three modes, the preview, then
// Restore. The radio buttons' names are the ones Claude Code users know; tests and screen
// readers find them by name. And the move dialogs: Switch to a branch's end, Continue from a node.
import type { RewindMode } from '../../../shared/messages'
import type { CheckpointView } from '../../../shared/views'
import { applyMove, applyRewind, chooseRewind } from '../actions/rewind'
import { selectRunning, useAppStore } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import type { LeaveState, MoveKind } from '../stores/rewind-store'
import {
  selectCloseDialog,
  selectDialog,
  useRewindStore,
  type PreviewState
} from '../stores/rewind-store'
import { LeaveSummaryFields, SummarizingNote } from './LeaveSummaryFields'
import { Modal } from './Modal'
import { RestoreProgress } from './WorkProgress'
import { PreviewList, changesNoFile } from './PreviewList'

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

/** One prompt of the branch, as the picker lists it: its number, its text, what it changed. */
function choiceText(choice: CheckpointView): string {
  const line = choice.prompt.split('\n', 1)[0] ?? ''
  const files =
    choice.filesChanged > 0
      ? ` (${choice.filesChanged} file${choice.filesChanged === 1 ? '' : 's'})`
      : ''
  return `${choice.index}. ${line.length > 100 ? `${line.slice(0, 99)}…` : line || '(empty)'}${files}`
}

/** A preview as it loads, fails or is ready: the rewind, move and fork dialogs show it alike. */
export function PreviewBody({ preview }: { preview: PreviewState }) {
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
  choices,
  preview,
  leave,
  applying
}: {
  targetId: string
  mode: RewindMode
  choices: readonly CheckpointView[]
  preview: PreviewState
  leave: LeaveState
  applying: boolean
}) {
  // Until the branch's prompts arrive, the target alone (from the graph) is listed.
  const target = useGraphStore((s) => s.nodesById.get(targetId))
  const listed =
    choices.length > 0 || target === undefined
      ? choices
      : [{ index: 0, uuid: targetId, prompt: target.title, filesChanged: target.filesChanged }]
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
          {listed.map((choice) => (
            <option key={choice.uuid} value={choice.uuid}>
              {choiceText(choice)}
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
      {/* Code only keeps the conversation where it is: no branch is left. */}
      {mode !== 'code' && <LeaveSummaryFields leave={leave} applying={applying} />}
      {mode !== 'code' && <SummarizingNote leave={leave} applying={applying} />}
      <RestoreProgress />
      <div className="modal__actions">
        <button type="button" onClick={close}>
          Cancel
        </button>
        <button
          type="submit"
          className="primary"
          disabled={
            applying ||
            running ||
            preview.state !== 'ready' ||
            // Code only, with no file to change: nothing to do, and no step to record.
            (mode === 'code' && changesNoFile(preview.preview))
          }
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
    case 'move':
      return <MoveDialog {...dialog} />
  }
}

const MOVE_TEXTS: Record<MoveKind, { title: string; intro: string; confirm: string }> = {
  switch: {
    title: 'Switch to this branch',
    intro:
      'The conversation continues from the end of this branch, and the files change to match it:',
    confirm: 'Switch branch'
  },
  continue: {
    title: 'Continue from here',
    intro:
      'The conversation continues from this node: your next prompt is added after it, and the files change to how this node left them:',
    confirm: 'Continue'
  },
  adopt: {
    title: 'Adopt this run',
    intro:
      'The run’s files come into your workspace and the conversation continues from the run’s end; the other runs stay branches of the tree (a summary of each, with the branch you leave, when you ask for one). Undo takes it back:',
    confirm: 'Adopt'
  }
}

function MoveDialog({
  move,
  preview,
  leave,
  applying
}: {
  move: MoveKind
  preview: PreviewState
  leave: LeaveState
  applying: boolean
}) {
  const close = useRewindStore(selectCloseDialog)
  const running = useAppStore(selectRunning)
  const texts = MOVE_TEXTS[move]
  return (
    <Modal title={texts.title} onClose={close} wide>
      <p>{texts.intro}</p>
      <PreviewBody preview={preview} />
      <LeaveSummaryFields leave={leave} applying={applying} />
      <SummarizingNote leave={leave} applying={applying} />
      <RestoreProgress />
      <div className="modal__actions">
        <button type="button" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={applying || running || preview.state !== 'ready'}
          onClick={() => void applyMove()}
        >
          {texts.confirm}
        </button>
      </div>
    </Modal>
  )
}
