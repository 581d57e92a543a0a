// The app's own key is masked wherever it appears, whatever it looks like: masking went by the
// shapes keys have (sk-ant-…), so a gateway's token in ANTHROPIC_AUTH_TOKEN, or any key of
// another shape, that the agent read from a .env or found with Bash reached the session log, the
// terminal and exports (found by a hostile sweep: four copies in the log). The process knows the
// exact values it was handed (core/os/env-secrets.ts): each is masked as such.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'
import { maskLiterally, maskSecrets } from '../../src/shared/mask-secrets'
import { runCli, seedWorkspace } from '../support/cli'

// Built at run time, of no shape a pattern knows: lower case letters and dashes only.
const token = ['gateway', 'token', 'of', 'no', 'known', 'shape'].join('-')

describe("the app's own key, whatever its shape", () => {
  it('is masked in tool results before they are logged, in the terminal and in an export', async () => {
    const { workspace, home } = seedWorkspace()
    writeFileSync(join(workspace, '.env'), `ANTHROPIC_AUTH_TOKEN=${token}\n`)
    const script = join(home, '..', 'script.json')
    const responses = [
      [{ type: 'tool_use', name: 'Read', input: { file_path: '.env' } }],
      [{ type: 'tool_use', name: 'Bash', input: { command: 'cat .env' } }],
      [{ type: 'text', text: 'read both' }]
    ]
    writeFileSync(script, JSON.stringify({ rules: [{ match: '', responses }] }))
    const env = { REWIND_STUDIO_HOME: home, ANTHROPIC_AUTH_TOKEN: token }
    const chat = await runCli(
      [
        'chat',
        '--cwd',
        workspace,
        '--model',
        `scripted:${script}`,
        '--permission-mode',
        'bypassPermissions'
      ],
      { input: 'show me the env\n/exit\n', env }
    )
    expect(chat.code, chat.stderr).toBe(0)
    expect(chat.stdout).toContain('read both')
    expect(chat.stdout).toContain(`…(${token.length} chars, masked)`)
    expect(chat.stdout).not.toContain(token)
    const file = SessionStore.latest(home, workspace) ?? ''
    const log = readFileSync(file, 'utf8')
    expect(log).toContain('masked')
    expect(log).not.toContain(token)

    // A prompt holding it stays in the log as the user wrote it; an export masks it.
    const prompt = await runCli(
      ['chat', '--cwd', workspace, '--continue', '--model', `scripted:${script}`],
      {
        input: `my token is ${token}\n/exit\n`,
        env
      }
    )
    expect(prompt.code, prompt.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toContain(token)
    const exported = await runCli(['export', file], { env })
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toContain('my token is')
    expect(exported.stdout).not.toContain(token)
  })

  it('is masked only when long enough not to mask words, and masking twice changes nothing', () => {
    maskLiterally(['short', 'a-literal-secret'])
    expect(maskSecrets('short words stay')).toBe('short words stay')
    const once = maskSecrets('x a-literal-secret y a-literal-secret')
    expect(once).toBe('x …(16 chars, masked) y …(16 chars, masked)')
    expect(maskSecrets(once)).toBe(once)
  })
})
