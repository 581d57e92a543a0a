// The expected failure of a rewind, a switch, an undo or a redo (planned, applied or recovered:
// rewind-plan.ts, restore-apply.ts, rewind-engine.ts), with its contract code.
import { CodedError } from '../../shared/coded-error'
import type { ErrorCode } from '../../shared/contract'

/**
 * A rewind, switch or undo refused or rolled back, nothing lost. The code says which kind for
 * the contract: by default the workspace or session is not in a state it can go through.
 */
export class RewindError extends CodedError {
  constructor(message: string, code: ErrorCode = 'conflict') {
    super(code, message)
    this.name = 'RewindError'
  }
}
