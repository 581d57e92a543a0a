// Every request the renderer makes can fail (a busy agent, a read-only session, a closed socket):
// the failure becomes a visible notice with the main process's own words, never a silent no-op.
// Its contract code says how it is shown: what the user can act on (busy, read_only, refused,
// not_found, conflict, unavailable…) is a warning, a stop the user asked for is news, and only an
// `internal` failure (a bug: its stack is in the host's log) or one that never crossed the
// contract is an error.
import type { Notice } from '../stores/app-store'
import { useAppStore } from '../stores/app-store'
import { BridgeError, ConnectionClosedError } from '../bridge/bridge-error'

export function failureLevel(error: unknown): Notice['level'] {
  if (!(error instanceof BridgeError) || error.code === 'internal') return 'error'
  return error.code === 'stopped' ? 'info' : 'warning'
}

export function reportFailure(what: string, error: unknown): void {
  // A closed connection is one notice, whichever request met it first: each request's own notice
  // would fold the one that says to reload behind "Show 3 earlier notices".
  if (error instanceof ConnectionClosedError) {
    useAppStore.getState().notify('error', error.message)
    return
  }
  const message = error instanceof Error ? error.message : String(error)
  useAppStore.getState().notify(failureLevel(error), `${what}: ${message}`)
}

/** Runs a request; on failure reports it and resolves to null. */
export async function attempt<T>(what: string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run()
  } catch (error) {
    reportFailure(what, error)
    return null
  }
}
