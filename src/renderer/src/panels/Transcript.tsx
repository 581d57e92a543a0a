// The transcript of the selected branch. The list subscribes to the order of message ids; each row
// subscribes to its own message, and each tool call to its own outcome, so a streamed token
// re-renders one line. Long transcripts show a window of rows around the selected turn.
// The studio masks API keys in what it sends; text still streaming arrives in pieces too small
// to recognise a key in, so it is masked here, whole, as it is drawn.
import { memo, useEffect, useMemo, useRef, useState } from 'react'
import { maskSecrets } from '../../../shared/mask-secrets'
import { selectSelectedId, useGraphStore } from '../stores/graph-store'
import {
  isToolResultCarrier,
  toolCallSubject,
  type BlockView,
  type EntryView
} from '../stores/transcript-model'
import {
  selectEntry,
  selectEntryNodeId,
  selectFirstIndexOf,
  selectOrder,
  selectToolOutcome,
  selectTranscriptLoading,
  useTranscriptStore
} from '../stores/transcript-store'

const WINDOW = 150

const ToolCall = memo(function ToolCall({ block }: { block: BlockView & { kind: 'tool' } }) {
  const outcome = useTranscriptStore(
    useMemo(() => selectToolOutcome(block.toolUseId), [block.toolUseId])
  )
  const state = outcome?.state ?? 'running'
  return (
    <details className={`tool tool--${state}`}>
      <summary>
        <span className="tool__name">{block.name || 'tool'}</span>
        <span className="tool__subject">{toolCallSubject(block.inputText)}</span>
        <span className="tool__state">
          {state === 'running' ? 'running…' : state === 'error' ? 'failed' : 'done'}
        </span>
      </summary>
      <div className="tool__body">
        <h4>Input</h4>
        <pre>{maskSecrets(block.inputText)}</pre>
        {outcome !== undefined && outcome.state !== 'running' && (
          <>
            <h4>Result</h4>
            <pre>{outcome.text}</pre>
          </>
        )}
      </div>
    </details>
  )
})

function Block({ block }: { block: BlockView }) {
  switch (block.kind) {
    case 'text':
      return <div className="message__text">{maskSecrets(block.text)}</div>
    case 'thinking':
      return (
        <details className="thinking">
          <summary>Thinking</summary>
          <div className="message__text">{maskSecrets(block.text)}</div>
        </details>
      )
    case 'tool':
      return <ToolCall block={block} />
    case 'tool_result':
      return null
    case 'other':
      return <div className="muted">[{block.type}]</div>
  }
}

const ROLE_NAMES: Record<EntryView['role'], string> = {
  user: 'You',
  assistant: 'Agent',
  summary: 'Summary',
  note: 'Note'
}

const MessageRow = memo(function MessageRow({
  uuid,
  selected
}: {
  uuid: string
  selected: boolean
}) {
  const entry = useTranscriptStore(useMemo(() => selectEntry(uuid), [uuid]))
  if (entry === undefined || entry.hidden || isToolResultCarrier(entry)) return null
  return (
    <article
      className={`message message--${entry.role}${selected ? ' message--selected' : ''}`}
      aria-label={`${ROLE_NAMES[entry.role]}${entry.streaming ? ' (streaming)' : ''}`}
      data-node-id={entry.nodeId}
    >
      <header className="message__role">{ROLE_NAMES[entry.role]}</header>
      {entry.blocks.map((block, i) => (
        <Block key={i} block={block} />
      ))}
      {entry.streaming && <span className="cursor" aria-hidden="true" />}
    </article>
  )
})

export function Transcript() {
  const order = useTranscriptStore(selectOrder)
  const loading = useTranscriptStore(selectTranscriptLoading)
  const selectedId = useGraphStore(selectSelectedId)
  const anchor = useTranscriptStore(useMemo(() => selectFirstIndexOf(selectedId), [selectedId]))
  // Rows shown beyond the window, reset whenever another node is selected.
  const [more, setMore] = useState({ forId: selectedId, before: 0, after: 0 })
  const extra = more.forId === selectedId ? more : { before: 0, after: 0 }
  const showMore = (side: 'before' | 'after') =>
    setMore({ ...extra, forId: selectedId, [side]: extra[side] + WINDOW })
  const listRef = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const follow = anchor < 0 || anchor >= order.length - WINDOW

  // The window: around the selected turn, or the end of the branch while it grows.
  const end = follow ? order.length : Math.min(order.length, anchor + WINDOW)
  const start = Math.max(0, end - WINDOW - extra.before)
  const shown = order.slice(start, Math.min(order.length, end + extra.after))

  // A new selection brings its first message to the top of the panel, once: when its branch's
  // transcript arrives later, on arrival; streamed messages after that leave the scroll alone.
  const scrolledFor = useRef<string | null>(null)
  useEffect(() => {
    const list = listRef.current
    if (list === null || selectedId === null || scrolledFor.current === selectedId) return
    const row = list.querySelector(`[data-node-id="${CSS.escape(selectedId)}"]`)
    if (row === null) return
    row.scrollIntoView({ block: 'start' })
    scrolledFor.current = selectedId
  }, [selectedId, order])

  // Streaming: a reader at the bottom stays at the bottom; one who scrolled up is left alone.
  useEffect(() => {
    const list = listRef.current
    if (list !== null && atBottom.current) list.scrollTop = list.scrollHeight
  }, [order.length])

  return (
    <div
      className="transcript"
      ref={listRef}
      // Focusable, so the keyboard scrolls it (arrows, Page Up/Down) like the mouse wheel does.
      tabIndex={0}
      role="region"
      aria-label="Messages"
      aria-busy={loading}
      onScroll={(event) => {
        const list = event.currentTarget
        atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 40
      }}
    >
      {start > 0 && (
        <button type="button" className="link" onClick={() => showMore('before')}>
          Show earlier messages ({start})
        </button>
      )}
      {order.length === 0 && !loading && <p className="muted">No messages on this branch yet.</p>}
      {shown.map((uuid) => (
        <MessageRowForNode key={uuid} uuid={uuid} selectedId={selectedId} />
      ))}
      {end + extra.after < order.length && (
        <button type="button" className="link" onClick={() => showMore('after')}>
          Show later messages ({order.length - end - extra.after})
        </button>
      )}
    </div>
  )
}

/** Passes a boolean, not the selected id, so a selection change re-renders only two turns' rows. */
function MessageRowForNode({ uuid, selectedId }: { uuid: string; selectedId: string | null }) {
  const nodeId = useTranscriptStore(useMemo(() => selectEntryNodeId(uuid), [uuid]))
  return <MessageRow uuid={uuid} selected={nodeId !== undefined && nodeId === selectedId} />
}
