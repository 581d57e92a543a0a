// The environment every child process the app starts gets: its own, minus the secrets. Whatever a
// child prints can end up in the session log, which is kept for good: one `env` run through Bash
// would otherwise write the API key there. Children are started from this module only (lint
// forbids importing node:child_process anywhere else in src): commands through the helper
// startNodeHelper starts (command-runner.ts), which passes them childEnv(); Workers get it too.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'

/** What the Anthropic SDK reads from the environment to authenticate. */
const MODEL_SECRETS = new Set(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'])

/** Our own variables that hold secrets, now or later: REWIND_STUDIO_…KEY, …TOKEN, … */
const OWN_SECRET = /^REWIND_STUDIO_\w*(KEY|TOKEN|SECRET|PASSWORD)/

/**
 * Variables naming a socket or a session of a program outside (an agent, a bus, a display, a
 * terminal multiplexer, an editor): what a command uses to ask one of them to act for it. The
 * Bash sandbox unsets them (bash-sandbox.ts) and hides the sockets they name; a command with the
 * user's rights keeps them (`git push` through ssh-agent), as it could find the sockets anyway.
 */
export const SOCKET_VARIABLES = [
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'GNOME_KEYRING_CONTROL',
  'DOCKER_HOST',
  'CONTAINER_HOST',
  'WAYLAND_DISPLAY',
  'DISPLAY',
  'XAUTHORITY',
  'PULSE_SERVER',
  'TMUX',
  'STY',
  'NVIM',
  'NVIM_LISTEN_ADDRESS',
  'KITTY_LISTEN_ON',
  'WEZTERM_UNIX_SOCKET',
  'SWAYSOCK',
  'I3SOCK',
  'VSCODE_IPC_HOOK_CLI',
  'VSCODE_GIT_IPC_HANDLE',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'KRB5CCNAME'
] as const

export function isSecretName(name: string): boolean {
  return MODEL_SECRETS.has(name) || OWN_SECRET.test(name)
}

/** `env` without the secrets. */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretName(name)))
}

/**
 * A Node process running `source` (JavaScript, as `node -e` takes it) with an IPC channel
 * (advanced serialization: Buffers pass as they are), the environment scrubbed. Under Electron
 * its own binary runs as Node (ELECTRON_RUN_AS_NODE), which the helper's children do not
 * inherit: they get the environment the helper is sent.
 */
export function startNodeHelper(source: string): ChildProcess {
  return spawn(process.execPath, ['-e', source], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
    env: { ...childEnv(), ELECTRON_RUN_AS_NODE: '1' }
  })
}

/** Runs `command` to its end (stdin empty, scrubbed environment): for quick probes only. */
export function runChildSync(
  command: string,
  args: readonly string[],
  options: { cwd: string; timeoutMs: number }
): { status: number | null; stderr: string; error: Error | undefined } {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: childEnv(),
    timeout: options.timeoutMs,
    encoding: 'utf8'
  })
  return { status: result.status, stderr: result.stderr ?? '', error: result.error }
}
