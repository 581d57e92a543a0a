// Every request the renderer makes can fail (a busy agent, a read-only session, a closed socket):
// the failure becomes a visible notice with the main process's own words, never a silent no-op.
import { useAppStore } from '../stores/app-store'

export function reportFailure(what: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error)
  useAppStore.getState().notify('error', `${what}: ${message}`)
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
