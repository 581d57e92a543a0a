// What every command shares: where the app's files are, --help detection, and turning an error
// into one clear line and an exit code (no stack traces for expected failures).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { osErrorLine } from '../core/os/write-failure'
import { CodedError } from '../shared/coded-error'
import { sayError } from './format'

/** The project folder (package.json, demo/, out/). */
export const appRoot = join(dirname(fileURLToPath(import.meta.url)), '../..')

export function wantsHelp(args: string[]): boolean {
  return args.includes('--help') || args.includes('-h')
}

const expectedErrors = new Set([
  'UsageError',
  'SettingsError',
  'PathOutsideWorkspaceError',
  'WorkspaceRefusedError',
  'SessionError',
  'ModelConfigError',
  'WriteFailedError'
])

export function failWith(error: unknown): number {
  if (error instanceof CodedError || (error instanceof Error && expectedErrors.has(error.name))) {
    sayError(`rewind-studio: ${error.message}`)
    return error.name === 'UsageError' ? 2 : 1
  }
  // A full disk, a read-only folder…: the user's to fix, said in words, not as a stack trace.
  const osLine = osErrorLine(error)
  if (osLine !== null) {
    sayError(`rewind-studio: ${osLine}`)
    return 1
  }
  sayError(
    `rewind-studio: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`
  )
  return 1
}
