// Opens the studio the way a host was asked to: which workspace and session (open-session-store.ts),
// which model.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { EventSink } from '../../shared/contract'
import { readRegularText } from '../os/read-regular-file'
import { StudioError } from './studio-error'
import type { LaunchOptions } from './launch-options'
import { ModelSetup } from './model-setup'
import { demoWorkspace, openSessionStore } from './open-session-store'
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
