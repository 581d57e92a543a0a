// Names a node ("works", "before the refactor") so it is easy to find and come back to. The field
// counts towards the limit and says when a label is over it, instead of cutting it silently.
import { useState } from 'react'
import { labelProblem, MAX_LABEL_CHARS } from '../../../shared/label-limit'
import type { GraphNode } from '../../../shared/views'
import { labelNode } from '../actions/label'
import { Modal } from './Modal'

export function LabelDialog({ node, onClose }: { node: GraphNode; onClose: () => void }) {
  const [label, setLabel] = useState(node.label ?? '')
  const length = label.trim().length
  // The same words the contract, the CLI and the chat use for a label over the limit.
  const tooLong = length > MAX_LABEL_CHARS ? labelProblem(label) : null
  const save = async (value: string | null) => {
    if (await labelNode(node.id, value)) onClose()
  }
  return (
    <Modal title="Label" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (length > 0 && tooLong === null) void save(label.trim())
        }}
      >
        <label className="field">
          <span>Label for “{node.title || '(empty)'}”</span>
          <input
            value={label}
            autoFocus
            aria-invalid={tooLong !== null}
            aria-describedby="label-length"
            onChange={(event) => setLabel(event.target.value)}
          />
        </label>
        <p id="label-length" className={tooLong !== null ? 'field__error' : 'field__hint'}>
          {tooLong ?? `${length} / ${MAX_LABEL_CHARS} characters`}
        </p>
        <div className="modal__actions">
          {node.label !== null && (
            <button type="button" onClick={() => void save(null)}>
              Remove label
            </button>
          )}
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={length === 0 || tooLong !== null}>
            Save label
          </button>
        </div>
      </form>
    </Modal>
  )
}
