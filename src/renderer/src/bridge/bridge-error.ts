import type { ErrorCode, IpcError } from '../../../shared/contract'

/** A request the main process refused or failed, with the contract's error code. */
export class BridgeError extends Error {
  readonly code: ErrorCode
  constructor(error: IpcError) {
    super(error.message)
    this.name = 'BridgeError'
    this.code = error.code
  }
}
