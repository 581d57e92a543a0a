// Issue 26, item 11: "The Bash sandbox can be escaped two ways (bubblewrap ran). (a) In a folder
// that is not yet a repository, a sandboxed `git init && git config core.fsmonitor '…'`
// succeeds, and the user's next `git status` runs the command; `.git` is made read-only only when
// it already exists. (b) Unix sockets of the host stay reachable (a stand-in daemon on
// `/var/tmp/*.sock` ran a command outside); [...] `DBUS_SESSION_BUS_ADDRESS` and `SSH_AUTH_SOCK`
// are passed in."
//
// The real CLI chat runs one sandboxed command (real bubblewrap) that plants git repositories
// every way git finds one, or that asks stand-in daemons outside to act. Then real `git status`
// runs outside, in each folder, as the user would: nothing the command planted may run.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bashSandboxUnavailable } from '../../src/core/os/bash-sandbox'
import { SessionStore } from '../../src/core/session/store'
import { bashScript, runCli, seedWorkspace } from '../support/cli'

const unavailable = bashSandboxUnavailable()
if (unavailable !== null) {
  console.log(`bash-sandbox-leaves-nothing-to-run.test.ts: skipped: ${unavailable}`)
}

/** The chat, sandboxed, running `command` once in `workspace`. */
async function runSandboxed(
  workspace: string,
  home: string,
  command: string,
  env: Record<string, string> = {}
) {
  const run = await runCli(
    [
      'chat',
      '--cwd',
      workspace,
      '--model',
      bashScript(command),
      '--permission-mode',
      'bypassPermissions',
      '--setting',
      'bash.sandbox=true'
    ],
    { input: 'run it\n', env: { REWIND_STUDIO_HOME: home, ...env } }
  )
  expect(run.stdout).toContain('● ran it')
  const file = SessionStore.list(home, workspace)[0]?.file as string
  const log = readFileSync(file, 'utf8')
  // What the command printed and the notes after it, as the model was given them.
  const result = /"type":"tool_result","tool_use_id":"[^"]+","content":("(?:[^"\\]|\\.)*")/.exec(
    log
  )?.[1]
  return { log, result: JSON.parse(result ?? '""') as string }
}

/** `git status` as the user runs it, outside the sandbox, with no config of their own. */
function gitStatus(cwd: string): void {
  spawnSync('git', ['status'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: mkdtempSync(join(tmpdir(), 'rs-git-home-')) },
    stdio: 'ignore',
    timeout: 20_000
  })
}

/** A file outside the workspace, which only something outside the sandbox can make. */
function marker(): string {
  return join(mkdtempSync(join(tmpdir(), 'rs-marker-')), 'ran-outside')
}

describe.skipIf(unavailable !== null)('a sandboxed command and git', () => {
  it('cannot make a folder that is not a repository into one that runs a command on `git status`', async () => {
    const { workspace, home } = seedWorkspace()
    const ran = marker()
    const fsmonitor = `git config core.fsmonitor 'touch ${ran}; false'`
    const command = [
      // The finding: a new repository in the root.
      `git init -q && ${fsmonitor}; echo "init: $?"`,
      // The root as a bare repository whose work tree is itself.
      `git init -q --bare . ; git config core.bare false; git config core.worktree "$PWD"; ${fsmonitor}; echo "bare: $?"`,
      // Further down: a new repository, a bare one, a gitdir file pointing at one.
      `git init -q sub && (cd sub && ${fsmonitor})`,
      `mkdir nest && git init -q --bare nest && git -C nest config core.bare false && git -C nest config core.worktree "$PWD/nest" && (cd nest && ${fsmonitor})`,
      `git init -q --bare hidden && (cd hidden && ${fsmonitor}) && mkdir linked && echo "gitdir: ../hidden" > linked/.git`
    ].join('\n')
    const { result } = await runSandboxed(workspace, home, command)
    expect(result).toMatch(/^.*Read-only file system[^]*init: [1-9]/)

    for (const folder of ['', 'sub', 'nest', 'linked', 'hidden']) gitStatus(join(workspace, folder))
    expect(existsSync(ran)).toBe(false)
    // The root is as it was (no placeholder left); what was made further down is disarmed,
    // renamed, and the command's result says so.
    expect(existsSync(join(workspace, '.git'))).toBe(false)
    expect(existsSync(join(workspace, 'HEAD'))).toBe(false)
    expect(existsSync(join(workspace, 'sub/.git'))).toBe(false)
    expect(existsSync(join(workspace, 'sub/.git-from-sandbox/config'))).toBe(true)
    expect(existsSync(join(workspace, 'nest/HEAD-from-sandbox'))).toBe(true)
    expect(result).toContain(
      'Disarmed a git repository the command made (git runs its hooks and config outside the sandbox): sub/.git was renamed sub/.git-from-sandbox.'
    )
    expect(result).toContain('nest/HEAD was renamed nest/HEAD-from-sandbox.')
    expect(result).toContain('linked/.git was renamed linked/.git-from-sandbox.')
  })

  it('cannot make the root a repository where an app killed mid-command left its placeholders', async () => {
    const { workspace, home } = seedWorkspace()
    mkdirSync(join(workspace, '.git'))
    writeFileSync(join(workspace, 'HEAD'), '')
    const ran = marker()
    const command = [
      'mkdir -p objects refs/heads; echo "ref: refs/heads/main" > HEAD; echo "head: $?"',
      `printf '[core]\\n\\tbare = false\\n\\tworktree = %s\\n\\tfsmonitor = touch ${ran}; false\\n' "$PWD" > config`
    ].join('\n')
    const { result } = await runSandboxed(workspace, home, command)
    expect(result).toContain('head: 1')
    gitStatus(workspace)
    expect(existsSync(ran)).toBe(false)
    // What was there stays: neither was made by this command.
    expect(readFileSync(join(workspace, 'HEAD'), 'utf8')).toBe('')
    expect(existsSync(join(workspace, '.git'))).toBe(true)
  })

  it('cannot change the hooks or config of a repository nested in the workspace', async () => {
    const { workspace, home } = seedWorkspace()
    mkdirSync(join(workspace, 'lib'))
    spawnSync('git', ['init', '-q', join(workspace, 'lib')])
    const ran = marker()
    const command = [
      `git -C lib config core.fsmonitor 'touch ${ran}; false'; echo "config: $?"`,
      `printf '#!/bin/sh\\ntouch ${ran}\\n' > lib/.git/hooks/post-checkout; echo "hook: $?"`
    ].join('\n')
    const { result } = await runSandboxed(workspace, home, command)
    expect(result).toContain('could not lock config file .git/config: Read-only file system')
    expect(result).toContain('hook: 1')
    gitStatus(join(workspace, 'lib'))
    expect(existsSync(ran)).toBe(false)
    expect(readFileSync(join(workspace, 'lib/.git/config'), 'utf8')).not.toContain('fsmonitor')
  })
})

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
})

/** A stand-in daemon: whatever connects makes it write `ran` (it "runs a command" outside). */
async function daemon(path: string, ran: string): Promise<void> {
  const server = createServer((socket) => {
    socket.end()
    mkdirSync(ran, { recursive: true })
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(path, done))
}

describe.skipIf(unavailable !== null)('a sandboxed command and the host’s unix sockets', () => {
  it('reaches no daemon on a socket of the host and is given no socket address', async () => {
    const { workspace, home } = seedWorkspace()
    const ran = marker()
    const sockets = {
      varTmp: join(mkdtempSync('/var/tmp/rs-daemon-'), 'daemon.sock'),
      inWorkspace: join(workspace, 'dev.sock'),
      abstract: `\0rs-abstract-${process.pid}`
    }
    for (const [name, path] of Object.entries(sockets)) await daemon(path, join(ran, name))
    // `@name`: the abstract socket `\0name` (an argument cannot hold a NUL).
    const connect = (path: string) =>
      `${process.execPath} -e 'const p = process.argv[1]; require("net").connect(p[0] === "@" ? "\\0" + p.slice(1) : p).on("connect", () => console.log("CONNECTED")).on("error", (e) => console.log(e.code))' '${path.replace('\0', '@')}'`
    const command = [
      ...Object.values(sockets).map(connect),
      'echo "ssh=${SSH_AUTH_SOCK-unset} dbus=${DBUS_SESSION_BUS_ADDRESS-unset}"'
    ].join('\n')
    try {
      const { result } = await runSandboxed(workspace, home, command, {
        SSH_AUTH_SOCK: sockets.varTmp,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${sockets.varTmp}`
      })
      // /var/tmp is empty, /dev/null stands on the workspace's socket, the network namespace
      // has no abstract socket of the host.
      expect(result.split('\n').slice(0, 4)).toEqual([
        'ENOENT',
        'ECONNREFUSED',
        'ECONNREFUSED',
        'ssh=unset dbus=unset'
      ])
      expect(existsSync(ran)).toBe(false)
    } finally {
      rmSync(join(sockets.varTmp, '..'), { recursive: true, force: true })
    }
  })
})
