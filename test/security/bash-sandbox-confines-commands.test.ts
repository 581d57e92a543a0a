// Finding 10: "Say what Bash can do. [...] Offer, as a setting (`bash.sandbox`), Bash confined to
// the workspace (writes only inside it, no network) with Linux's bubblewrap where it works [...],
// and say plainly where it is not available."
//
// The real CLI chat runs one command that writes inside the workspace, beside it, into its .git,
// and connects to a server on the host's loopback: with the user's rights (bash.sandbox off) all
// of it works; with `--setting bash.sandbox=true` only the write inside the workspace does.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bashSandboxUnavailable } from '../../src/core/os/bash-sandbox'
import { SessionStore } from '../../src/core/session/store'
import { bashScript, runCli, seedWorkspace } from '../support/cli'

/** A workspace with a .git folder, and the command that tries every way out of it. */
function escapeAttempt(port: number) {
  const { workspace, home } = seedWorkspace()
  mkdirSync(join(workspace, '.git'))
  const command = [
    'echo in > inside.txt',
    'echo out > ../outside.txt',
    'echo x > .git/planted',
    `(exec 3<>/dev/tcp/127.0.0.1/${port}) && echo NET-CONNECTED || echo NET-REFUSED`
  ].join('; ')
  const run = (...settings: string[]) =>
    runCli(
      [
        'chat',
        '--cwd',
        workspace,
        '--model',
        bashScript(command),
        '--permission-mode',
        'bypassPermissions',
        ...settings
      ],
      { input: 'run it\n', env: { REWIND_STUDIO_HOME: home } }
    )
  return {
    run,
    log: () => readFileSync(SessionStore.list(home, workspace)[0]?.file as string, 'utf8'),
    wrote: () => ({
      inside: existsSync(join(workspace, 'inside.txt')),
      outside: existsSync(join(dirname(workspace), 'outside.txt')),
      git: existsSync(join(workspace, '.git', 'planted'))
    })
  }
}

let server: Server | null = null
let connections = 0
async function listen(): Promise<number> {
  connections = 0
  server = createServer((socket) => {
    connections += 1
    socket.destroy()
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}
afterEach(async () => {
  await new Promise((resolve) => (server === null ? resolve(null) : server.close(resolve)))
  server = null
})

const unavailable = bashSandboxUnavailable()
if (unavailable !== null)
  console.log(`bash-sandbox-confines-commands.test.ts: sandbox tests skipped: ${unavailable}`)

describe("Bash with the user's rights (bash.sandbox off)", () => {
  it('writes outside the workspace and into .git, and reaches the network', async () => {
    const attempt = escapeAttempt(await listen())
    const run = await attempt.run()
    expect(run.stdout).toContain('NET-CONNECTED')
    expect(attempt.wrote()).toEqual({ inside: true, outside: true, git: true })
    expect(connections).toBe(1)
  })
})

describe.skipIf(unavailable !== null)('Bash in the sandbox (bash.sandbox=true)', () => {
  it('writes only inside the workspace, not into its .git, and has no network', async () => {
    const attempt = escapeAttempt(await listen())
    const run = await attempt.run('--setting', 'bash.sandbox=true')
    expect(run.stdout).toContain('NET-REFUSED')
    expect(run.stdout).toContain('Read-only file system')
    expect(run.stdout).toContain('● ran it')
    expect(attempt.wrote()).toEqual({ inside: true, outside: false, git: false })
    expect(connections).toBe(0)
    // File history still sees what the command changed inside the workspace.
    expect(attempt.log()).toContain('"created":["inside.txt"]')
  })
})

describe('Bash set to the sandbox where bubblewrap is missing', () => {
  it('says so when the chat starts and refuses to run the command', async () => {
    // A PATH with bash on it and no bwrap.
    const bin = mkdtempSync(join(tmpdir(), 'rs-path-'))
    symlinkSync('/bin/bash', join(bin, 'bash'))
    const { workspace, home } = seedWorkspace()
    const run = await runCli(
      [
        'chat',
        '--cwd',
        workspace,
        '--model',
        bashScript('echo in > inside.txt'),
        '--permission-mode',
        'bypassPermissions',
        '--setting',
        'bash.sandbox=true'
      ],
      { input: 'run it\n', env: { REWIND_STUDIO_HOME: home, PATH: bin } }
    )
    const refusal =
      'The Bash sandbox (setting bash.sandbox) cannot run here: bubblewrap (bwrap) is not installed.'
    expect(run.stdout).toContain(`! ${refusal} Bash will refuse to run commands.`)
    expect(run.stdout).toContain(`✘ Bash -> ${refusal} The command was not run.`)
    expect(existsSync(join(workspace, 'inside.txt'))).toBe(false)
  })
})
