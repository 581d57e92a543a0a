// Notices on the page: one per message showing, an announced warning once a page, and a warning
// the main process stops giving goes from the page.
import { beforeEach, describe, expect, it } from 'vitest'
import { fixedInfo } from '../../../../test/support/recording-handlers'
import type { AppInfo, SessionSummary } from '../../../shared/views'
import { useAppStore } from './app-store'

const initial = useAppStore.getState()

/** app:info as the main process gives it, with `notices`. */
const infoWith = (notices: string[]): AppInfo => ({ ...fixedInfo, notices })

const messages = () => useAppStore.getState().notices.map((n) => n.message)

describe('notices', () => {
  beforeEach(() => useAppStore.setState(initial, true))

  it('shows a message once while it is showing, and again once dismissed', () => {
    const { notify } = useAppStore.getState()
    notify('error', 'Stopped following the file')
    notify('error', 'Stopped following the file')
    expect(messages()).toEqual(['Stopped following the file'])
    const [shown] = useAppStore.getState().notices
    useAppStore.getState().dismissNotice(shown?.id ?? -1)
    notify('error', 'Stopped following the file')
    expect(messages()).toEqual(['Stopped following the file'])
  })

  it('keeps the last five', () => {
    for (let i = 1; i <= 7; i++) useAppStore.getState().notify('info', `notice ${i}`)
    expect(messages()).toEqual(['notice 3', 'notice 4', 'notice 5', 'notice 6', 'notice 7'])
  })

  it('announces a warning once a page, even after it is dismissed', () => {
    const { announce } = useAppStore.getState()
    announce('warning', 'No API key')
    const [shown] = useAppStore.getState().notices
    useAppStore.getState().dismissNotice(shown?.id ?? -1)
    announce('warning', 'No API key')
    expect(messages()).toEqual([])
  })

  it('does not announce what an event already shows (the event, then app:info)', () => {
    useAppStore.getState().notify('error', 'Stopped following the file')
    useAppStore.getState().announce('error', 'Stopped following the file')
    expect(messages()).toEqual(['Stopped following the file'])
    // Announced all the same: dismissed, it does not come back with the next app:info.
    const [shown] = useAppStore.getState().notices
    useAppStore.getState().dismissNotice(shown?.id ?? -1)
    useAppStore.getState().announce('error', 'Stopped following the file')
    expect(messages()).toEqual([])
  })

  it('drops a warning app:info no longer gives, and announces it again should it return', () => {
    const { setInfo, announce } = useAppStore.getState()
    setInfo(infoWith(['No API key']))
    announce('warning', 'No API key')
    expect(messages()).toEqual(['No API key'])
    setInfo(infoWith([]))
    expect(messages()).toEqual([])
    setInfo(infoWith(['No API key']))
    useAppStore.getState().announce('warning', 'No API key')
    expect(messages()).toEqual(['No API key'])
  })
})

describe('the session list filling as the main process builds it', () => {
  beforeEach(() => useAppStore.setState(initial, true))

  const session = (file: string, lastActivity: string): SessionSummary => ({
    sessionId: file,
    file,
    source: 'rewind-studio',
    createdAt: lastActivity,
    lastActivity,
    title: file,
    firstPrompt: file,
    prompts: 1,
    current: false,
    problem: null
  })
  const shown = () => useAppStore.getState().filling?.sessions.map((s) => s.file)

  it('holds each step’s sessions newest first, each once, until session:list answers', () => {
    const app = useAppStore.getState()
    app.setInfo(infoWith([]))
    const step = (sessions: SessionSummary[], done: number) =>
      useAppStore.getState().receiveListStep({
        workspace: fixedInfo.workspace,
        sessions,
        done,
        total: 10
      })
    step([session('a', '2026-01-01T00:01:00Z'), session('c', '2026-01-01T00:03:00Z')], 2)
    step([session('b', '2026-01-01T00:02:00Z'), session('a', '2026-01-01T00:01:00Z')], 4)
    expect(shown()).toEqual(['c', 'b', 'a'])
    expect(useAppStore.getState().filling).toMatchObject({ done: 4, total: 10 })
    // Another workspace's steps (one another window left) are not this list's.
    useAppStore.getState().receiveListStep({
      workspace: '/elsewhere',
      sessions: [session('z', '2026-01-01T00:09:00Z')],
      done: 1,
      total: 1
    })
    expect(shown()).toEqual(['c', 'b', 'a'])
    useAppStore.getState().setSessions([session('d', '2026-01-01T00:04:00Z')])
    expect(useAppStore.getState().filling).toBeNull()
    expect(useAppStore.getState().sessions.map((s) => s.file)).toEqual(['d'])
  })
})

describe('the run, from events and from app:info', () => {
  beforeEach(() => useAppStore.setState(initial, true))

  const idle: AppInfo = { ...fixedInfo, running: false, pendingPermissions: [] }

  it('keeps a run that started after the app:info now applied was asked for', () => {
    const app = useAppStore.getState()
    const askedAt = app.statusEvents
    // A prompt was sent while the session loaded: the run's start came before the answer.
    app.setRunning(true)
    useAppStore.getState().setInfo(idle, askedAt)
    expect(useAppStore.getState().running).toBe(true)
    // The info itself is taken (its notices, its model...).
    expect(useAppStore.getState().info).toBe(idle)
  })

  it('takes the run from an app:info asked after the last event', () => {
    useAppStore.getState().setRunning(true)
    const askedAt = useAppStore.getState().statusEvents
    useAppStore.getState().setInfo(idle, askedAt)
    expect(useAppStore.getState().running).toBe(false)
  })
})
