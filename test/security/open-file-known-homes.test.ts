// Foreign sessions in the explorer (issue 14): "session:openFile takes a path from the page. The
// page must not make the app read, follow or show any file it names: only a session file the
// discovery lists (a *.jsonl file in a project folder of a known home) is opened, never an
// arbitrary path, a file reached through a link out of a home, or one of ours by path."
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Reply } from '../../src/shared/contract'
import type { AppInfo } from '../../src/shared/views'
import { dispatch } from '../../src/core/studio/dispatch'
import { createHandlers } from '../../src/core/studio/handlers'
import { launchScriptedStudio } from '../support/scripted-studio'
import type { Studio } from '../../src/core/studio/studio'
import { copyFixture, relocateToWorkspace } from '../foreign/cc-fixtures'

const opened: Studio[] = []
const savedEnv = process.env.REWIND_STUDIO_CLAUDE_HOME
afterEach(async () => {
  for (const studio of opened.splice(0)) await studio.close()
  if (savedEnv === undefined) delete process.env.REWIND_STUDIO_CLAUDE_HOME
  else process.env.REWIND_STUDIO_CLAUDE_HOME = savedEnv
})

describe('session:openFile', () => {
  it('opens only session files the discovery lists; anything else is not_found and nothing opens', async () => {
    const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
    process.env.REWIND_STUDIO_CLAUDE_HOME = cc.claudeHome
    const studio = await launchScriptedStudio({
      home: cc.home,
      cwd: cc.workspace
    })
    opened.push(studio)
    const handlers = createHandlers(studio)
    const call = (channel: string, args: unknown = {}): Promise<Reply> =>
      dispatch(handlers, channel, args, () => {})
    const ours = ((await call('app:info')) as { value: AppInfo }).value

    // A valid Claude Code transcript, but outside every home.
    const stray = join(cc.workspace, 'stray.jsonl')
    copyFileSync(cc.file, stray)
    // A link in a project folder of the Claude home to a file outside it.
    const linked = join(cc.claudeHome, 'projects', 'linked-project')
    mkdirSync(linked)
    symlinkSync(stray, join(linked, 'session.jsonl'))
    // A file in the home that is no session file.
    const notes = join(cc.claudeHome, 'projects', 'linked-project', 'notes.txt')
    writeFileSync(notes, 'not a session\n')
    for (const file of [
      stray,
      join(linked, 'session.jsonl'),
      notes,
      '/etc/passwd',
      ours.sessionFile
    ]) {
      const reply = await call('session:openFile', { file })
      expect(reply).toMatchObject({ ok: false, error: { code: 'not_found' } })
      const info = ((await call('app:info')) as { value: AppInfo }).value
      expect(info).toMatchObject({ sessionId: ours.sessionId, foreign: null })
    }

    const listed = await call('session:openFile', { file: cc.file })
    expect(listed).toMatchObject({ ok: true, value: { foreign: { file: cc.file } } })
  })
})
