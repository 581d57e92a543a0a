// The left column. "This workspace": its sessions from every tool (ours, Claude Code, pi,
// oh-my-pi, Codex CLI, Gemini CLI, OpenCode), newest first as the main process lists them, each with a badge for its source.
// "All projects": every project found in those tools' homes with its session count; opening one
// makes it the workspace. "Shared": the sessions shared through the workspace's git remote
// (SharedSessions.tsx).
import { memo, useState } from 'react'
import type { SessionSummary } from '../../../shared/views'
import { openForeignSession } from '../actions/foreign'
import { newSession, openSession } from '../actions/session'
import { loadProjects, openFolder, openWorkspace } from '../actions/workspace'
import { groupedNumber } from '../../../shared/grouped-number'
import { selectFilling, selectRunning, selectSessions, useAppStore } from '../stores/app-store'
import { SOURCE_NAMES } from './ForeignBar'
import { SharedSessions } from './SharedSessions'
import { counted } from '../../../shared/counted'

function when(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })
}

function open(session: SessionSummary): void {
  if (session.current) return
  if (session.source === 'rewind-studio') void openSession(session.sessionId)
  else void openForeignSession(session.file)
}

// Memoized: while the list fills, each step re-renders the list, and only its new items change.
const SessionItem = memo(function SessionItem({
  session,
  running
}: {
  session: SessionSummary
  running: boolean
}) {
  return (
    <li>
      <button
        type="button"
        className={session.current ? 'session session--current' : 'session'}
        aria-current={session.current ? 'true' : undefined}
        disabled={(running && !session.current) || session.problem !== null}
        onClick={() => open(session)}
      >
        <span className="session__title">
          <span className={`source source--${session.source}`}>{SOURCE_NAMES[session.source]}</span>{' '}
          {session.problem !== null
            ? `Cannot open: ${session.problem}`
            : (session.title ?? session.firstPrompt ?? '(no prompt yet)')}
        </span>
        <span className="session__meta">
          {when(session.lastActivity)} · {counted(session.prompts, 'prompt')}
        </span>
      </button>
    </li>
  )
})

/**
 * While the list fills, the newest this many found so far: laying out thousands again at each
 * step took the CPU the build it waits for needs (10,000 sessions: filled in 2.6x the build).
 */
const FILLING_SHOWN = 200

/**
 * The workspace's sessions; while the main process builds a cold index, the sessions found so
 * far under how far it is (session:listStep), until session:list answers the whole list.
 */
function WorkspaceSessions({ running }: { running: boolean }) {
  const sessions = useAppStore(selectSessions)
  const filling = useAppStore(selectFilling)
  return (
    <>
      {filling !== null && (
        <div className="indexing-progress" role="status">
          <span>
            Indexing sessions: {groupedNumber(filling.done)} of {groupedNumber(filling.total)}
          </span>
          <progress
            aria-label="Session files indexed"
            value={filling.done}
            max={Math.max(1, filling.total)}
          />
        </div>
      )}
      <ul aria-label="Sessions of this workspace" aria-busy={filling !== null}>
        {(filling === null ? sessions : filling.sessions.slice(0, FILLING_SHOWN)).map((session) => (
          <SessionItem key={session.file} session={session} running={running} />
        ))}
      </ul>
    </>
  )
}

function AllProjects({ running }: { running: boolean }) {
  const projects = useAppStore((s) => s.projects)
  const workspace = useAppStore((s) => s.info?.workspace ?? null)
  if (projects === null) return <p className="muted">Looking for projects…</p>
  if (projects.length === 0) return <p className="muted">No project found in the tools’ homes.</p>
  return (
    <ul aria-label="All projects">
      {projects.map((project) => (
        <li key={project.cwd}>
          <button
            type="button"
            className={project.cwd === workspace ? 'session session--current' : 'session'}
            aria-current={project.cwd === workspace ? 'true' : undefined}
            disabled={running}
            title={project.cwd}
            onClick={() => {
              if (project.cwd !== workspace) void openWorkspace(project.cwd)
            }}
          >
            <span className="session__title">{project.cwd}</span>
            <span className="session__meta">
              {counted(project.sessions, 'session')} ·{' '}
              {project.folders.map((f) => `${SOURCE_NAMES[f.source]} ${f.sessions}`).join(', ')} ·{' '}
              {when(project.lastActivity)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}

export function SessionList() {
  const running = useAppStore(selectRunning)
  const [view, setView] = useState<'workspace' | 'projects' | 'shared'>('workspace')
  const show = (next: typeof view) => {
    setView(next)
    if (next === 'projects') void loadProjects()
  }
  return (
    <nav className="sessions" aria-label="Sessions">
      <div className="sessions__head">
        <h2>Sessions</h2>
        <button type="button" disabled={running} onClick={() => void newSession()}>
          New session
        </button>
      </div>
      <button type="button" disabled={running} onClick={() => void openFolder()}>
        Open folder…
      </button>
      <div className="sessions__views" role="group" aria-label="Show">
        <button type="button" aria-pressed={view === 'workspace'} onClick={() => show('workspace')}>
          This workspace
        </button>
        <button type="button" aria-pressed={view === 'projects'} onClick={() => show('projects')}>
          All projects
        </button>
        <button type="button" aria-pressed={view === 'shared'} onClick={() => show('shared')}>
          Shared
        </button>
      </div>
      {view === 'workspace' && <WorkspaceSessions running={running} />}
      {view === 'projects' && <AllProjects running={running} />}
      {view === 'shared' && <SharedSessions />}
    </nav>
  )
}
