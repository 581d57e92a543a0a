// The next prompt. Enter sends, Shift+Enter starts a new line; after a conversation rewind the
// rewound prompt is back here to edit, with the focus. While the agent runs, Stop interrupts it
// and Send waits (disabled) beside it. Near the size limit the draft's size shows beside Send.
// Above the field, in words, where the prompt will go: after the node where the conversation
// stands, never after the one merely selected (Continue from here moves the conversation).
import { useEffect, useMemo, useRef, type RefObject } from 'react'
import { formatBytes, MAX_PROMPT_BYTES, utf8Length } from '../../../shared/prompt-limit'
import type { GraphNode } from '../../../shared/views'
import { sendPrompt, stopAgent } from '../actions/agent'
import { kindName } from '../graph/flow-model'
import { conversationTip, selectSelectedNode, useGraphStore } from '../stores/graph-store'
import {
  selectComposerFocusRequest,
  selectDraft,
  selectReadOnlyReason,
  selectRunning,
  useAppStore
} from '../stores/app-store'
import { WorkProgress } from './WorkProgress'

/** Where a prompt sent now goes, in words; the second part when another node is selected. */
export function whereItGoes(
  tip: GraphNode | null,
  tipNumber: number | null,
  selected: GraphNode | null
): { where: string; note: string | null } {
  if (tip === null) return { where: 'Starts the conversation.', note: null }
  const title = `“${tip.title || '(empty)'}”`
  const where =
    tip.kind === 'turn' && tipNumber !== null
      ? `After prompt ${tipNumber}: ${title}`
      : `After the ${kindName(tip).toLowerCase()} ${title}`
  const note =
    selected !== null && selected.id !== tip.id
      ? 'Not after the selected node: use “Continue from here” to move the conversation there.'
      : null
  return { where, note }
}

function WhereItGoes() {
  const tipId = useGraphStore(conversationTip)
  const tip = useGraphStore((s) => (tipId === null ? null : (s.nodesById.get(tipId) ?? null)))
  const tipNumber = useGraphStore((s) =>
    tipId === null ? null : (s.facts.get(tipId)?.promptNumber ?? null)
  )
  const selected = useGraphStore(selectSelectedNode)
  const { where, note } = whereItGoes(tip, tipNumber, selected)
  return (
    <div id="composer-where" className="composer__where-box">
      <p className="composer__where" title={where}>
        {where}
      </p>
      {note !== null && <p className="composer__note">{note}</p>}
    </div>
  )
}

const selectSetDraft = (s: ReturnType<typeof useAppStore.getState>) => s.setDraft

/** Takes the focus, caret at the end, each time the store asks for it. */
function useFocusOnRequest(ref: RefObject<HTMLTextAreaElement | null>): void {
  const request = useAppStore(selectComposerFocusRequest)
  useEffect(() => {
    const field = ref.current
    if (request === 0 || field === null) return
    field.focus()
    field.setSelectionRange(field.value.length, field.value.length)
  }, [request, ref])
}

/** From this size on, the draft shows its size against the limit. */
const SHOW_SIZE_FROM = MAX_PROMPT_BYTES * 0.9

/**
 * The draft's size in bytes of UTF-8 once it nears the limit, else null. A UTF-16 unit is at
 * most 3 bytes, so a draft too short to get there is not counted on each keystroke.
 */
function sizeNearLimit(draft: string): number | null {
  if (draft.length * 3 < SHOW_SIZE_FROM) return null
  const bytes = utf8Length(draft.trim())
  return bytes >= SHOW_SIZE_FROM ? bytes : null
}

function DraftSize({ bytes }: { bytes: number }) {
  const over = bytes > MAX_PROMPT_BYTES
  return (
    <span id="prompt-size" className={`composer__size${over ? ' composer__size--over' : ''}`}>
      {bytes.toLocaleString('en-US')} / {formatBytes(MAX_PROMPT_BYTES)}
      {over ? ': too long to send' : ''}
    </span>
  )
}

export function Composer() {
  const draft = useAppStore(selectDraft)
  const setDraft = useAppStore(selectSetDraft)
  const running = useAppStore(selectRunning)
  const readOnlyReason = useAppStore(selectReadOnlyReason)
  const field = useRef<HTMLTextAreaElement>(null)
  useFocusOnRequest(field)
  const disabled = readOnlyReason !== null
  const size = useMemo(() => sizeNearLimit(draft), [draft])
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault()
        void sendPrompt()
      }}
    >
      <WhereItGoes />
      <WorkProgress />
      <textarea
        ref={field}
        aria-label="Prompt"
        // The reason itself (long: it names the session file) is in the banner above.
        placeholder={
          disabled
            ? 'Read-only session: prompts cannot be sent from this window.'
            : 'Ask the agent… (Enter sends, Shift+Enter for a new line)'
        }
        value={draft}
        disabled={disabled}
        rows={3}
        aria-describedby={size === null ? 'composer-where' : 'composer-where prompt-size'}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            void sendPrompt()
          }
        }}
      />
      <div className="composer__actions">
        {size !== null && <DraftSize bytes={size} />}
        {running && (
          <button type="button" className="danger" onClick={() => void stopAgent()}>
            Stop
          </button>
        )}
        <button
          type="submit"
          className="primary"
          disabled={disabled || running || draft.trim() === ''}
        >
          Send
        </button>
      </div>
    </form>
  )
}
