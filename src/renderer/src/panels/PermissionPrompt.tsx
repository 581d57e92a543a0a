// The agent asks before a tool call the permission mode does not allow on its own. The question
// takes the focus (on Deny: a stray Enter typed for the composer must not allow a write), and
// gives it back once answered, to where it was or else the composer.
//
// What is approved is shown whole and open, never folded away: every line of the command (or the
// content a Write puts in), in a box that scrolls when it is long, with its line count, and
// control and bidi characters written out (`\x1b`, `\r`, `\u202e`): a `\r` or a bidi override
// cannot make one line look like another. Never masked: the user reads exactly what runs.
import { useEffect, useRef } from 'react'
import { escapeControlChars, escapeControlCharsOneLine } from '../../../shared/control-chars'
import type { PermissionRequest } from '../../../shared/views'
import { answerPermission } from '../actions/agent'
import { composerField } from '../focus'
import { selectFirstPermission, useAppStore } from '../stores/app-store'

function focusBack(element: HTMLElement | null): void {
  const target =
    element?.isConnected === true && element !== document.body ? element : composerField()
  target?.focus()
}

function WholeText({ detail }: { detail: NonNullable<PermissionRequest['detail']> }) {
  const lines = detail.text.split('\n').length
  const caption = `${detail.label}, ${lines} line${lines === 1 ? '' : 's'}`
  return (
    <figure className="permission__detail">
      <figcaption>{caption}</figcaption>
      {/* Focusable, so the keyboard can scroll it; named by its caption. */}
      <pre tabIndex={0} aria-label={caption}>
        {escapeControlChars(detail.text)}
      </pre>
    </figure>
  )
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
        The agent asks to run: <strong>{escapeControlCharsOneLine(request.summary)}</strong>
      </p>
      {request.detail !== null && <WholeText detail={request.detail} />}
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
