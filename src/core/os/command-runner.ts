// Starts the agent's commands (Bash) from a small helper process instead of from this one.
//
// Why: Node starts a child with fork(), whose cost follows the size of the process that forks
// (its page tables are copied): ~2 ms from a fresh Node process, ~4–5 ms from the studio at
// 110–140 MB, ~10 ms at 190 MB (docs/performance.md, "Agent overhead per turn"), and Node offers
// no vfork or posix_spawn. The helper stays small, so every command costs what it costs from a
// small process, plus one message each way.
//
// What stays as it was: the command line is run as given (the sandbox's bwrap line included);
// its environment is this process's scrubbed one (childEnv), taken when the command starts and
// sent along; it gets its own process group, which the caller signals directly by pid (stop,
// timeout); when the command exits, whatever it left running in its group is killed; output
// flows back as it comes, the helper pausing the command's pipes while its messages wait, so
// memory stays bounded whatever the command prints. The helper exits when this process goes,
// killing the groups of the commands still running.
import { childEnv, startNodeHelper } from './child-env'
import { signalGroup } from './process-group'

/**
 * The helper: plain JavaScript run with `node -e` (no build step, nothing to import), kept
 * short. Messages in: {id, file, args, cwd, env}. Out: start {pid}, out {stream, data}, failed
 * {message, code} (could not start), done {code} (exited and its pipes closed).
 */
const HELPER_SOURCE = `
'use strict'
const { spawn } = require('node:child_process')
const running = new Map()
const killGroup = (pid) => { try { process.kill(-pid, 'SIGKILL') } catch {} }
let inflight = 0
const send = (message, streams) => {
  inflight += 1
  if (inflight > 8) for (const s of streams) s.pause()
  process.send(message, () => {
    inflight -= 1
    if (inflight <= 8) for (const s of streams) s.resume()
  })
}
process.on('message', ({ id, file, args, cwd, env }) => {
  let child
  try {
    child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    process.send({ id, type: 'failed', message: String(error && error.message), code: error && error.code })
    return
  }
  const streams = [child.stdout, child.stderr]
  let exitCode = null
  let failed = false
  child.on('error', (error) => {
    failed = true
    process.send({ id, type: 'failed', message: error.message, code: error.code })
  })
  if (child.pid === undefined) return
  const pid = child.pid
  running.set(id, pid)
  process.send({ id, type: 'start', pid })
  streams.forEach((stream, index) => stream.on('data', (data) => send({ id, type: 'out', stream: index, data }, streams)))
  child.on('exit', (code) => {
    exitCode = code
    killGroup(pid)
  })
  child.on('close', () => {
    running.delete(id)
    if (!failed) process.send({ id, type: 'done', code: exitCode })
  })
})
process.on('disconnect', () => {
  for (const pid of running.values()) killGroup(pid)
  process.exit(0)
})
`

type HelperMessage =
  | { id: number; type: 'start'; pid: number }
  | { id: number; type: 'out'; stream: 0 | 1; data: Uint8Array }
  | { id: number; type: 'failed'; message: string; code?: string }
  | { id: number; type: 'done'; code: number | null }

export interface CommandHandlers {
  /** The command started as process `pid`, the leader of its own process group. */
  onStart(pid: number): void
  onOutput(stream: 'stdout' | 'stderr', chunk: Buffer): void
}

interface Pending {
  handlers: CommandHandlers
  /** Its process group, once started. */
  pid: number | null
  resolve(result: { exitCode: number | null }): void
  reject(error: Error): void
}

class CommandHelper {
  private readonly pending = new Map<number, Pending>()
  private nextId = 0
  private readonly child: ReturnType<typeof startNodeHelper>

  constructor(private readonly onGone: () => void) {
    this.child = startNodeHelper(HELPER_SOURCE)
    this.child.on('message', (message: HelperMessage) => this.receive(message))
    this.child.on('error', (error) => this.gone(error.message))
    this.child.on('exit', (code, signal) => this.gone(`exit ${signal ?? code}`))
    this.idle()
  }

  run(
    file: string,
    args: readonly string[],
    cwd: string,
    handlers: CommandHandlers,
    extraEnv: Readonly<Record<string, string>>
  ): Promise<{ exitCode: number | null }> {
    const id = ++this.nextId
    return new Promise((resolve, reject) => {
      this.pending.set(id, { handlers, pid: null, resolve, reject })
      // A command running keeps this process alive, as a child of its own would.
      this.child.ref()
      this.child.channel?.ref()
      this.child.send({ id, file, args, cwd, env: { ...childEnv(), ...extraEnv } }, (error) => {
        if (error !== null) this.settle(id, (p) => p.reject(error))
      })
    })
  }

  private receive(message: HelperMessage): void {
    const entry = this.pending.get(message.id)
    if (entry === undefined) return
    switch (message.type) {
      case 'start':
        entry.pid = message.pid
        entry.handlers.onStart(message.pid)
        return
      case 'out': {
        const { data } = message
        const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
        entry.handlers.onOutput(message.stream === 0 ? 'stdout' : 'stderr', chunk)
        return
      }
      case 'failed': {
        const error: NodeJS.ErrnoException = new Error(message.message)
        if (message.code !== undefined) error.code = message.code
        this.settle(message.id, (p) => p.reject(error))
        return
      }
      case 'done':
        this.settle(message.id, (p) => p.resolve({ exitCode: message.code }))
    }
  }

  private settle(id: number, how: (pending: Pending) => void): void {
    const entry = this.pending.get(id)
    if (entry === undefined) return
    this.pending.delete(id)
    how(entry)
    if (this.pending.size === 0) this.idle()
  }

  /** With no command running, the helper holds nothing open (this process may exit). */
  private idle(): void {
    this.child.unref()
    this.child.channel?.unref()
  }

  private gone(why: string): void {
    this.onGone()
    const pending = [...this.pending.values()]
    this.pending.clear()
    for (const entry of pending) {
      // Nobody would end what it left running: a command outlives no runner.
      if (entry.pid !== null) signalGroup(entry.pid, 'SIGKILL')
      entry.reject(
        new Error(
          `the process that starts commands stopped (${why}); the command, if it had started, was ended`
        )
      )
    }
  }
}

/** Started with the first command, shared by every session of this process. */
let helper: CommandHelper | null = null

/**
 * Runs `file args` in `cwd` as the leader of a new process group, stdin empty, the environment
 * scrubbed (childEnv) plus `extraEnv`. Resolves once it exited and its output was delivered;
 * rejects when it could not start (the error's `code` says why, e.g. ENOENT) or the helper
 * stopped.
 */
export function runCommand(
  file: string,
  args: readonly string[],
  cwd: string,
  handlers: CommandHandlers,
  extraEnv: Readonly<Record<string, string>> = {}
): Promise<{ exitCode: number | null }> {
  const current =
    helper ??
    new CommandHelper(() => {
      if (helper === current) helper = null
    })
  helper = current
  return current.run(file, args, cwd, handlers, extraEnv)
}
