// Two nodes side by side (or a node and the current files): the files that differ, each with its
// unified diff, and the two conversations from the node they last share, in two columns.
import { useMemo } from 'react'
import type { CompareFile, CompareView, TranscriptEntry } from '../../../shared/views'
import { closeCompare, loadCompareDiff } from '../actions/compare'
import { selectCompare, selectLoadedDiff, useCompareStore } from '../stores/compare-store'
import { toBlockViews } from '../stores/transcript-model'
import { compareButton } from '../focus'
import { DiffView } from './DiffView'
import { Modal } from './Modal'

const ROLE_NAMES: Record<TranscriptEntry['role'], string> = {
  user: 'You',
  assistant: 'Agent',
  summary: 'Summary',
  note: 'Note'
}

function FileEntry({ file }: { file: CompareFile }) {
  const loaded = useCompareStore(useMemo(() => selectLoadedDiff(file.path), [file.path]))
  const diff = file.diff ?? loaded
  return (
    <li>
      <details
        onToggle={(event) => {
          if (event.currentTarget.open && file.diff === null) void loadCompareDiff(file.path)
        }}
      >
        <summary>
          <code>{file.path}</code> <span className="muted">({file.change})</span>
          {file.note !== null && <span className="warning-chip">{file.note}</span>}
        </summary>
        {diff === undefined ? <p className="muted">Loading the diff…</p> : <DiffView diff={diff} />}
      </details>
    </li>
  )
}

/** One side's messages after the shared part: who said what, tool calls by name. */
function Conversation({ title, entries }: { title: string; entries: readonly TranscriptEntry[] }) {
  const shown = entries.filter((entry) => !entry.hidden)
  return (
    <section className="compare__side" aria-label={title}>
      <h3>{title}</h3>
      {shown.length === 0 && <p className="muted">Nothing after the shared part.</p>}
      {shown.map((entry) => {
        const blocks = toBlockViews(entry.content)
        const text = blocks
          .flatMap((b) => (b.kind === 'text' ? [b.text] : b.kind === 'tool' ? [`→ ${b.name}`] : []))
          .join('\n')
          .trim()
        if (text === '') return null
        return (
          <article key={entry.uuid} className={`message message--${entry.role}`}>
            <header className="message__role">{ROLE_NAMES[entry.role]}</header>
            <div className="message__text">{text}</div>
          </article>
        )
      })}
    </section>
  )
}

function CompareBody({ view }: { view: CompareView }) {
  return (
    <div className="compare">
      {view.caveat !== null && <p className="muted">{view.caveat}</p>}
      <section aria-label="Files that differ">
        <h3>Files that differ ({view.files.length})</h3>
        {view.files.length === 0 && <p className="muted">The files are the same at both.</p>}
        <ul className="file-list">
          {view.files.map((file) => (
            <FileEntry key={file.path} file={file} />
          ))}
        </ul>
      </section>
      <h3>Conversations since the node they share</h3>
      <div className="compare__sides">
        <Conversation title={`A: ${view.a.title}`} entries={view.conversation.a} />
        <Conversation title={`B: ${view.b.title}`} entries={view.conversation.b} />
      </div>
    </div>
  )
}

export function CompareDialog() {
  const compare = useCompareStore(selectCompare)
  if (compare.state === 'closed') return null
  return (
    // "Compare with this node" went away when it opened the dialog: "Compare…" takes the focus.
    <Modal title="Compare" onClose={closeCompare} wide returnFocus={compareButton}>
      {compare.state === 'loading' && <p aria-live="polite">Comparing…</p>}
      {compare.state === 'failed' && (
        <p role="alert" className="callout callout--error">
          Could not compare: {compare.message}
        </p>
      )}
      {compare.state === 'ready' && <CompareBody view={compare.view} />}
      <div className="modal__actions">
        <button type="button" onClick={closeCompare}>
          Close
        </button>
      </div>
    </Modal>
  )
}
