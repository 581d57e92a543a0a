// Opens the studio the way a host was asked to: which workspace (the demo one without a key),
// which session (latest, new, or by id), which model.
import { cpSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import type { EventSink } from '../../shared/contract'
import { checkWorkspaceFolder } from '../files/workspace-root'
import { readRegularText } from '../os/read-regular-file'
import { TooManyRecordsError } from '../session/jsonl'
import { SessionStore } from '../session/store'
import { demoWorkspaceDir } from '../session/paths'
import { StudioError } from './studio-error'
import type { LaunchOptions, SessionChoice } from './launch-options'
import { ModelSetup } from './model-setup'
import type { SecretStore } from './secret-store'
import { Studio } from './studio'

export { parseLaunchArgs } from './launch-options'

export interface LaunchStudioOptions extends LaunchOptions {
  appRoot: string
  secrets: SecretStore
  emit: EventSink
}

/**
 * How a host opens another folder ("Open folder…", Open Recent): the same run's options (model,
 * settings, secrets, events), that folder's latest session, never the demo.
 */
export function folderLauncher(options: LaunchStudioOptions): (cwd: string) => Promise<Studio> {
  return (cwd) => launchStudio({ ...options, cwd, demo: false, session: { kind: 'latest-or-new' } })
}

/** The demo workspace: a copy of demo/workspace the user may change freely. */
export function demoWorkspace(home: string, appRoot: string): string {
  const dir = demoWorkspaceDir(home)
  if (!existsSync(dir)) cpSync(join(appRoot, 'demo', 'workspace'), dir, { recursive: true })
  return dir
}

/** The workspace's session `choice` names; refuses a folder unfit to be a workspace first. */
export function openSessionStore(home: string, cwd: string, choice: SessionChoice): SessionStore {
  // Before a session file is created: `/` or the home folder gets no session, not even an empty one.
  checkWorkspaceFolder(cwd, home)
  switch (choice.kind) {
    case 'new':
      return SessionStore.create({ home, cwd })
    case 'latest-or-new': {
      const latest = SessionStore.latest(home, cwd)
      if (latest === null) return SessionStore.create({ home, cwd })
      try {
        return SessionStore.open(latest)
      } catch (error) {
        if (!(error instanceof TooManyRecordsError)) throw error
        // A file past what can be read must not keep the workspace from opening.
        const store = SessionStore.create({ home, cwd })
        store.openingNotices.push(
          `${error.message}. A new session was started; that file is unchanged.`
        )
        return store
      }
    }
    case 'latest': {
      const latest = SessionStore.latest(home, cwd)
      if (latest === null) throw new StudioError('not_found', `No session to continue in ${cwd}.`)
      return SessionStore.open(latest)
    }
    case 'id': {
      const file = SessionStore.find(home, cwd, choice.id)
      if (file === null) throw new StudioError('not_found', `No session ${choice.id} in ${cwd}.`)
      return SessionStore.open(file)
    }
  }
}

export function appVersion(appRoot: string): string {
  const pkg = JSON.parse(readRegularText(join(appRoot, 'package.json')) ?? '') as {
    version: string
  }
  return pkg.version
}

export async function launchStudio(options: LaunchStudioOptions): Promise<Studio> {
  const cwd = options.demo ? demoWorkspace(options.home, options.appRoot) : options.cwd
  if (cwd === undefined || !existsSync(cwd)) {
    throw new StudioError('not_found', `The workspace ${cwd ?? '(none)'} does not exist.`)
  }
  return Studio.open({
    home: options.home,
    cwd,
    version: appVersion(options.appRoot),
    emit: options.emit,
    models: new ModelSetup({
      home: options.home,
      appRoot: options.appRoot,
      secrets: options.secrets,
      model: options.model,
      permissionMode: options.permissionMode,
      // The demo shows the agent's own checkpoints too (Settings can turn them off).
      settingOverrides: options.demo
        ? ['checkpoint.enabled=true', ...options.settingOverrides]
        : options.settingOverrides
    }),
    openStore: () => openSessionStore(options.home, cwd, options.session)
  })
}
