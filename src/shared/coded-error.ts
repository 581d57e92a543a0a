// An expected failure with the contract's stable code, thrown where it is known (the session
// store, the rewind engine, the studio), so no layer above has to guess the code from the
// message. dispatch() answers it as {code, message}; it is an answer, not a bug, so no stack
// trace is logged for it.
import type { ErrorCode } from './contract'

export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions
  ) {
    super(message, options)
    this.name = 'CodedError'
  }
}

/** What was asked for by id or position is not there: a checkpoint, an entry, a rewind to undo. */
export class NotFoundError extends CodedError {
  constructor(message: string) {
    super('not_found', message)
    this.name = 'NotFoundError'
  }
}
