// The workspace's sessions, newest first as the main process lists them.
import { newSession, openSession } from '../actions/session'
import { selectRunning, selectSessions, useAppStore } from '../stores/app-store'

function when(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })
}

export function SessionList() {
  const sessions = useAppStore(selectSessions)
  const running = useAppStore(selectRunning)
  return (
    <nav className="sessions" aria-label="Sessions">
      <div className="sessions__head">
        <h2>Sessions</h2>
        <button type="button" disabled={running} onClick={() => void newSession()}>
          New session
        </button>
      </div>
      <ul>
        {sessions.map((session) => (
          <li key={session.sessionId}>
            <button
              type="button"
              className={session.current ? 'session session--current' : 'session'}
              aria-current={session.current ? 'true' : undefined}
              disabled={(running && !session.current) || session.problem !== null}
              onClick={() => {
                if (!session.current) void openSession(session.sessionId)
              }}
            >
              <span className="session__title">
                {session.problem !== null
                  ? `Cannot open: ${session.problem}`
                  : (session.firstPrompt ?? '(no prompt yet)')}
              </span>
              <span className="session__meta">
                {when(session.createdAt)} · {session.prompts} prompt
                {session.prompts === 1 ? '' : 's'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
