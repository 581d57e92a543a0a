// The agent asks before a tool call the permission mode does not allow on its own. The question
// takes the focus (on Deny: a stray Enter typed for the composer must not allow a write), and
// gives it back once answered, to where it was or else the composer.
import { useEffect, useRef } from 'react'
import { answerPermission } from '../actions/agent'
import { selectFirstPermission, useAppStore } from '../stores/app-store'

function focusBack(element: HTMLElement | null): void {
  const target =
    element?.isConnected === true && element !== document.body
      ? element
      : document.querySelector<HTMLElement>('textarea[aria-label="Prompt"]')
  target?.focus()
}

export function PermissionPrompt() {
  const request = useAppStore(selectFirstPermission)
  const deny = useRef<HTMLButtonElement>(null)
  const returnTo = useRef<HTMLElement | null>(null)
  const requestId = request?.requestId ?? null
  useEffect(() => {
    if (requestId === null) {
      if (returnTo.current !== null) focusBack(returnTo.current)
      returnTo.current = null
      return
    }
    // A question after a question keeps the first one's place to return to.
    if (returnTo.current === null && document.activeElement instanceof HTMLElement) {
      returnTo.current = document.activeElement
    }
    deny.current?.focus()
  }, [requestId])
  if (request === null) return null
  return (
    <section
      className="permission"
      role="alertdialog"
      aria-label="Permission request"
      aria-describedby="permission-question"
    >
      <p id="permission-question">
        The agent asks to run: <strong>{request.summary}</strong>
      </p>
      <details>
        <summary>Input</summary>
        <pre>{JSON.stringify(request.input, null, 2)}</pre>
      </details>
      <div className="permission__actions">
        <button
          ref={deny}
          type="button"
          onClick={() => void answerPermission(request.requestId, false)}
        >
          Deny
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void answerPermission(request.requestId, true)}
        >
          Allow
        </button>
      </div>
    </section>
  )
}
