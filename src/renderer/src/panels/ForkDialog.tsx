// Fork to new session: what it does, whether the files come along (with the preview of what
// would change), then Fork. The new session opens at once; this one stays as it is. On a session
// pulled from a git remote it is also "Continue from here", the files' restore asked for at once.
import { useEffect, useRef, useState } from 'react'
import type { GraphNode } from '../../../shared/views'
import { forkNode, loadForkPreview } from '../actions/fork'
import { selectRunning, useAppStore } from '../stores/app-store'
import type { PreviewState } from '../stores/rewind-store'
import { Modal } from './Modal'
import { PreviewBody } from './RewindDialog'

export function ForkDialog({
  node,
  onClose,
  continueHere = false
}: {
  node: GraphNode
  onClose: () => void
  /** Continue from here on a pulled session: a fork of one's own, the files coming along. */
  continueHere?: boolean
}) {
  const [restoreFiles, setRestoreFiles] = useState(continueHere)
  const [preview, setPreview] = useState<PreviewState>({ state: 'loading' })
  const [applying, setApplying] = useState(false)
  const running = useAppStore(selectRunning)
  // Only the answer to the latest request is shown (the box can be ticked twice quickly).
  const request = useRef(0)
  const chooseRestore = (checked: boolean) => {
    setRestoreFiles(checked)
    if (!checked) return
    const id = ++request.current
    setPreview({ state: 'loading' })
    void loadForkPreview(node.id).then((loaded) => {
      if (request.current === id) setPreview(loaded)
    })
  }
  // Continue from here opens with the files' preview asked for.
  useEffect(() => {
    if (!continueHere) return
    const id = ++request.current
    void loadForkPreview(node.id).then((loaded) => {
      if (request.current === id) setPreview(loaded)
    })
  }, [continueHere, node.id])
  const fork = async () => {
    setApplying(true)
    if (await forkNode(node.id, restoreFiles)) onClose()
    else setApplying(false)
  }
  return (
    <Modal
      title={continueHere ? 'Continue from here' : 'Fork to new session'}
      onClose={onClose}
      wide
    >
      <p>
        A new session {continueHere ? 'of your own ' : ''}starts with the conversation up to “
        {node.title || '(empty)'}” and opens at once. This session stays as it is:{' '}
        {continueHere ? 'Shared sessions opens it again.' : 'the session list opens it again.'}
      </p>
      <label className="field field--inline">
        <input
          type="checkbox"
          checked={restoreFiles}
          onChange={(event) => chooseRestore(event.target.checked)}
        />
        <span>Also bring the files back to how this node left them</span>
      </label>
      {restoreFiles ? (
        <PreviewBody preview={preview} />
      ) : (
        <p className="muted">The files stay as they are now.</p>
      )}
      <div className="modal__actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={applying || running || (restoreFiles && preview.state !== 'ready')}
          onClick={() => void fork()}
        >
          {continueHere ? 'Continue' : 'Fork'}
        </button>
      </div>
    </Modal>
  )
}
