// The error of an append the store refuses (store.ts), also raised by what builds records for it
// (copied-records.ts): a coded `read_only`, so the app says why nothing was appended.
import { CodedError } from '../../shared/coded-error'

/** Raised for appends to a session this store may not write: read-only, closed, or changed. */
export class SessionWriteError extends CodedError {
  override name = 'SessionWriteError'
  constructor(message: string) {
    super('read_only', message)
  }
}
