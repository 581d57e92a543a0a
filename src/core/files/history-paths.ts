// Where a workspace's file history lives: $REWIND_STUDIO_HOME/file-history/<encoded cwd>/, shared
// by every session of that workspace (a blob is stored once, whichever session kept it).
import { join } from 'node:path'
import { encodeCwd } from '../session/paths'

export interface HistoryPaths {
  root: string
  /** Content-addressed backups: blobs/<2 hex>/<sha256>. */
  blobs: string
  /** Restore journals: restores/<id>.json. */
  restores: string
  /** One marker per live session: active/<sessionId>.json. */
  active: string
  /** Private folder for the watcher's flush markers (never inside the workspace). */
  watch: string
}

export function historyPaths(home: string, cwd: string): HistoryPaths {
  return historyPathsAt(join(home, 'file-history', encodeCwd(cwd)))
}

export function historyPathsAt(root: string): HistoryPaths {
  return {
    root,
    blobs: join(root, 'blobs'),
    restores: join(root, 'restores'),
    active: join(root, 'active'),
    watch: join(root, 'watch')
  }
}
