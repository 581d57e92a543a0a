// A studio on the demo's scripted model, launched as the tests and benches launch one: each option
// a caller does not name takes the value most of them want (a temp workspace's latest session,
// edits accepted, keys in memory, events dropped).
import { join } from 'node:path'
import { launchStudio, type LaunchStudioOptions } from '../../src/core/studio/launch'
import { memorySecrets } from '../../src/core/studio/secret-store'
import type { Studio } from '../../src/core/studio/studio'
import { repoRoot } from './cli'

export const SCRIPTED_DEMO_MODEL = `scripted:${join(repoRoot, 'demo/scripted-model.json')}`

export function launchScriptedStudio(
  options: Pick<LaunchStudioOptions, 'home' | 'cwd'> & Partial<LaunchStudioOptions>
): Promise<Studio> {
  return launchStudio({
    demo: false,
    port: undefined,
    model: SCRIPTED_DEMO_MODEL,
    permissionMode: 'acceptEdits',
    settingOverrides: [],
    session: { kind: 'latest-or-new' },
    appRoot: repoRoot,
    secrets: memorySecrets(),
    emit: () => {},
    ...options
  })
}
