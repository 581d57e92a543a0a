// The environment every child process the app starts gets: its own, minus the secrets. Whatever a
// child prints can end up in the session log, which is kept for good: one `env` run through Bash
// would otherwise write the API key there. Children are started from this module only (lint
// forbids importing node:child_process anywhere else in src): commands through the helper
// startNodeHelper starts (command-runner.ts), which passes them childEnv(); Workers get it too;
// a program run to its end with bounds on its time and output (git, for sharing) by runChild.
import { CodedError } from '../../shared/coded-error'
import type { ChildProcess } from 'node:child_process'

/**
 * node:child_process, loaded when the first child starts: every command imports this module
 * (through env-secrets.ts, for isSecretName) and most start no child, while loading the built-in
 * costs ~4 ms of CPU (with the dgram and socket modules it pulls in).
 */
const childProcess = () => process.getBuiltinModule('node:child_process')

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

/**
 * Variables that would point git at another repository, index or object folder than the
 * one a command means: a user's shell may hold one (a script run from a hook), and sharing
 * (share/git.ts) and merging (merge/merge-tree.ts) must write nowhere else.
 */
export const GIT_REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE'
]

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
  return childProcess().spawn(process.execPath, ['-e', source], {
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
  const result = childProcess().spawnSync(command, args, {
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: childEnv(),
    timeout: options.timeoutMs,
    encoding: 'utf8'
  })
  return { status: result.status, stderr: result.stderr ?? '', error: result.error }
}

export interface RunChildOptions {
  cwd: string
  /** The child's environment before the secrets are taken out (default: this process's). */
  env?: NodeJS.ProcessEnv
  /** What the child reads on stdin, written as it drains (default: nothing, stdin closed). */
  input?: Iterable<Uint8Array | string>
  /** Past this the child's whole process group is killed and the run rejects. */
  timeoutMs: number
  /** Most bytes of stdout kept; past it the child is killed and the run rejects. */
  maxStdoutBytes: number
}

export interface ChildRun {
  status: number | null
  stdout: Buffer
  /** The last 64 KB of stderr, as text. */
  stderr: string
}

/** Why a bounded child run did not get to its end: timed out, too much output, no start. */
export class ChildRunError extends CodedError {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'output' | 'spawn'
  ) {
    super('unavailable', message)
    this.name = 'ChildRunError'
  }
}

const STDERR_KEPT = 64 * 1024

/**
 * Runs `command args` to its end with everything bounded: its time, the stdout kept, the stderr
 * kept (its tail). It leads a process group of its own (no controlling terminal, so nothing it
 * starts can stop to ask on one), which a timeout or too much output kills whole.
 * Resolves with the exit status, whatever it is; rejects only when the run was cut short.
 */
export function runChild(
  command: string,
  args: readonly string[],
  options: RunChildOptions
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess
    try {
      child = childProcess().spawn(command, args, {
        cwd: options.cwd,
        env: childEnv(options.env),
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        detached: true
      })
    } catch (error) {
      reject(new ChildRunError(`${command} could not start: ${(error as Error).message}`, 'spawn'))
      return
    }
    const stdout: Buffer[] = []
    let stdoutBytes = 0
    let stderr = ''
    let cut: ChildRunError | null = null
    const kill = (why: ChildRunError) => {
      cut ??= why
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // Gone already.
        }
      }
    }
    const timer = setTimeout(
      () =>
        kill(
          new ChildRunError(
            `${command} ${args[0] ?? ''} took longer than ${Math.round(options.timeoutMs / 1000)} s and was stopped`,
            'timeout'
          )
        ),
      options.timeoutMs
    )
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length
      if (stdoutBytes > options.maxStdoutBytes) {
        kill(
          new ChildRunError(
            `${command} ${args[0] ?? ''} printed more than ${options.maxStdoutBytes} bytes and was stopped`,
            'output'
          )
        )
      } else stdout.push(chunk)
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT)
    })
    if (options.input !== undefined && child.stdin) {
      const stdin = child.stdin
      // A child that exits without reading all of it closes the pipe: its status says why.
      stdin.on('error', () => undefined)
      void writeAll(stdin, options.input).catch(() => undefined)
    }
    child.once('error', (error) =>
      kill(new ChildRunError(`${command} could not start: ${error.message}`, 'spawn'))
    )
    child.once('close', (status) => {
      clearTimeout(timer)
      if (cut !== null) reject(cut)
      else resolve({ status, stdout: Buffer.concat(stdout), stderr })
    })
  })
}

/** Writes every piece to `stream`, waiting while it is full, then ends it. */
async function writeAll(
  stream: NodeJS.WritableStream,
  pieces: Iterable<Uint8Array | string>
): Promise<void> {
  for (const piece of pieces) {
    if (!stream.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done)
          stream.off('close', done)
          resolve()
        }
        stream.on('drain', done)
        stream.on('close', done)
      })
    }
  }
  stream.end()
}
