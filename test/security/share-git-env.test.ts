// Issue 32 brief: "Child processes only through src/core/os (child-env.ts / the command helpers):
// the API key must never reach git's env", and sharing writes into the workspace's repository
// only. The user's own pre-push hook runs (sharing never overrides hooks) and dumps the
// environment git gave it: no key, no token. A GIT_DIR in the user's shell does not send the
// objects and refs into another repository.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { git, twoMachines, writeTurns } from '../support/git-machines'

const KEY = 'sk-ant-test-0123456789-secret'
const AUTH_TOKEN = 'auth-token-secret-4567'
const OWN_TOKEN = 'own-token-secret-8910'

describe('the git that sharing runs', () => {
  it('gets no API key, auth token or Rewind Studio secret; runs the user’s own hook; writes only the workspace’s repository', async () => {
    const { a, base } = twoMachines()
    const session = writeTurns({
      home: a.home,
      cwd: a.workspace,
      turns: 1,
      filesPerTurn: 1,
      files: 1
    })
    const dump = join(base, 'hook-env.txt')
    const hook = join(a.workspace, '.git', 'hooks', 'pre-push')
    writeFileSync(hook, `#!/bin/sh\nenv > '${dump}'\n`)
    chmodSync(hook, 0o755)
    // A repository the user's shell points GIT_DIR at: sharing must not write there.
    const decoy = join(base, 'decoy.git')
    mkdirSync(decoy)
    git(decoy, 'init', '-q', '--bare')
    const run = await runCli(['share', 'push', session.file], {
      env: {
        REWIND_STUDIO_HOME: a.home,
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_AUTH_TOKEN: AUTH_TOKEN,
        REWIND_STUDIO_SHARE_TOKEN: OWN_TOKEN,
        GIT_DIR: decoy
      }
    })
    expect(run.code, run.stderr).toBe(0)
    expect(existsSync(dump)).toBe(true)
    const env = readFileSync(dump, 'utf8')
    for (const secret of [KEY, AUTH_TOKEN, OWN_TOKEN]) expect(env).not.toContain(secret)
    expect(env).not.toMatch(/^GIT_DIR=/m)
    expect(
      git(a.workspace, 'for-each-ref', '--format=%(refname)', 'refs/rewind-studio/')
    ).toContain(`refs/rewind-studio/sessions/${session.sessionId}`)
    expect(git(decoy, 'for-each-ref')).toBe('')
    expect(git(decoy, 'count-objects')).toMatch(/^0 objects/)
  })
})
