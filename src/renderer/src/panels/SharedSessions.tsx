// Shared sessions (the session column): what the workspace's git remote holds under
// refs/rewind-studio/, from the summaries alone (a few hundred bytes a session), each with who
// shared it, when and on which code. Opening one pulls it (its log and backups) and shows it
// read-only; Continue from here or Fork on any of its nodes makes a session of one's own. The
// list is asked for when shown and on Refresh: it talks to the network.
import { useEffect, useState } from 'react'
import type { SharedSession } from '../../../shared/share-views'
import { formatBytes } from '../../../shared/prompt-limit'
import { type SharedListState, loadShared, openShared } from '../actions/share'
import { selectRunning, useAppStore } from '../stores/app-store'
import { RemotePicker } from './RemotePicker'

function when(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })
}

function SharedItem({
  session,
  remote,
  current,
  disabled
}: {
  session: SharedSession
  remote: string
  current: boolean
  disabled: boolean
}) {
  const [opening, setOpening] = useState(false)
  const open = async () => {
    setOpening(true)
    await openShared(session.sessionId, remote)
    setOpening(false)
  }
  return (
    <li>
      <button
        type="button"
        className={current ? 'session session--current' : 'session'}
        aria-current={current ? 'true' : undefined}
        disabled={disabled || opening}
        onClick={() => void open()}
      >
        <span className="session__title">
          <span className="source source--shared">Shared</span> {session.title || '(no prompt)'}
        </span>
        <span className="session__meta">
          {opening ? 'Pulling…' : `by ${session.sharedBy} · ${when(session.sharedAt)}`}
        </span>
        <span className="session__meta">
          {session.turns} turns · {session.files} files · {formatBytes(session.bytes)}
          {session.code !== null &&
            ` · ${session.code.branch ?? 'detached'} ${session.code.commit.slice(0, 7)}`}
          {session.pulled && ' · pulled'}
          {session.ours && ' · yours'}
        </span>
      </button>
    </li>
  )
}

export function SharedSessions() {
  const running = useAppStore(selectRunning)
  const shownId = useAppStore((s) => s.info?.shared?.sessionId ?? null)
  const [remote, setRemote] = useState<string | null>(null)
  // Each Refresh asks again; only the answer to the latest ask is shown.
  const [asks, setAsks] = useState(0)
  const key = `${remote ?? ''} ${asks}`
  const [answer, setAnswer] = useState<{ key: string; list: SharedListState } | null>(null)
  useEffect(() => {
    void loadShared(remote).then((loaded) => setAnswer({ key, list: loaded }))
  }, [key, remote])
  const list: SharedListState = answer?.key === key ? answer.list : { state: 'loading' }
  const ready = list.state === 'ready' ? list.list : null
  return (
    <section aria-label="Shared sessions" className="shared">
      <div className="sessions__head">
        <h3>Shared sessions</h3>
        <button
          type="button"
          disabled={list.state === 'loading'}
          onClick={() => setAsks((n) => n + 1)}
        >
          Refresh
        </button>
      </div>
      {ready !== null && (
        <RemotePicker remotes={ready.remotes} remote={ready.remote} onChange={setRemote} />
      )}
      {list.state === 'loading' && <p className="muted">Asking the remote…</p>}
      {list.state === 'failed' && (
        <p role="alert" className="callout callout--error">
          {list.message}
        </p>
      )}
      {ready !== null && ready.sessions.length === 0 && (
        <p className="muted">{ready.remote} holds no shared session yet: Share… sends this one.</p>
      )}
      {ready !== null && ready.sessions.length > 0 && (
        <ul aria-label={`Sessions shared on ${ready.remote}`}>
          {ready.sessions.map((session) => (
            <SharedItem
              key={session.sessionId}
              session={session}
              remote={ready.remote}
              current={session.sessionId === shownId}
              disabled={running}
            />
          ))}
        </ul>
      )}
    </section>
  )
}
