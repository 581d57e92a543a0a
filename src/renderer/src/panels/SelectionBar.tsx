// What can be done with the selected node: rewind to it, switch to its branch when it is off the
// active path, or label it. Read-only sessions (another process holds them) offer none of these.
import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { openBranchSwitch, openRewindPicker } from '../actions/rewind'
import { selectReadOnlyReason, selectRunning, useAppStore } from '../stores/app-store'
import { setCollapsed } from '../actions/session'
import { selectSelectedFold, selectSelectedNode, useGraphStore } from '../stores/graph-store'
import { LabelDialog } from './LabelDialog'

export function SelectionBar() {
  const node = useGraphStore(selectSelectedNode)
  const readOnly = useAppStore(selectReadOnlyReason) !== null
  const running = useAppStore(selectRunning)
  const fold = useGraphStore(useShallow(selectSelectedFold))
  const [labeling, setLabeling] = useState(false)
  if (node === null) return <div className="selection-bar muted">Nothing selected</div>
  const locked = readOnly || running
  return (
    <div className="selection-bar" aria-label="Selected node">
      <div className="selection-bar__title" title={node.title}>
        {node.title || '(empty)'}
      </div>
      <div className="selection-bar__actions">
        {node.kind === 'turn' && (
          <button type="button" disabled={locked} onClick={() => openRewindPicker(node.id)}>
            Rewind here
          </button>
        )}
        {!node.onActivePath && (
          <button type="button" disabled={locked} onClick={() => openBranchSwitch(node.id)}>
            Switch to this branch
          </button>
        )}
        <button type="button" disabled={readOnly} onClick={() => setLabeling(true)}>
          Label
        </button>
        {fold !== null && (
          <button
            type="button"
            aria-expanded={!fold.collapsed}
            onClick={() => setCollapsed(node.id, !fold.collapsed)}
          >
            {fold.collapsed ? `Expand (${fold.hidden} hidden)` : 'Collapse'}
          </button>
        )}
      </div>
      {labeling && <LabelDialog node={node} onClose={() => setLabeling(false)} />}
    </div>
  )
}
