// Where file history lives: $REWIND_STUDIO_HOME/file-history/<folder>/, the folder named like the
// session folder (session/paths.ts): shared by the sessions in it, so a blob is stored once
// whichever session kept it. New sessions are in their workspace's own folder; a session of the
// older layout (sessions/<encoded cwd>/) keeps using file-history/<encoded cwd>/, where its
// backups and restore journals are. So a folder's sessions are exactly the ones that may name
// its blobs, which retention relies on, and two workspaces whose paths encode the same share
// no journals, live-session markers or backups from now on.
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { legacyWorkspaceFolders, realPathOf, workspaceFolder } from '../session/paths'

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

/** The file history of the workspace's new sessions. */
export function historyPaths(home: string, cwd: string): HistoryPaths {
  return historyPathsAt(join(home, 'file-history', workspaceFolder(cwd)))
}

/**
 * The file history of the session logged in `sessionFile`: the folder named like the session's
 * own folder; for a file outside the data home (a copy given to `rewind`), its workspace's.
 */
export function sessionHistoryPaths(home: string, sessionFile: string, cwd: string): HistoryPaths {
  const folder = dirname(realPathOf(sessionFile))
  return dirname(folder) === realPathOf(join(home, 'sessions'))
    ? historyPathsAt(join(home, 'file-history', basename(folder)))
    : historyPaths(home, cwd)
}

/** The file-history folders (names under file-history/) the workspace has, in either layout. */
export function historyFoldersOf(home: string, cwd: string): string[] {
  return [...new Set([workspaceFolder(cwd), ...legacyWorkspaceFolders(cwd)])].filter((folder) =>
    existsSync(join(home, 'file-history', folder))
  )
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
