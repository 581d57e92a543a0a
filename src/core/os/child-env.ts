// The environment every child process the app starts gets: its own, minus the secrets. Whatever a
// child prints can end up in the session log, which is kept for good: one `env` run through Bash
// would otherwise write the API key there. Children are started through spawnChild only (lint
// forbids importing node:child_process anywhere else in src), and Workers get childEnv() too.
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcessByStdio } from 'node:child_process'
import type { Readable } from 'node:stream'

/** What the Anthropic SDK reads from the environment to authenticate. */
const MODEL_SECRETS = new Set(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'])

/** Our own variables that hold secrets, now or later: REWIND_STUDIO_…KEY, …TOKEN, … */
const OWN_SECRET = /^REWIND_STUDIO_\w*(KEY|TOKEN|SECRET|PASSWORD)/

export function isSecretName(name: string): boolean {
  return MODEL_SECRETS.has(name) || OWN_SECRET.test(name)
}

/** `env` without the secrets. */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretName(name)))
}

export interface ChildOptions {
  cwd: string
  /** Its own process group (so the whole group can be signalled). */
  detached?: boolean
}

/** Starts `command` with stdin empty, stdout and stderr piped, and the environment scrubbed. */
export function spawnChild(
  command: string,
  args: readonly string[],
  options: ChildOptions
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(command, args, {
    cwd: options.cwd,
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv()
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
