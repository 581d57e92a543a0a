// An expected failure the studio itself finds (a busy agent, a read-only session, a node not in
// the graph...), with its contract code: dispatch() answers it as {code, message}, no stack.
import type { ErrorCode } from '../../shared/contract'
import { CodedError } from '../../shared/coded-error'

export class StudioError extends CodedError {
  constructor(code: ErrorCode, message: string) {
    super(code, message)
    this.name = 'StudioError'
  }
}
