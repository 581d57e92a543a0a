// Finding 5 (first half), secrets: "Bash inherits ANTHROPIC_API_KEY (one `env` writes the key
// into the session log for good). Remove the key and the app's own secrets from the environment
// of every child process."
//
// The real CLI chat, with a key, talks through the real SDK to a loopback Messages API that
// asks for `env`; the session log then holds env's output, and no secret in it.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'
import { chatIn, seedWorkspace } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'

const KEY = 'sk-ant-test-0123456789-secret'
const AUTH_TOKEN = 'auth-token-secret-4567'
const OWN_TOKEN = 'own-token-secret-8910'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

describe('the environment of a Bash command', () => {
  it('holds no API key, auth token or Rewind Studio secret, so `env` logs none', async () => {
    server = await startMessagesServer([
      {
        kind: 'message',
        content: [{ type: 'tool_use', id: 'toolu_env', name: 'Bash', input: { command: 'env' } }]
      },
      { kind: 'message', content: [{ type: 'text', text: 'listed' }] }
    ])
    const { workspace, home } = seedWorkspace()
    const chat = chatIn(workspace, 'claude-test', {
      REWIND_STUDIO_HOME: home,
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_AUTH_TOKEN: AUTH_TOKEN,
      REWIND_STUDIO_SYNC_TOKEN: OWN_TOKEN,
      ANTHROPIC_BASE_URL: server.url,
      MARKER_FOR_TEST: 'inherited'
    })
    const run = await chat(
      'list the environment\n/exit\n',
      '--permission-mode',
      'bypassPermissions'
    )
    expect(run.stdout).toContain('● listed')

    const [file] = SessionStore.list(home, workspace).map((s) => s.file)
    const log = readFileSync(file as string, 'utf8')
    // env did run and its output is in the log: the rest of the environment is still passed on.
    expect(log).toContain('MARKER_FOR_TEST=inherited')
    expect(log).toContain(`REWIND_STUDIO_HOME=${home}`)
    for (const secret of [KEY, AUTH_TOKEN, OWN_TOKEN]) expect(log).not.toContain(secret)
    expect(log).not.toContain('ANTHROPIC_API_KEY')
  })
})
