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

/** The web host's connection is gone: every request fails alike until the page is reloaded. */
export class ConnectionClosedError extends BridgeError {
  constructor() {
    super({
      code: 'unavailable',
      message: 'The connection to Rewind Studio closed. Reload the page to reconnect.'
    })
    this.name = 'ConnectionClosedError'
  }
}
