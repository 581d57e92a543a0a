// Finding (hardening issue, item 1): "The agent works in the wrong project. Folders whose paths
// differ only by `-`, `_`, `.`, a space or `/` (e.g. `/x/a-b` and `/x/a/b`) share one session
// folder (the encoded cwd); `serve --cwd /x/a-b` opened the latest session there, showed `a-b`,
// and the agent wrote into `/x/a/b`; Bash and rewinds act there too. A session must only ever be
// opened for the folder it records; give same-encoding folders distinct session folders (e.g. a
// short hash of the real path) and keep reading the old layout."
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { historyPaths, sessionHistoryPaths } from '../../src/core/files/history-paths'
import { openSessionStore } from '../../src/core/studio/open-session-store'
import { encodeCwd } from '../../src/core/session/paths'
import { SessionStore } from '../../src/core/session/store'
import { chatIn, repoRoot } from '../support/cli'

const SEED = 'DEBUG = True\nHOST = "localhost"\n'

/** Two workspaces whose paths encode the same (`…-x-a-b`), each holding config.py, and a home. */
function collidingWorkspaces() {
  const base = mkdtempSync(join(tmpdir(), 'rs-collide-'))
  const dash = join(base, 'x', 'a-b')
  const nested = join(base, 'x', 'a', 'b')
  for (const dir of [dash, nested]) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'config.py'), SEED)
  }
  expect(encodeCwd(dash)).toBe(encodeCwd(nested))
  return { dash, nested, home: join(base, 'home') }
}

/** A session of `cwd` where an earlier version put it: sessions/<encoded cwd>/. */
function legacySession(home: string, cwd: string): string {
  const store = SessionStore.create({ home, cwd })
  store.appendMessage({ role: 'user', content: 'an earlier prompt' })
  store.close()
  const legacyDir = join(home, 'sessions', encodeCwd(cwd))
  mkdirSync(legacyDir, { recursive: true })
  const file = join(legacyDir, basename(store.file))
  renameSync(store.file, file)
  return file
}

const model = `scripted:${join(repoRoot, 'test/fixtures/seed-walkthrough.json')}`
const editConfig = '给 config.py 加一个 TIMEOUT = 30\n/exit\n'

describe('a session folder per workspace', () => {
  it('--continue in a-b does not open the session of a/b from the shared old folder', async () => {
    const { dash, nested, home } = collidingWorkspaces()
    legacySession(home, nested)
    const run = await chatIn(dash, model, { REWIND_STUDIO_HOME: home })(editConfig, '--continue')
    expect(run.stderr).toContain(`No session to continue in ${dash}.`)
    expect(run.code).not.toBe(0)
    expect(readFileSync(join(nested, 'config.py'), 'utf8')).toBe(SEED)
    expect(readFileSync(join(dash, 'config.py'), 'utf8')).toBe(SEED)
  })

  it('still opens its own session of the old layout, and the agent writes only there', async () => {
    const { dash, nested, home } = collidingWorkspaces()
    legacySession(home, nested)
    const own = legacySession(home, dash)
    expect(SessionStore.list(home, dash).map((s) => s.file)).toEqual([own])
    const run = await chatIn(dash, model, { REWIND_STUDIO_HOME: home })(editConfig, '--continue')
    expect(run.code).toBe(0)
    expect(readFileSync(join(dash, 'config.py'), 'utf8')).toContain('TIMEOUT = 30')
    expect(readFileSync(join(nested, 'config.py'), 'utf8')).toBe(SEED)
    // Its backups stay beside it, in the old file-history folder its earlier ones are in.
    expect(sessionHistoryPaths(home, own, dash).root).toBe(
      join(home, 'file-history', encodeCwd(dash))
    )
  })

  it('new sessions and file history of the two go to distinct folders; each lists only its own', () => {
    const { dash, nested, home } = collidingWorkspaces()
    const a = SessionStore.create({ home, cwd: dash })
    const b = SessionStore.create({ home, cwd: nested })
    for (const s of [a, b]) s.appendMessage({ role: 'user', content: 'hello' })
    a.close()
    b.close()
    expect(dirname(a.file)).not.toBe(dirname(b.file))
    expect(SessionStore.list(home, dash).map((s) => s.sessionId)).toEqual([a.sessionId])
    expect(SessionStore.list(home, nested).map((s) => s.sessionId)).toEqual([b.sessionId])
    expect(historyPaths(home, dash).root).not.toBe(historyPaths(home, nested).root)
    expect(sessionHistoryPaths(home, a.file, dash)).toEqual(historyPaths(home, dash))
  })

  it('the app and serve (latest-or-new, --resume) never open the other workspace’s session', () => {
    const { dash, nested, home } = collidingWorkspaces()
    const theirs = legacySession(home, nested)
    const theirId = basename(theirs).split('_')[1]?.replace('.jsonl', '') ?? ''
    const store = openSessionStore(home, dash, { kind: 'latest-or-new' })
    store.close()
    expect(store.file).not.toBe(theirs)
    expect(store.cwd).toBe(dash)
    expect(() => openSessionStore(home, dash, { kind: 'id', id: theirId })).toThrow(
      `No session ${theirId} in ${dash}.`
    )
  })
})
