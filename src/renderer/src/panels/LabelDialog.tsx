// Names a node ("works", "before the refactor") so it is easy to find and come back to.
import { useState } from 'react'
import type { GraphNode } from '../../../shared/views'
import { labelNode } from '../actions/label'
import { Modal } from './Modal'

const MAX_LABEL_CHARS = 80

export function LabelDialog({ node, onClose }: { node: GraphNode; onClose: () => void }) {
  const [label, setLabel] = useState(node.label ?? '')
  const save = async (value: string | null) => {
    if (await labelNode(node.id, value)) onClose()
  }
  return (
    <Modal title="Label" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (label.trim() !== '') void save(label.trim())
        }}
      >
        <label className="field">
          <span>Label for “{node.title || '(empty)'}”</span>
          <input
            value={label}
            maxLength={MAX_LABEL_CHARS}
            autoFocus
            onChange={(event) => setLabel(event.target.value)}
          />
        </label>
        <div className="modal__actions">
          {node.label !== null && (
            <button type="button" onClick={() => void save(null)}>
              Remove label
            </button>
          )}
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={label.trim() === ''}>
            Save label
          </button>
        </div>
      </form>
    </Modal>
  )
}
