// Issue 26, item 12: "The API key reaches Bash through `/proc`. The child's environment is clean,
// but `/proc/<app pid>/environ` holds `ANTHROPIC_API_KEY`; it went unmasked into the session log
// and to the model. The app must not keep the key in its own environment once read, and
// key-shaped strings in tool results are masked before they are logged."
//
// The real CLI chat, with a key and an auth token in its environment, talks through the real SDK
// to the loopback Messages API. Its Bash reads the environment block of the app's own process
// (the parent of the process that starts commands) as a command of the agent would.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'
import { chatIn, seedWorkspace } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'

// Not key-shaped (masking would hide them): what the first test sees is what /proc holds.
const KEY = 'plain-test-key-read-from-proc'
const AUTH_TOKEN = 'plain-auth-token-read-from-proc'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

function bashThenText(command: string) {
  return [
    {
      kind: 'message' as const,
      content: [{ type: 'tool_use' as const, id: 'toolu_proc', name: 'Bash', input: { command } }]
    },
    { kind: 'message' as const, content: [{ type: 'text' as const, text: 'done' }] }
  ]
}

function logOf(home: string, workspace: string): string {
  const [file] = SessionStore.list(home, workspace).map((s) => s.file)
  return readFileSync(file as string, 'utf8')
}

describe.skipIf(process.platform !== 'linux')("the app's /proc/<pid>/environ", () => {
  it('holds no API key or auth token once the app has started, and the key still works', async () => {
    // $PPID is the helper that starts commands; its parent is the app (fourth field of stat).
    const command = [
      'app=$(cut -d" " -f4 /proc/$PPID/stat)',
      'tr "\\0" "\\n" < /proc/$app/cmdline | grep -c rewind-studio',
      'tr "\\0" "\\n" < /proc/$app/environ | grep -a -e ANTHROPIC -e MARKER_FOR_TEST'
    ].join('; ')
    server = await startMessagesServer(bashThenText(command))
    const { workspace, home } = seedWorkspace()
    const chat = chatIn(workspace, 'claude-test', {
      REWIND_STUDIO_HOME: home,
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_AUTH_TOKEN: AUTH_TOKEN,
      ANTHROPIC_BASE_URL: server.url,
      MARKER_FOR_TEST: 'inherited'
    })
    const run = await chat('read the environ\n/exit\n', '--permission-mode', 'bypassPermissions')
    expect(run.stdout).toContain('● done')

    const log = logOf(home, workspace)
    // The command read the app's own block: its command line, and a variable it was started with.
    // The names are there, their values blanked.
    expect(log).toContain(
      '"content":"1\\nANTHROPIC_API_KEY=\\nANTHROPIC_AUTH_TOKEN=\\nANTHROPIC_BASE_URL='
    )
    expect(log).toContain('MARKER_FOR_TEST=inherited"')
    for (const secret of [KEY, AUTH_TOKEN]) expect(log).not.toContain(secret)
    // Taken out of the environment, the key still reached the API.
    // (SDK 1.14 sends it as a bearer token; older versions used x-api-key.)
    const headers = server.requests[0]?.headers
    expect(headers?.['x-api-key'] ?? headers?.authorization).toMatch(new RegExp(`${KEY}$`))
  })
})

describe('a key-shaped string in a tool result', () => {
  it('is masked before it is logged and before the model is sent the result', async () => {
    // Built at run time, so the test file itself holds nothing a secret scanner would flag.
    const leaked = `sk-ant-api03-${'Qw3'.repeat(30)}ZzYy`
    server = await startMessagesServer(bashThenText(`echo "found ANTHROPIC_API_KEY=${leaked}"`))
    const { workspace, home } = seedWorkspace()
    const chat = chatIn(workspace, 'claude-test', {
      REWIND_STUDIO_HOME: home,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: server.url
    })
    const run = await chat('print it\n/exit\n', '--permission-mode', 'bypassPermissions')
    expect(run.stdout).toContain('● done')

    const log = logOf(home, workspace)
    // The model asked for the command with the key in it (the log keeps what it said) ...
    expect(log).toContain(`"command":"echo \\"found ANTHROPIC_API_KEY=${leaked}\\""`)
    // ... and the result holds it masked, in the log and in what the model was sent.
    const masked = `found ANTHROPIC_API_KEY=sk-ant-…(${leaked.length} chars, masked)`
    expect(log).toContain(masked)
    expect(log.split(leaked).length - 1).toBe(1)
    const resultSent = JSON.stringify(server.requests[1]?.body.messages.at(-1))
    expect(resultSent).toContain(masked)
    expect(resultSent).not.toContain(leaked)
  })
})
