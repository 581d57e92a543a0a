// The agent asks before a tool call the permission mode does not allow on its own.
import { answerPermission } from '../actions/agent'
import { selectFirstPermission, useAppStore } from '../stores/app-store'

export function PermissionPrompt() {
  const request = useAppStore(selectFirstPermission)
  if (request === null) return null
  return (
    <section className="permission" role="alertdialog" aria-label="Permission request">
      <p>
        The agent asks to run: <strong>{request.summary}</strong>
      </p>
      <details>
        <summary>Input</summary>
        <pre>{JSON.stringify(request.input, null, 2)}</pre>
      </details>
      <div className="permission__actions">
        <button type="button" onClick={() => void answerPermission(request.requestId, false)}>
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
