// The next prompt. Enter sends, Shift+Enter starts a new line; after a conversation rewind the
// rewound prompt is back here to edit, with the focus. While the agent runs, Stop interrupts it
// and Send waits (disabled) beside it.
import { useEffect, useRef, type RefObject } from 'react'
import { sendPrompt, stopAgent } from '../actions/agent'
import {
  selectComposerFocusRequest,
  selectDraft,
  selectReadOnlyReason,
  selectRunning,
  useAppStore
} from '../stores/app-store'

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

export function Composer() {
  const draft = useAppStore(selectDraft)
  const setDraft = useAppStore(selectSetDraft)
  const running = useAppStore(selectRunning)
  const readOnlyReason = useAppStore(selectReadOnlyReason)
  const field = useRef<HTMLTextAreaElement>(null)
  useFocusOnRequest(field)
  const disabled = readOnlyReason !== null
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault()
        void sendPrompt()
      }}
    >
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
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            void sendPrompt()
          }
        }}
      />
      <div className="composer__actions">
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
