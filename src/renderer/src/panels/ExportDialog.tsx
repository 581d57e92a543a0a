// Export…: which format, which part of the tree, then Export, which saves the file (a download).
// Markdown reads as one conversation, so it defaults to a branch; the page and the JSON hold the
// whole tree by default.
import { useState } from 'react'
import type { ExportFormat } from '../../../shared/views'
import { type ExportScope, exportSession } from '../actions/export'
import { selectSelectedNode, useGraphStore } from '../stores/graph-store'
import { Modal } from './Modal'

const FORMATS: { format: ExportFormat; name: string; description: string }[] = [
  {
    format: 'md',
    name: 'Markdown',
    description:
      'A branch as a document: prompts, answers, tool calls cut short, summaries, labels.'
  },
  {
    format: 'html',
    name: 'HTML page',
    description: 'One file that opens offline in any browser: the branches to navigate, every node.'
  },
  {
    format: 'json',
    name: 'JSON',
    description: 'The tree model, every node with its messages, for scripts.'
  }
]

type ScopeChoice = 'all' | 'active' | 'selected'

export function ExportDialog({ onClose }: { onClose: () => void }) {
  const selected = useGraphStore(selectSelectedNode)
  const [format, setFormat] = useState<ExportFormat>('md')
  const [scope, setScope] = useState<ScopeChoice>('active')
  const [exporting, setExporting] = useState(false)
  // The selected node's branch is a choice of its own only off the active branch.
  const offPath = selected !== null && !selected.onActivePath ? selected : null
  const chosen: ExportScope =
    scope === 'all'
      ? { kind: 'all' }
      : { kind: 'branch', nodeId: scope === 'selected' ? (offPath?.id ?? null) : null }
  const run = async () => {
    setExporting(true)
    if (await exportSession(format, chosen)) onClose()
    else setExporting(false)
  }
  return (
    <Modal title="Export" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void run()
        }}
      >
        <fieldset className="modes">
          <legend>Format</legend>
          {FORMATS.map((choice) => (
            <div key={choice.format} className="mode">
              <input
                type="radio"
                id={`export-${choice.format}`}
                name="export-format"
                checked={format === choice.format}
                aria-describedby={`export-${choice.format}-help`}
                onChange={() => {
                  setFormat(choice.format)
                  setScope(choice.format === 'md' ? 'active' : 'all')
                }}
              />
              <label htmlFor={`export-${choice.format}`}>{choice.name}</label>
              <p id={`export-${choice.format}-help`} className="mode__help">
                {choice.description}
              </p>
            </div>
          ))}
        </fieldset>
        <fieldset className="modes">
          <legend>What</legend>
          <ScopeRadio value="all" scope={scope} setScope={setScope} label="The whole tree" />
          <ScopeRadio value="active" scope={scope} setScope={setScope} label="The active branch" />
          {offPath !== null && (
            <ScopeRadio
              value="selected"
              scope={scope}
              setScope={setScope}
              label={`The branch through “${offPath.title || '(empty)'}”`}
            />
          )}
        </fieldset>
        <p className="muted">Strings that look like API keys are masked.</p>
        <div className="modal__actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={exporting}>
            Export
          </button>
        </div>
      </form>
    </Modal>
  )
}

function ScopeRadio({
  value,
  scope,
  setScope,
  label
}: {
  value: ScopeChoice
  scope: ScopeChoice
  setScope: (scope: ScopeChoice) => void
  label: string
}) {
  return (
    <div className="mode">
      <input
        type="radio"
        id={`export-scope-${value}`}
        name="export-scope"
        checked={scope === value}
        onChange={() => setScope(value)}
      />
      <label htmlFor={`export-scope-${value}`}>{label}</label>
    </div>
  )
}
