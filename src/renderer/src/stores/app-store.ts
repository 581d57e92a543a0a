// Everything about the open session that is not the graph or the transcript: what the main
// process told us (info, sessions), whether the agent runs, its permission questions, notices,
// the composer's draft and which side panel is showing.
import { create } from 'zustand'
import type {
  AppInfo,
  ContextUsage,
  PermissionRequest,
  ProjectSummary,
  RecentWorkspace,
  SessionListStep,
  SessionSummary
} from '../../../shared/views'

export interface Notice {
  id: number
  level: 'info' | 'warning' | 'error'
  message: string
}

export type SidePanel = 'transcript' | 'inspector' | 'timeline'

interface AppStore {
  info: AppInfo | null
  sessions: readonly SessionSummary[]
  /**
   * The list while the main process builds it (session:listStep): the sessions found so far,
   * newest first, and how many of the workspace's files are done; null once session:list
   * answered (its answer is `sessions`).
   */
  filling: { sessions: readonly SessionSummary[]; done: number; total: number } | null
  /** All projects (null until asked for) and the recent workspaces, for the workspace views. */
  projects: readonly ProjectSummary[] | null
  recent: readonly RecentWorkspace[]
  openFolderOpen: boolean
  running: boolean
  /**
   * How many run status events this page has had: an app:info asked before the last of them is
   * older than it about the run (see setInfo).
   */
  statusEvents: number
  /** An undo or a redo is under way: Undo and Redo take no second click meanwhile. */
  walkingTimeline: boolean
  permissions: readonly PermissionRequest[]
  notices: readonly Notice[]
  /** Warnings the main process gives with every app:info (no API key...): shown once a page. */
  announced: ReadonlySet<string>
  /** One line for the polite live region: what the last action did. */
  status: string
  draft: string
  /** The prompt a conversation rewind put back into the composer, while it still applies. */
  prefill: string | null
  /** Bumped to ask the composer to take the focus (after a prefill). */
  composerFocusRequest: number
  panel: SidePanel
  settingsOpen: boolean
  /** The first node of a compare being set up (the selection bar asks for the second). */
  compareFrom: string | null
  /** How full the model's context is (app:info, then each context_usage event). */
  contextUsage: ContextUsage | null
  /** `askedAt`: statusEvents when the app:info was asked for (now, when not given). */
  setInfo: (info: AppInfo, askedAt?: number) => void
  setSessions: (sessions: readonly SessionSummary[]) => void
  receiveListStep: (step: SessionListStep) => void
  setProjects: (projects: readonly ProjectSummary[]) => void
  setRecent: (recent: readonly RecentWorkspace[]) => void
  setOpenFolderOpen: (open: boolean) => void
  setRunning: (running: boolean) => void
  setWalkingTimeline: (walking: boolean) => void
  askPermission: (request: PermissionRequest) => void
  settlePermission: (requestId: string) => void
  notify: (level: Notice['level'], message: string) => void
  /** Like notify, unless the same message was announced before on this page. */
  announce: (level: Notice['level'], message: string) => void
  dismissNotice: (id: number) => void
  setStatus: (status: string) => void
  setDraft: (draft: string) => void
  prefillDraft: (prompt: string) => void
  dropStalePrefill: () => void
  showPanel: (panel: SidePanel) => void
  setSettingsOpen: (open: boolean) => void
  setCompareFrom: (nodeId: string | null) => void
  setContextUsage: (usage: ContextUsage) => void
}

/**
 * The sessions held and a step's, newest first as session:list orders them (by last activity),
 * each file once: the held ones are in that order, so the step's sorted are merged in.
 */
function newestFirst(
  held: readonly SessionSummary[],
  step: readonly SessionSummary[]
): SessionSummary[] {
  const known = new Set(held.map((s) => s.file))
  const added = step
    .filter((s) => !known.has(s.file))
    .sort((a, b) =>
      a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0
    )
  const merged: SessionSummary[] = []
  let i = 0
  let j = 0
  while (i < held.length || j < added.length) {
    const a = held[i]
    const b = added[j]
    if (b === undefined || (a !== undefined && a.lastActivity >= b.lastActivity)) {
      merged.push(a as SessionSummary)
      i++
    } else {
      merged.push(b)
      j++
    }
  }
  return merged
}

let nextNoticeId = 1

/**
 * `notices` with `message` added (the last five kept), or as they are when it is already showing
 * (an event, then app:info keeping the same words).
 */
function withNotice(
  notices: readonly Notice[],
  level: Notice['level'],
  message: string
): readonly Notice[] {
  if (notices.some((n) => n.message === message)) return notices
  return [...notices, { id: nextNoticeId++, level, message }].slice(-5)
}

export const useAppStore = create<AppStore>()((set) => ({
  info: null,
  sessions: [],
  filling: null,
  projects: null,
  recent: [],
  openFolderOpen: false,
  running: false,
  statusEvents: 0,
  walkingTimeline: false,
  permissions: [],
  notices: [],
  announced: new Set(),
  status: '',
  draft: '',
  prefill: null,
  composerFocusRequest: 0,
  panel: 'transcript',
  settingsOpen: false,
  compareFrom: null,
  contextUsage: null,
  // A page opened or reloaded mid-run takes the run and its open questions from the main process.
  // A warning the last app:info gave and this one does not (a key saved: no "No API key") no
  // longer holds: its notice goes, and it is announced again should it come back.
  // An answer that crossed a run's start or end (asked before it, read after) would stop or start
  // the run on the page while it goes on in the main process: the events said it later, and hold.
  setInfo: (info, askedAt) =>
    set((s) => {
      const gone = new Set(s.info?.notices.filter((n) => !info.notices.includes(n)))
      const current = askedAt === undefined || askedAt === s.statusEvents
      return {
        info,
        ...(current
          ? {
              running: info.running,
              permissions: [...info.pendingPermissions],
              contextUsage: info.contextUsage
            }
          : {}),
        notices: s.notices.filter((n) => !gone.has(n.message)),
        announced: new Set([...s.announced].filter((m) => !gone.has(m)))
      }
    }),
  setSessions: (sessions) => set({ sessions, filling: null }),
  // Another workspace's steps (one a window left) are not this list's.
  receiveListStep: (step) =>
    set((s) =>
      s.info === null || step.workspace !== s.info.workspace
        ? {}
        : {
            filling: {
              sessions: newestFirst(s.filling?.sessions ?? [], step.sessions),
              done: step.done,
              total: step.total
            }
          }
    ),
  setProjects: (projects) => set({ projects }),
  setRecent: (recent) => set({ recent }),
  setOpenFolderOpen: (openFolderOpen) => set({ openFolderOpen }),
  // A run that ends leaves no question open: the main process stops waiting for answers.
  setRunning: (running) =>
    set((s) => ({
      running,
      statusEvents: s.statusEvents + 1,
      ...(running ? {} : { permissions: [] })
    })),
  setWalkingTimeline: (walkingTimeline) => set({ walkingTimeline }),
  askPermission: (request) => set((s) => ({ permissions: [...s.permissions, request] })),
  settlePermission: (requestId) =>
    set((s) => ({ permissions: s.permissions.filter((p) => p.requestId !== requestId) })),
  notify: (level, message) => set((s) => ({ notices: withNotice(s.notices, level, message) })),
  announce: (level, message) =>
    set((s) =>
      s.announced.has(message)
        ? {}
        : {
            announced: new Set([...s.announced, message]),
            notices: withNotice(s.notices, level, message)
          }
    ),
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  setStatus: (status) => set({ status }),
  setDraft: (draft) => set({ draft }),
  prefillDraft: (prompt) =>
    set((s) => ({
      draft: prompt,
      prefill: prompt,
      composerFocusRequest: s.composerFocusRequest + 1
    })),
  // After an undo, a branch switch or another session, the rewound prompt no longer follows the
  // conversation's end: drop it, unless the user has made it their own by editing it.
  dropStalePrefill: () =>
    set((s) =>
      s.prefill === null ? {} : { prefill: null, draft: s.draft === s.prefill ? '' : s.draft }
    ),
  showPanel: (panel) => set({ panel }),
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
  setCompareFrom: (compareFrom) => set({ compareFrom }),
  setContextUsage: (contextUsage) => set({ contextUsage })
}))

type State = AppStore

export const selectInfo = (s: State) => s.info
export const selectDemo = (s: State) => s.info?.demo === true
export const selectReadOnlyReason = (s: State) => s.info?.readOnlyReason ?? null
export const selectSessions = (s: State) => s.sessions
export const selectFilling = (s: State) => s.filling
export const selectRunning = (s: State) => s.running
export const selectWalkingTimeline = (s: State) => s.walkingTimeline
export const selectFirstPermission = (s: State) => s.permissions[0] ?? null
export const selectNotices = (s: State) => s.notices
export const selectStatus = (s: State) => s.status
export const selectDraft = (s: State) => s.draft
export const selectComposerFocusRequest = (s: State) => s.composerFocusRequest
export const selectPanel = (s: State) => s.panel
export const selectSettingsOpen = (s: State) => s.settingsOpen
export const selectCompareFrom = (s: State) => s.compareFrom
export const selectContextUsage = (s: State) => s.contextUsage
