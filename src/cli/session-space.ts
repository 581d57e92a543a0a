// Where a command that reads or restores a session's files finds them: the backups beside the
// session, and the folder holding its files. A session file says itself which folder that is
// (its header's cwd); `rewind` and `diff --to current` trust that only for a file in the
// sessions folder of that workspace. Anywhere else the user names the folder with --cwd.
import { existsSync, realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { sessionHistoryPaths } from '../core/files/history-paths'
import { checkWorkspaceFolder } from '../core/files/workspace-root'
import { type RestoreSpace, restoreSpaceAt } from '../core/rewind/workspace-files'
import { isSessionFileOf, sessionsDir } from '../core/session/paths'
import type { SessionStore } from '../core/session/store'

/** The restore space of the session in `file`: its backups, and the workspace (or `cwd`). */
export function sessionSpace(
  home: string,
  file: string,
  store: Pick<SessionStore, 'cwd'>,
  cwd: string | null
): RestoreSpace {
  // An unfit workspace in the header ("", ".", "/", the home folder) is refused as such, before
  // its sessions folder is worked out relative to wherever the command runs.
  if (cwd === null) checkWorkspaceFolder(store.cwd, home)
  if (cwd === null && !isSessionFileOf(home, file, store.cwd)) {
    throw new Error(
      `${file} is not in the sessions folder of the workspace its header names (${sessionsDir(home, store.cwd)}): give --cwd DIR to say which folder to use. Nothing was changed.`
    )
  }
  const root = cwd === null ? store.cwd : resolve(cwd)
  checkWorkspaceFolder(root, home)
  if (!existsSync(root)) throw new Error(`the workspace ${root} does not exist`)
  // Backups live with the session's workspace; --cwd only says where the files are.
  return restoreSpaceAt(
    realpathSync(resolve(root)),
    sessionHistoryPaths(home, file, store.cwd).root
  )
}
