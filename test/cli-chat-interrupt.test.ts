// The terminal chat when the user interrupts or goes away: Ctrl-C (SIGINT) while a turn runs,
// stdin ending while a permission question waits, output too long for a terminal, a model that
// needs a key it does not have. Each runs the real command in a child process.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sessionsDir } from '../src/core/session/paths'
import { SessionStore } from '../src/core/session/store'
import { runCli, seedWorkspace, startCli } from './support/cli'

function scriptFile(rules: unknown[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  writeFileSync(file, JSON.stringify({ rules }))
  return `scripted:${file}`
}

const sleeper = scriptFile([
  {
    match: 'sleep',
    responses: [
      [{ type: 'tool_use', name: 'Bash', input: { command: 'sleep 30' } }],
      [{ type: 'text', text: 'slept' }]
    ]
  },
  { match: '', responses: [[{ type: 'text', text: 'here again' }]] }
])

/** Every tool_use in the session log has a tool_result somewhere after it. */
function unansweredCalls(file: string): string[] {
  const log = readFileSync(file, 'utf8')
  const calls = [...log.matchAll(/"type":"tool_use","id":"([^"]+)"/g)].map((m) => m[1])
  return calls.filter((id) => !log.includes(`"tool_use_id":"${id}"`)) as string[]
}

describe('cli chat interrupted', () => {
  it('Ctrl-C while a command runs stops the turn, keeps the session whole and reads on', async () => {
    const { workspace, home } = seedWorkspace()
    const chat = startCli(
      ['chat', '--cwd', workspace, '--model', sleeper, '--permission-mode', 'bypassPermissions'],
      { REWIND_STUDIO_HOME: home }
    )
    chat.child.stdin.write('sleep a while\n')
    await chat.waitFor('⏺ Bash(sleep 30)')
    chat.child.kill('SIGINT')
    await chat.waitFor('Interrupted')
    chat.child.stdin.write('are you there?\n')
    await chat.waitFor('● here again')
    chat.child.stdin.end()
    expect(await chat.exited).toEqual({ code: 0, signal: null })
    const [file] = SessionStore.list(home, workspace).map((s) => s.file)
    expect(unansweredCalls(file as string)).toEqual([])
    expect(chat.stdout()).not.toContain('● slept')
  })

  it('Ctrl-C while idle leaves like /exit, releasing the session', async () => {
    const { workspace, home } = seedWorkspace()
    const chat = startCli(['chat', '--cwd', workspace, '--model', sleeper], {
      REWIND_STUDIO_HOME: home
    })
    await chat.waitFor('Session ')
    chat.child.kill('SIGINT')
    expect(await chat.exited).toEqual({ code: 0, signal: null })
    // Left before its first prompt, the session leaves nothing: no file, no lock.
    expect(SessionStore.list(home, workspace)).toEqual([])
    expect(readdirSync(sessionsDir(home, workspace))).toEqual([])
  })

  it('stdin ending while a permission question waits: denied, the session whole, exit 0', async () => {
    const { workspace, home } = seedWorkspace()
    const run = await runCli(
      ['chat', '--cwd', workspace, '--model', sleeper, '--permission-mode', 'default'],
      { input: 'sleep a while\n', env: { REWIND_STUDIO_HOME: home } }
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('✘ Bash -> The user denied permission for Bash(sleep 30).')
    const [file] = SessionStore.list(home, workspace).map((s) => s.file)
    expect(unansweredCalls(file as string)).toEqual([])
  })

  it('shows a very long tool output cut to a few short lines', async () => {
    const { workspace, home } = seedWorkspace()
    const model = scriptFile([
      {
        match: 'print',
        responses: [
          [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: "yes x | head -n 50000 | tr -d '\\n'; echo; seq 1 500" }
            }
          ],
          [{ type: 'text', text: 'printed' }]
        ]
      }
    ])
    const run = await runCli(
      ['chat', '--cwd', workspace, '--model', model, '--permission-mode', 'bypassPermissions'],
      { input: 'print a lot\n', env: { REWIND_STUDIO_HOME: home } }
    )
    expect(run.stdout).toContain('● printed')
    expect(run.stdout).toContain('✔ Bash -> xxx')
    const longest = Math.max(...run.stdout.split('\n').map((l) => l.length))
    expect(longest).toBeLessThan(400)
    expect(run.stdout.length).toBeLessThan(5000)
  })

  it('--model naming an API model without a key says how to fix it, and starts nothing', async () => {
    const { workspace, home } = seedWorkspace()
    const run = await runCli(['chat', '--cwd', workspace, '--model', 'claude-sonnet-4-5'], {
      input: 'hello\n',
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(
      'rewind-studio: Model claude-sonnet-4-5 needs an API key: set ANTHROPIC_API_KEY (or use --model scripted:FILE to run offline).'
    )
    expect(SessionStore.list(home, workspace)).toEqual([])
  })

  it('a scripted model file that cannot be read is one line, no stack trace', async () => {
    const { workspace, home } = seedWorkspace()
    const run = await runCli(['chat', '--cwd', workspace, '--model', 'scripted:/no/such.json'], {
      env: { REWIND_STUDIO_HOME: home }
    })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(
      'rewind-studio: Scripted model file /no/such.json cannot be read: ENOENT'
    )
  })
})
