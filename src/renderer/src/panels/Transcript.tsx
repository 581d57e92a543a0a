// The transcript of the selected branch. The list subscribes to the order of message ids; each row
// subscribes to its own message, and each tool call to its own outcome, so a streamed token
// re-renders one line. A long branch is held as a window of it (stores/transcript-store.ts): the
// rows drawn are the ones held, more fetched as the reader nears either edge.
// The studio masks API keys in what it sends; text still streaming arrives in pieces too small
// to recognise a key in, so it is masked here, whole, as it is drawn.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { shownText } from '../../../shared/shown-text'
import { Markdown } from './Markdown'
import { loadMoreTranscript, type TranscriptWant } from '../actions/session'
import { selectIsRunning, selectSelectedId, useGraphStore } from '../stores/graph-store'
import {
  isToolResultCarrier,
  toolCallSubject,
  type BlockView,
  type EntryView
} from '../stores/transcript-model'
import {
  selectEarlierCount,
  selectEntry,
  selectEntryNodeId,
  selectLaterCount,
  selectOrder,
  selectToolOutcome,
  selectTranscriptLoading,
  useTranscriptStore
} from '../stores/transcript-store'

const TOOL_STATES = {
  running: 'running…',
  error: 'failed',
  done: 'done',
  unanswered: 'no result'
} as const

const ToolCall = memo(function ToolCall({
  block,
  nodeId
}: {
  block: BlockView & { kind: 'tool' }
  nodeId: string
}) {
  const outcome = useTranscriptStore(
    useMemo(() => selectToolOutcome(block.toolUseId), [block.toolUseId])
  )
  // A call with no result yet is running only in the turn running now: in a turn that stopped
  // (the agent crashed, another tool's session ended mid-call) it never got one.
  const turnRunning = useGraphStore(useMemo(() => selectIsRunning(nodeId), [nodeId]))
  const state = outcome?.state ?? (turnRunning ? 'running' : 'unanswered')
  const live = state === 'running' && outcome !== undefined ? outcome : null
  return (
    <>
      <details className={`tool tool--${state}`}>
        <summary>
          <span className="tool__name">{block.name || 'tool'}</span>
          <span className="tool__subject">{toolCallSubject(block.inputText)}</span>
          <span className="tool__state">
            {TOOL_STATES[state]}
            {live?.startedAt !== undefined && <Elapsed since={live.startedAt} />}
          </span>
        </summary>
        <div className="tool__body">
          <h4>Input</h4>
          <pre>{shownText(block.inputText)}</pre>
          {outcome !== undefined && outcome.state !== 'running' && (
            <>
              <h4>Result</h4>
              <pre>{outcome.text}</pre>
            </>
          )}
        </div>
      </details>
      {/* Beside the folded body: what a running command prints is in sight as it comes. */}
      {live !== null && live.text !== '' && (
        <pre className="tool__live" role="log" aria-label={`Output of ${block.name || 'tool'}`}>
          {shownText(live.text)}
        </pre>
      )}
    </>
  )
})

/** Seconds since `since`, counted up once a second while the call runs. */
function Elapsed({ since }: { since: string }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  const seconds = Math.max(0, Math.floor((now - Date.parse(since)) / 1000))
  return <span className="tool__elapsed"> {formatElapsed(seconds)}</span>
}

function formatElapsed(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  return minutes === 0 ? `${seconds} s` : `${minutes} min ${seconds % 60} s`
}

/** The roles whose text is Markdown: the agent's answers and the summaries (a prompt is as typed). */
const MARKDOWN_ROLES: ReadonlySet<EntryView['role']> = new Set(['assistant', 'summary'])

function Block({ block, entry }: { block: BlockView; entry: EntryView }) {
  const nodeId = entry.nodeId
  switch (block.kind) {
    case 'text':
      return MARKDOWN_ROLES.has(entry.role) ? (
        <Markdown text={block.text} />
      ) : (
        <div className="message__text">{shownText(block.text)}</div>
      )
    case 'thinking':
      return (
        <details className="thinking">
          <summary>Thinking</summary>
          <div className="message__text">{shownText(block.text)}</div>
        </details>
      )
    case 'tool':
      return <ToolCall block={block} nodeId={nodeId} />
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
      data-uuid={uuid}
    >
      <header className="message__role">{ROLE_NAMES[entry.role]}</header>
      {entry.blocks.map((block, i) => (
        <Block key={i} block={block} entry={entry} />
      ))}
      {entry.streaming && <span className="cursor" aria-hidden="true" />}
    </article>
  )
})

/** How near (px) the held window's edge the reader gets before more of the branch is fetched. */
const FETCH_MARGIN = 600

/** Where a row stands from the list's top edge, in pixels. */
function topIn(list: HTMLElement, row: Element): number {
  return row.getBoundingClientRect().top - list.getBoundingClientRect().top
}

export function Transcript() {
  const order = useTranscriptStore(selectOrder)
  const loading = useTranscriptStore(selectTranscriptLoading)
  const earlier = useTranscriptStore(selectEarlierCount)
  const later = useTranscriptStore(selectLaterCount)
  const selectedId = useGraphStore(selectSelectedId)
  const listRef = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  // The first row in view and where it stood: rows added or let go above it leave it there.
  const reference = useRef<{ uuid: string; top: number } | null>(null)

  const rememberReference = () => {
    const list = listRef.current
    if (list === null) return
    for (const row of list.querySelectorAll<HTMLElement>('article[data-uuid]')) {
      const top = topIn(list, row)
      if (top + row.offsetHeight > 0) {
        reference.current = { uuid: row.dataset.uuid as string, top }
        return
      }
    }
    reference.current = null
  }

  useLayoutEffect(() => {
    const list = listRef.current
    const kept = reference.current
    if (list !== null && kept !== null) {
      const row = list.querySelector(`article[data-uuid="${CSS.escape(kept.uuid)}"]`)
      if (row !== null) list.scrollTop += topIn(list, row) - kept.top
    }
    rememberReference()
  }, [order])

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
    rememberReference()
  }, [selectedId, order])

  // Streaming: a reader at the branch's end stays there; one who scrolled up is left alone.
  useEffect(() => {
    const list = listRef.current
    if (list !== null && atBottom.current && later === 0) list.scrollTop = list.scrollHeight
  }, [order.length, later])

  // The side the reader is near, when more of the branch lies beyond it; asked on every scroll,
  // and again whenever the window changed (after the effects above placed the scroll): setting
  // the scroll where it already is fires no event, so an edge reached while a fetch was out
  // would otherwise wait for another scroll.
  const want = useCallback<TranscriptWant>(() => {
    const list = listRef.current
    if (list === null) return null
    const held = useTranscriptStore.getState()
    const below = list.scrollHeight - list.scrollTop - list.clientHeight
    if (list.scrollTop < FETCH_MARGIN && selectEarlierCount(held) > 0) return 'earlier'
    if (below < FETCH_MARGIN && selectLaterCount(held) > 0) return 'later'
    return null
  }, [])
  useEffect(() => void loadMoreTranscript(want), [want, order, earlier, later])

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
        const below = list.scrollHeight - list.scrollTop - list.clientHeight
        atBottom.current = below < 40
        rememberReference()
        void loadMoreTranscript(want)
      }}
    >
      {earlier > 0 && (
        <button
          type="button"
          className="link"
          onClick={() => void loadMoreTranscript(() => 'earlier')}
        >
          Show earlier messages ({earlier})
        </button>
      )}
      {order.length === 0 && !loading && <p className="muted">No messages on this branch yet.</p>}
      {order.map((uuid) => (
        <MessageRowForNode key={uuid} uuid={uuid} selectedId={selectedId} />
      ))}
      {later > 0 && (
        <button
          type="button"
          className="link"
          onClick={() => void loadMoreTranscript(() => 'later')}
        >
          Show later messages ({later})
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
