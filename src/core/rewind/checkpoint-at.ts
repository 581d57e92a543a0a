// A checkpoint named by its number, as /rewind lists them: apart from the rewind engine, so a
// command that only names one (`summarize --up-to N`) does not load the engine to find it.
import type { SessionStore } from '../session/store'
import { RewindError } from './rewind-error'

/** A prompt's uuid by its 1-based index on the active path (the seed's `/rewind N`). */
export function checkpointAt(store: Pick<SessionStore, 'tree'>, index: number): string {
  const checkpoints = store.tree().checkpoints()
  const checkpoint = checkpoints[index - 1]
  if (!Number.isInteger(index) || checkpoint === undefined) {
    throw new RewindError(
      checkpoints.length === 0
        ? 'This session has no checkpoints (no prompt was sent yet)'
        : `No checkpoint ${index}: the active path has checkpoints 1 to ${checkpoints.length}`,
      'not_found'
    )
  }
  return checkpoint.uuid
}
