// "Restore files here" on a prompt of another tool's session (Claude Code, Gemini CLI, OpenCode):
// its files as that tool's own backups say they were before that prompt. The preview names every
// file, and every file whose backup is missing (skipped, never restored halfway). What the tool
// keeps decides what can be given back (Claude Code only the content before each change, Gemini
// CLI its checkpoints, OpenCode its snapshots): the dialog says so, in the reader's words.
import { useEffect, useState } from 'react'
import type { GraphNode } from '../../../shared/views'
import { applyRescue, loadRescuePreview, type RescuePreviewState } from '../actions/foreign'
import { Modal } from './Modal'
import { PreviewList, changesNoFile } from './PreviewList'

function RescueBody({ preview }: { preview: RescuePreviewState }) {
  if (preview.state === 'loading') return <p className="muted">Computing what would change…</p>
  if (preview.state === 'failed') {
    return (
      <p role="alert" className="callout callout--error">
        {preview.message}
      </p>
    )
  }
  const { skipped } = preview.preview
  return (
    <>
      <p>
        The files go back to how they were before prompt {preview.preview.promptIndex}. Undo in the
        header puts them back as they are now.
      </p>
      {skipped.length > 0 && (
        <div role="alert" className="callout callout--warning">
          <strong>No backup, left as they are:</strong>
          <ul>
            {skipped.map((file) => (
              <li key={file.path}>
                <code>{file.path}</code>: {file.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <PreviewList preview={preview.preview} />
      {changesNoFile(preview.preview) && (
        <p>Nothing can be restored here: no step would be recorded, and nothing changes.</p>
      )}
    </>
  )
}

export function RescueDialog({
  node,
  keeps,
  onClose
}: {
  node: GraphNode
  /** What the tool keeps of the files it changes (AppInfo.foreign.keeps). */
  keeps: string
  onClose: () => void
}) {
  const [preview, setPreview] = useState<RescuePreviewState>({ state: 'loading' })
  const [applying, setApplying] = useState(false)
  useEffect(() => {
    let current = true
    void loadRescuePreview(node.id).then((loaded) => {
      if (current) setPreview(loaded)
    })
    return () => {
      current = false
    }
  }, [node.id])
  const restore = async () => {
    setApplying(true)
    if (await applyRescue(node.id)) onClose()
    else setApplying(false)
  }
  return (
    <Modal title="Restore files here" onClose={onClose} wide>
      <p className="muted">{keeps}</p>
      <RescueBody preview={preview} />
      <div className="modal__actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={applying || preview.state !== 'ready' || changesNoFile(preview.preview)}
          onClick={() => void restore()}
        >
          Restore files
        </button>
      </div>
    </Modal>
  )
}
