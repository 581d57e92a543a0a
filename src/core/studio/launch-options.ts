// The options every host accepts (Electron main, `cli serve`, `cli chat`), parsed one way.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { PermissionMode } from '../../shared/messages'
import { rewindStudioHome } from '../session/paths'
import { UsageError } from './usage-error'

/** Which session a host opens in its workspace. */
export type SessionChoice =
  | { kind: 'latest-or-new' }
  /** --continue: the workspace's latest session, an error when it has none. */
  | { kind: 'latest' }
  | { kind: 'new' }
  | { kind: 'id'; id: string }

export interface LaunchOptions {
  home: string
  /** The workspace; undefined with --demo (the demo workspace is used). */
  cwd: string | undefined
  demo: boolean
  port: number | undefined
  model: string | undefined
  permissionMode: PermissionMode | undefined
  settingOverrides: string[]
  session: SessionChoice
}

/**
 * `defaultSession` differs by host: the app and `serve` reopen the workspace's latest session,
 * `chat` starts a new one unless --continue or --resume says otherwise.
 */
export function parseLaunchArgs(
  argv: string[],
  defaultSession: SessionChoice = { kind: 'latest-or-new' }
): LaunchOptions {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        cwd: { type: 'string' },
        port: { type: 'string' },
        demo: { type: 'boolean' },
        model: { type: 'string' },
        'permission-mode': { type: 'string' },
        setting: { type: 'string', multiple: true },
        continue: { type: 'boolean' },
        resume: { type: 'string' }
      }
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values } = parsed
  // resolve('') is the current folder: an empty --cwd (an unset variable) must not mean "here".
  if (values.cwd === '') throw new UsageError('--cwd needs a folder, got "".')
  const port = values.port === undefined ? undefined : Number(values.port)
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new UsageError(`--port expects a port number, got "${values.port}".`)
  }
  const mode = values['permission-mode']
  if (mode !== undefined && !PermissionMode.safeParse(mode).success) {
    throw new UsageError(
      `--permission-mode expects one of ${PermissionMode.options.join(', ')}, got "${mode}".`
    )
  }
  if (values.continue === true && values.resume !== undefined) {
    throw new UsageError('Use either --continue or --resume, not both.')
  }
  const session: SessionChoice =
    values.resume !== undefined
      ? { kind: 'id', id: values.resume }
      : values.continue === true
        ? { kind: 'latest' }
        : defaultSession
  return {
    home: rewindStudioHome(),
    cwd:
      values.cwd === undefined
        ? values.demo === true
          ? undefined
          : process.cwd()
        : resolve(values.cwd),
    demo: values.demo === true,
    port,
    model: values.model,
    permissionMode: mode as PermissionMode | undefined,
    settingOverrides: values.setting ?? [],
    session
  }
}
