// The next prompt. Enter sends, Shift+Enter starts a new line; after a conversation rewind the
// rewound prompt is back here to edit. Stop interrupts a running agent.
import { sendPrompt, stopAgent } from '../actions/agent'
import { selectDraft, selectReadOnlyReason, selectRunning, useAppStore } from '../stores/app-store'

const selectSetDraft = (s: ReturnType<typeof useAppStore.getState>) => s.setDraft

export function Composer() {
  const draft = useAppStore(selectDraft)
  const setDraft = useAppStore(selectSetDraft)
  const running = useAppStore(selectRunning)
  const readOnlyReason = useAppStore(selectReadOnlyReason)
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
        aria-label="Prompt"
        placeholder={
          disabled ? readOnlyReason : 'Ask the agent… (Enter sends, Shift+Enter for a new line)'
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
        {running ? (
          <button type="button" className="danger" onClick={() => void stopAgent()}>
            Stop
          </button>
        ) : (
          <button type="submit" className="primary" disabled={disabled || draft.trim() === ''}>
            Send
          </button>
        )}
      </div>
    </form>
  )
}
