// The one place a host swaps its studio for another workspace, with no restart: Electron main
// and `serve` both hold a WorkspaceHost and serve its handlers, which pass every request to the
// studio open now. "Open folder…" checks the folder (workspace-root.ts: not /, not the home
// folder, not the data home, not in a .git), opens the new studio first (a folder that cannot
// open leaves the current one as it was), then closes the old one and remembers the folder in
// the recent list (settings `recentWorkspaces`, written private under the data home).
import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { requests, type Handlers, type RequestChannel } from '../../shared/contract'
import type { AppInfo, RecentWorkspace } from '../../shared/views'
import { completeFolder } from '../files/folder-complete'
import { checkWorkspaceFolder } from '../files/workspace-root'
import { realPathOf } from '../session/paths'
import { readSettings, writeSettings } from '../settings'
import { type Sources, sharedSources } from '../sources/discovery'
import { StudioError } from './studio-error'
import { DismissedNotices } from './dismissed-notices'
import { createHandlers, type WorkspaceHandlers } from './handlers'
import type { Studio } from './studio'

export const MAX_RECENT_WORKSPACES = 10

/** The recent list after opening `cwd`: it first, no repeat, at most MAX_RECENT_WORKSPACES. */
export function withRecent(recent: readonly string[], cwd: string): string[] {
  return [cwd, ...recent.filter((r) => r !== cwd)].slice(0, MAX_RECENT_WORKSPACES)
}

export function readRecentWorkspaces(home: string): string[] {
  try {
    return readSettings(home).recentWorkspaces ?? []
  } catch {
    // A damaged settings file is reported where settings are used; the list is only a shortcut.
    return []
  }
}

export function rememberWorkspace(home: string, cwd: string): void {
  writeSettings(home, { recentWorkspaces: withRecent(readRecentWorkspaces(home), cwd) })
}

/** Why `cwd` cannot be a workspace now (gone, not a folder, refused), or null. */
export function workspaceProblem(cwd: string, home: string): string | null {
  return workspaceRefusal(cwd, home)?.message ?? null
}

/** workspaceProblem as the contract's error: `not_found` for what is not there, else `refused`. */
function workspaceRefusal(cwd: string, home: string): StudioError | null {
  if (!isAbsolute(cwd)) {
    return new StudioError('invalid_payload', `${cwd} is no absolute path. Nothing was opened.`)
  }
  try {
    if (!statSync(cwd).isDirectory()) {
      return new StudioError('not_found', `${cwd} is not a folder. Nothing was opened.`)
    }
  } catch {
    return new StudioError('not_found', `No folder ${cwd}. Nothing was opened.`)
  }
  try {
    checkWorkspaceFolder(cwd, home)
  } catch (error) {
    return new StudioError('refused', (error as Error).message)
  }
  return null
}

export interface WorkspaceHostOptions {
  home: string
  /** Opens a studio on `cwd`, its latest session, with this run's options (model, settings...). */
  launch: (cwd: string) => Promise<Studio>
  /** The desktop's folder dialog; the web host has none. */
  pickFolder?: () => Promise<string | null>
  /** Told after every switch, so every page (a second tab too) reloads on the new workspace. */
  switched?: (workspace: string) => void
}

export class WorkspaceHost {
  private switching: Promise<unknown> = Promise.resolve()
  private readonly sources: Sources
  /** The warnings a page dismissed: for every page of this host, whichever folder is open. */
  private readonly dismissed = new DismissedNotices()
  /** The open studio's handlers (see handlersOf). */
  private made: { studio: Studio; handlers: Handlers } | null = null

  /** `first`: the studio the host was started on (its --cwd, or the demo workspace). */
  constructor(
    private current: Studio,
    private readonly options: WorkspaceHostOptions
  ) {
    this.sources = sharedSources(options.home)
    this.remember(current.info().workspace)
  }

  get studio(): Studio {
    return this.current
  }

  /** Opens `cwd` as the workspace (its latest session), then closes the one open now. */
  openWorkspace(cwd: string): Promise<AppInfo> {
    const run = this.switching.then(async () => {
      // A relative path is refused, not resolved against wherever this process runs.
      const target = isAbsolute(cwd) ? resolve(cwd) : cwd
      const refusal = workspaceRefusal(target, this.options.home)
      if (refusal !== null) throw refusal
      if (realPathOf(target) === realPathOf(this.current.info().workspace)) {
        return this.current.info()
      }
      if (this.current.info().running) {
        throw new StudioError(
          'busy',
          'The agent is running: stop it before opening another folder. Nothing was changed.'
        )
      }
      const next = await this.options.launch(target)
      const previous = this.current
      this.current = next
      await previous.close()
      this.remember(target)
      this.options.switched?.(target)
      return next.info()
    })
    // One switch at a time: a second click waits for the first, then finds it done.
    this.switching = run.catch(() => undefined)
    return run
  }

  async recent(): Promise<RecentWorkspace[]> {
    const open = realPathOf(this.current.info().workspace)
    const recent: RecentWorkspace[] = []
    for (const cwd of readRecentWorkspaces(this.options.home)) {
      const problem = workspaceProblem(cwd, this.options.home)
      recent.push({
        cwd,
        sessions: problem === null ? await this.sessionCount(cwd) : 0,
        current: problem === null && realPathOf(cwd) === open,
        problem
      })
    }
    return recent
  }

  /**
   * In steps, as the list is built (Sources.workspaceSessionsInSteps): the open workspace's
   * cold build joined rather than finished at once, a folder not yet indexed read between the
   * host's other requests.
   */
  private async sessionCount(cwd: string): Promise<number> {
    try {
      const sessions = await this.sources.workspaceSessionsInSteps(cwd)
      return sessions.filter((s) => s.problem === null).length
    } catch {
      return 0
    }
  }

  private remember(cwd: string): void {
    try {
      rememberWorkspace(this.options.home, cwd)
    } catch {
      // The recent list is a convenience: a settings file that cannot be written costs only it.
    }
  }

  /** The workspace channels, which this host answers itself whichever studio is open. */
  private readonly workspaces: WorkspaceHandlers = {
    'workspace:open': ({ cwd }) => this.openWorkspace(cwd),
    'workspace:recent': () => this.recent(),
    'workspace:pick': async () => {
      if (this.options.pickFolder === undefined) {
        throw new StudioError(
          'unavailable',
          'This host has no folder dialog: type the folder’s path instead.'
        )
      }
      return { cwd: await this.options.pickFolder() }
    },
    'fs:complete': async ({ path }) => completeFolder(path)
  }

  /** The contract's handlers: the workspace channels here, everything else to the open studio. */
  handlers(): Handlers {
    const delegating: Record<string, unknown> = {}
    for (const channel of Object.keys(requests) as RequestChannel[]) {
      delegating[channel] = (args: unknown) =>
        (this.studioHandlers()[channel] as (a: unknown) => Promise<unknown>)(args)
    }
    return delegating as Handlers
  }

  /**
   * The open studio's handlers, made once per studio, not per request: a section keeps what one
   * request leaves for the next (the merge previewed, which "Bring in" then applies as shown).
   */
  private studioHandlers(): Handlers {
    if (this.made?.studio !== this.current) {
      this.made = {
        studio: this.current,
        handlers: createHandlers(this.current, this.workspaces, this.dismissed)
      }
    }
    return this.made.handlers
  }

  close(): Promise<void> {
    return this.switching.then(() => this.current.close())
  }
}

/**
 * The folder the desktop opens at start: the one named (--cwd, errors and all), else the one it
 * was started in when that can be a workspace, else (started from / or the home folder, say) the
 * newest recent workspace that opens; null when there is none: the desktop then opens the demo
 * workspace and asks for a folder.
 */
export function startupWorkspace(cwd: string, named: boolean, home: string): string | null {
  if (named || workspaceProblem(cwd, home) === null) return cwd
  return readRecentWorkspaces(home).find((r) => workspaceProblem(r, home) === null) ?? null
}
