// How every command asks for --help and ends on an error: one clear line and an exit code (no
// stack traces for expected failures). Apart from cli-support.ts, so a command that needs only
// these (`sessions`) loads no model, store or summary code with them.
import { osErrorLine } from '../core/os/write-failure'
import { UsageError } from '../core/studio/usage-error'
import { CodedError } from '../shared/coded-error'
import { sayError } from './format'

export function wantsHelp(args: string[]): boolean {
  return args.includes('--help') || args.includes('-h')
}

export function failWith(error: unknown): number {
  // Every expected failure of the core is a CodedError (lint holds it): its message, no stack.
  if (error instanceof CodedError) {
    sayError(`rewind-studio: ${error.message}`)
    return error instanceof UsageError ? 2 : 1
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
