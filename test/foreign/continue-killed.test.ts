// An import is whole or absent (issue 26, item 6): `continue` killed part way through writing the
// new session leaves nothing listed, nothing `--continue` or `--resume` opens, and nothing the
// app's session list shows; the next import in the folder clears what the killed one left, and
// itself appears whole. A real child process SIGKILLed mid-import, the real CLI after it.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contextPath } from '../../src/core/session/continue-foreign'
import { readSessionFile } from '../../src/core/session/load'
import { sessionsDir } from '../../src/core/session/paths'
import { SessionStore } from '../../src/core/session/store'
import { Sources } from '../../src/core/sources/discovery'
import { runCli } from '../support/cli'
import { killWhenPaused } from '../support/kill-when-paused'
import { copyFixture } from './cc-fixtures'

const child = join(import.meta.dirname, 'continue-killed-child.ts')

describe('a continue import killed part way', () => {
  it('leaves no session to list or open; the next import clears what it left and is whole', async () => {
    const cc = copyFixture('rewind-parallel')
    for (const at of ['1', '5', '9']) {
      await killWhenPaused(child, [cc.home, cc.workspace, cc.file, at])
    }
    const folder = sessionsDir(cc.home, cc.workspace)
    expect(SessionStore.list(cc.home, cc.workspace)).toEqual([])
    expect(SessionStore.latest(cc.home, cc.workspace)).toBeNull()
    expect(new Sources({ home: cc.home }).ourSessions(cc.workspace)).toEqual([])
    expect(readdirSync(folder).filter((name) => name.endsWith('.jsonl'))).toEqual([])

    const run = await runCli(['continue', cc.file, '--cwd', cc.workspace, '--json'], {
      env: cc.env
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const { file } = JSON.parse(run.stdout) as { file: string }
    // Only the new session is left in the folder: the killed imports' files and locks are gone.
    expect(readdirSync(folder)).toEqual([file.slice(folder.length + 1)])
    expect(SessionStore.latest(cc.home, cc.workspace)).toBe(file)
    const whole = SessionStore.open(file, { readOnly: true })
    expect(whole.problems).toEqual([])
    expect(whole.tree().header?.continuedFrom?.file).toBe(cc.file)
    const { tree } = readSessionFile(cc.file)
    expect(whole.tree().size).toBe(contextPath(tree, tree.leafUuid).length)
  })
})
