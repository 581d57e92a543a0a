// Sessions and settings (the studio's sessions section): the workspace's sessions from every
// source and All projects, another session of ours opened or a new one, a fork at a node (with
// its files restored or not), the session exported, the settings read and changed. Each change
// of session runs alone (the context's replaceSession), the new one opened before the current
// one closes.
import type { Handlers } from '../../shared/contract'
import { formatBytes, utf8Length } from '../../shared/prompt-limit'
import {
  type AppInfo,
  type ExportFormat,
  type ExportedFile,
  MAX_EXPORT_BYTES,
  type SessionSummary,
  type Settings,
  type SettingsUpdate
} from '../../shared/views'
import { shownText } from '../../shared/shown-text'
import { latestEvery } from '../os/latest-every'
import { renderExport } from '../export/render'
import type { DiscoveredSession } from '../sources/discovery'
import { openPulledStore } from '../share/pulled'
import { SessionStore } from '../session/store'
import { branchLeafOf } from '../views/node-refs'
import { forkRoute, restoreInFork } from './fork-at-node'
import { remember } from './rewind-handlers'
import type { StudioContext } from './studio-context'
import { StudioError } from './studio-error'

type SessionChannel =
  | 'session:list'
  | 'projects:list'
  | 'session:open'
  | 'session:new'
  | 'session:fork'
  | 'session:forkPreview'
  | 'session:export'
  | 'settings:get'
  | 'settings:set'

export function sessionHandlers(ctx: StudioContext): Pick<Handlers, SessionChannel> {
  return {
    'session:list': () => listSessions(ctx),
    // Every project found in the homes of the tools, with its session counts (All projects).
    'projects:list': async () => ctx.sources.projects(),
    'session:open': ({ sessionId }) => openSession(ctx, sessionId),
    'session:new': () =>
      ctx.replaceSession(() => SessionStore.create({ home: ctx.home, cwd: ctx.cwd })),
    'session:fork': ({ nodeId, restoreFiles }) => fork(ctx, nodeId, restoreFiles === true),
    'session:forkPreview': ({ nodeId }) => previewFork(ctx, nodeId),
    'session:export': async ({ format, scope, nodeId }) =>
      exportSession(ctx, format, scope, nodeId),
    'settings:get': async () => ctx.models.settings(),
    'settings:set': (update) => updateSettings(ctx, update)
  }
}

/** How often at most the pages are told the list's steps while a cold index is built. */
const LIST_STEP_MS = 250

/**
 * The workspace's sessions from every source, newest first, then the files that are none. From
 * the session index: only a log whose size or mtime changed is read (ours after a turn: only its
 * new lines), so no turn waits on other sessions' logs. A cold index is built in steps between
 * the host's other requests (Sources.workspaceSessionsInSteps; a second request joins the build
 * going), and the pages are told the sessions found as it goes (session:listStep, at most every
 * LIST_STEP_MS, the sessions since the last told), so the list fills as it is built.
 */
export async function listSessions(
  ctx: StudioContext,
  tellEveryMs = LIST_STEP_MS
): Promise<SessionSummary[]> {
  let found: SessionSummary[] = []
  const told = latestEvery<{ done: number; total: number }>(({ done, total }) => {
    const sessions = found
    found = []
    ctx.emit('session:listStep', { workspace: ctx.cwd, sessions, done, total })
  }, tellEveryMs)
  let listed: DiscoveredSession[]
  try {
    listed = await ctx.sources.workspaceSessionsInSteps(ctx.cwd, (step) => {
      for (const session of step.found) found.push(summaryOf(ctx, session))
      told.push({ done: step.done, total: step.total })
    })
  } finally {
    // What waits is in the answer.
    told.close()
  }
  const sessions = listed.filter((s) => s.problem === null)
  const broken = listed
    .filter((s) => s.problem !== null)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
  const listedSummaries = [...sessions, ...broken].map((s) => summaryOf(ctx, s))
  return [...newSession(ctx), ...listedSummaries]
}

/** What the list shows of one session. */
function summaryOf(ctx: StudioContext, s: DiscoveredSession): SessionSummary {
  return {
    sessionId: s.sessionId,
    file: s.file,
    source: s.source,
    createdAt: s.createdAt,
    lastActivity: s.lastActivity,
    title: s.title === null ? null : shownText(s.title),
    firstPrompt: s.summary.firstPrompt === null ? null : shownText(s.summary.firstPrompt),
    prompts: s.summary.prompts,
    current: s.file === (ctx.viewed?.file ?? ctx.store.file),
    problem: s.problem
  }
}

/**
 * The session the app is on, while it has no file yet (a new one before its first prompt,
 * store.ts): listed first as the others are, so the list shows where the user is; left before a
 * prompt, it leaves nothing behind.
 */
function newSession(ctx: StudioContext): SessionSummary[] {
  const store = ctx.store
  if (store.fileMade) return []
  const { header } = store
  return [
    {
      sessionId: header.sessionId,
      file: store.file,
      source: 'rewind-studio',
      createdAt: header.timestamp,
      lastActivity: header.timestamp,
      title: null,
      firstPrompt: null,
      prompts: 0,
      current: ctx.viewed === null,
      problem: null
    }
  ]
}

function openSession(ctx: StudioContext, sessionId: string): Promise<AppInfo> {
  ctx.requireIdle()
  // The one we are on (which may have no file yet): reopening it would find its lock held (by
  // us) and open it read-only.
  if (sessionId === ctx.store.sessionId) {
    ctx.stopViewing()
    return Promise.resolve(ctx.info())
  }
  const file = SessionStore.find(ctx.home, ctx.cwd, sessionId)
  if (file === null)
    throw new StudioError('not_found', `No session ${sessionId} in this workspace.`)
  if (file === ctx.store.file) {
    ctx.stopViewing()
    return Promise.resolve(ctx.info())
  }
  return ctx.replaceSession(() => SessionStore.open(file))
}

/** Shows a session pulled from a remote (share/pull.ts), read-only, saying where it came from. */
export function openPulled(
  ctx: StudioContext,
  file: string,
  notices: readonly string[]
): Promise<AppInfo> {
  return ctx.replaceSession(() => openPulledStore(ctx.home, file, notices))
}

/**
 * A new session holding the path to `nodeId` (session/fork.ts), opened at once. With
 * `restoreFiles`, the files are brought to that node's state in the fork (studio/fork-at-node.ts),
 * applying what session:forkPreview showed when it still fits. The fork stands whatever the
 * restore does: a refused restore is a notice, with the files as they were.
 */
function fork(ctx: StudioContext, nodeId: string, restoreFiles: boolean): Promise<AppInfo> {
  ctx.requireOwnSession()
  return ctx.exclusive('a fork', async () => {
    const end = await ctx.endOfNode(nodeId)
    const route = forkRoute(ctx.home, ctx.store)
    const plan = restoreFiles
      ? ctx.lastPlan?.kind === 'switch-branch' &&
        ctx.lastPlan.leafAfter === end &&
        ctx.lastPlan.leafBefore === ctx.store.leafUuid
        ? ctx.lastPlan
        : await route.plan(ctx.work.engine, ctx.work.history.blobs, end)
      : null
    ctx.leaving()
    const fork = route.fork(end)
    await ctx.work.close()
    ctx.lastPlan = null
    await ctx.attach(fork)
    if (plan !== null) {
      try {
        await ctx.work.apply(restoreInFork(plan, fork))
      } catch (error) {
        ctx.notice(
          'error',
          `The fork was made; its files were not restored: ${(error as Error).message}`
        )
      } finally {
        ctx.shapeChanged()
      }
    }
    return ctx.info()
  })
}

/** What restoring the files to `nodeId`'s state would change, before a fork. */
async function previewFork(ctx: StudioContext, nodeId: string) {
  ctx.requireOwnSession()
  const end = await ctx.endOfNode(nodeId)
  const route = forkRoute(ctx.home, ctx.store)
  return remember(ctx, route.plan(ctx.work.engine, ctx.work.history.blobs, end))
}

/**
 * The session rendered for the page's Export… (core/export): the whole tree, or the branch
 * through `nodeId` (the active one without it). Bounded: the page holds it whole.
 */
async function exportSession(
  ctx: StudioContext,
  format: ExportFormat,
  scope: 'all' | 'branch',
  nodeId: string | undefined
): Promise<ExportedFile> {
  const tree = ctx.viewTree()
  const viewed = ctx.viewed
  // Another tool's session exports as ours does: read-only, from its own tree.
  const source =
    viewed === null
      ? { tree, header: ctx.store.header, file: ctx.store.file }
      : { tree, header: { sessionId: viewed.sessionId, cwd: viewed.cwd }, file: viewed.file }
  let leafUuid = tree.leafUuid
  if (scope === 'branch' && nodeId !== undefined) {
    const node = (await ctx.graph()).nodes.find((n) => n.id === nodeId)
    if (node === undefined) throw new StudioError('not_found', `No node ${nodeId} in this graph.`)
    leafUuid = branchLeafOf(tree, node)
  }
  const rendered = renderExport(
    source,
    format,
    scope === 'all' ? { kind: 'all' } : { kind: 'branch', leafUuid }
  )
  const bytes = utf8Length(rendered.content)
  if (bytes > MAX_EXPORT_BYTES) {
    throw new StudioError(
      'unavailable',
      `The export is ${formatBytes(bytes)}, more than the app hands over (${formatBytes(MAX_EXPORT_BYTES)}): write it with \`rewind-studio export ${source.file} --format ${format}${scope === 'all' ? ' --all' : ''} -o FILE\`.`
    )
  }
  return rendered
}

function updateSettings(ctx: StudioContext, update: SettingsUpdate): Promise<Settings> {
  return ctx.exclusive('a settings change', async () => {
    // Refused before anything is saved or closed: a model that cannot load changes nothing.
    await ctx.models.update(update)
    // A new model, mode or tool set takes effect on a fresh agent over the same session.
    const store = ctx.store
    await ctx.work.history.close()
    await ctx.attach(store)
    return ctx.models.settings()
  })
}
