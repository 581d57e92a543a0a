// Which workspace and session a host opens (the demo copy, latest, new, or by id), apart from the
// studio: `rewind-studio chat` opens its session through here without loading the studio and what
// it draws (bench/summarize-process.ts).
import { cpSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { checkWorkspaceFolder } from '../files/workspace-root'
import { TooManyRecordsError } from '../session/jsonl'
import { SessionStore } from '../session/store'
import { demoWorkspaceDir } from '../session/paths'
import { StudioError } from './studio-error'
import type { SessionChoice } from './launch-options'

/** The demo workspace: a copy of demo/workspace the user may change freely. */
export function demoWorkspace(home: string, appRoot: string): string {
  const dir = demoWorkspaceDir(home)
  if (!existsSync(dir)) cpSync(join(appRoot, 'demo', 'workspace'), dir, { recursive: true })
  return dir
}

/** The workspace's session `choice` names; refuses a folder unfit to be a workspace first. */
export function openSessionStore(home: string, cwd: string, choice: SessionChoice): SessionStore {
  // Before a session file is created: `/` or the home folder gets no session, not even an empty one.
  checkWorkspaceFolder(cwd, home)
  switch (choice.kind) {
    case 'new':
      return SessionStore.create({ home, cwd })
    case 'latest-or-new': {
      const latest = SessionStore.latest(home, cwd)
      if (latest === null) return SessionStore.create({ home, cwd })
      try {
        return SessionStore.open(latest)
      } catch (error) {
        if (!(error instanceof TooManyRecordsError)) throw error
        // A file past what can be read must not keep the workspace from opening.
        const store = SessionStore.create({ home, cwd })
        store.openingNotices.push(
          `${error.message}. A new session was started; that file is unchanged.`
        )
        return store
      }
    }
    case 'latest': {
      const latest = SessionStore.latest(home, cwd)
      if (latest === null) throw new StudioError('not_found', `No session to continue in ${cwd}.`)
      return SessionStore.open(latest)
    }
    case 'id': {
      const file = SessionStore.find(home, cwd, choice.id)
      if (file === null) throw new StudioError('not_found', `No session ${choice.id} in ${cwd}.`)
      return SessionStore.open(file)
    }
  }
}
