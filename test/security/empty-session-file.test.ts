// Finding (hardening issue, item 7): "One bad session file locks out a workspace. [...] An empty
// session file (what a crash between create and header write leaves) stops the workspace from
// opening and blocks every rewind there. Both become listed problems; the rest loads."
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { uuidv7 } from '../../src/core/session/uuid-v7'
import { describe, expect, it } from 'vitest'
import { openSessionStore } from '../../src/core/studio/open-session-store'
import { listSessions } from '../../src/core/studio/session-handlers'
import { sessionFileName } from '../../src/core/session/paths'
import { SessionStore } from '../../src/core/session/store'
import { runCliSync } from '../support/cli'
import { newSession } from '../rewind/fixture'
import { launchScriptedStudio } from '../support/scripted-studio'

const SEED = 'DEBUG = True\nHOST = "localhost"\n'

const cli = runCliSync

/**
 * A workspace with one real session (two turns changing config.py), then, beside it and newer,
 * an empty session file and one whose first line is no header.
 */
async function workspaceWithBrokenSessions() {
  const s = await newSession({ 'config.py': SEED })
  s.prompt('add TIMEOUT')
  await s.write('config.py', 'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
  s.reply('added')
  s.prompt('drop DEBUG')
  await s.write('config.py', 'TIMEOUT = 30\nHOST = "localhost"\n')
  s.reply('done')
  await s.close()
  const later = (ms: number) => new Date(Date.now() + ms).toISOString()
  const empty = join(dirname(s.store.file), sessionFileName(later(1000), uuidv7()))
  writeFileSync(empty, '')
  const headerless = join(dirname(s.store.file), sessionFileName(later(2000), uuidv7()))
  writeFileSync(headerless, '{"type":"sess\n')
  return { ...s, good: s.store.file, empty, headerless }
}

describe('an empty or header-less session file in a workspace', () => {
  it('is listed with its problem; the latest real session is the one continued', async () => {
    const w = await workspaceWithBrokenSessions()
    const listed = SessionStore.list(w.home, w.cwd)
    expect(listed.map((l) => [l.file, l.problem])).toEqual([
      [w.good, null],
      [w.empty, expect.stringContaining('the file is empty (0 bytes)')],
      [w.headerless, expect.stringContaining('line 1 is no session header')]
    ])
    expect(SessionStore.latest(w.home, w.cwd)).toBe(w.good)
    const store = openSessionStore(w.home, w.cwd, { kind: 'latest-or-new' })
    store.close()
    expect(store.file).toBe(w.good)
  })

  it('does not stop the app from opening the workspace; its session list shows the problem', async () => {
    const w = await workspaceWithBrokenSessions()
    const studio = await launchScriptedStudio({
      home: w.home,
      cwd: w.cwd
    })
    try {
      expect(studio.info().sessionFile).toBe(w.good)
      expect(
        (await listSessions(studio)).map((s) => [s.file, s.current, s.problem !== null])
      ).toEqual([
        [w.good, true, false],
        [w.empty, false, true],
        [w.headerless, false, true]
      ])
    } finally {
      await studio.close()
    }
  })

  it('does not block a rewind of the workspace’s real session', async () => {
    const w = await workspaceWithBrokenSessions()
    const r = cli(w.home, 'rewind', w.good, '--to', '2')
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(w.read('config.py')).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
  })

  it('does not stop du and gc from reading the workspace', async () => {
    const w = await workspaceWithBrokenSessions()
    const du = cli(w.home, 'du', '--cwd', w.cwd, '--json')
    expect(du.err).toBe('')
    const usage = JSON.parse(du.out) as { sessions: { file: string }[] }[]
    expect(usage.flatMap((u) => u.sessions.map((s) => s.file))).toEqual([w.good])
    const gc = cli(w.home, 'gc', '--cwd', w.cwd, '--dry-run')
    expect(gc.err).toBe('')
    expect(gc.code).toBe(0)
  })

  it('`inspect` of the empty file says so clearly', async () => {
    const w = await workspaceWithBrokenSessions()
    const r = cli(w.home, 'inspect', w.empty)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/line 1: empty: the file is empty \(0 bytes\): no session header/)
    const json = JSON.parse(cli(w.home, 'inspect', w.empty, '--json').out)
    expect(json.problems).toEqual([{ line: 1, kind: 'empty', message: expect.any(String) }])
  })
})
