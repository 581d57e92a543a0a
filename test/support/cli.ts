// Runs the real rewind-studio command in a child process, as a user's shell would: bin/ runs the
// CLI built to JavaScript (out/cli; vitest's global setup builds it once, test/support/build-cli.ts).
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const repoRoot = resolve(import.meta.dirname, '../..')

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

const bin = join(repoRoot, 'bin/rewind-studio.mjs')

// A key in the developer's environment must not reach a test that did not ask for one.
function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.ANTHROPIC_API_KEY
  return Object.assign(env, extra)
}

/** The command run to its end against the data home `home`, for tests that wait on nothing else. */
export function runCliSync(
  home: string,
  ...args: string[]
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    env: cliEnv({ REWIND_STUDIO_HOME: home }),
    encoding: 'utf8'
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

export function runCli(
  args: string[],
  options: { input?: string; env?: Record<string, string>; cwd?: string } = {}
): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: cliEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('error', fail)
    child.once('close', (code) => done({ code, stdout, stderr }))
    child.stdin.end(options.input ?? '')
  })
}

/** The seed's starting point: a workspace holding config.py with DEBUG and HOST, and a home. */
export function seedWorkspace(): { workspace: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), 'rs-chat-'))
  const workspace = join(base, 'ws')
  mkdirSync(workspace)
  writeFileSync(join(workspace, 'config.py'), 'DEBUG = True\nHOST = "localhost"\n')
  return { workspace, home: join(base, 'home') }
}

/** `cli chat` in `workspace` with `model`; each call is one process reading `input` as stdin. */
export function chatIn(
  workspace: string,
  model: string,
  env: Record<string, string>
): (input: string, ...extra: string[]) => Promise<CliRun> {
  return (input, ...extra) =>
    runCli(
      ['chat', '--cwd', workspace, '--model', model, '--permission-mode', 'acceptEdits', ...extra],
      { input, env }
    )
}

/** What a CLI process needs to talk to the loopback Messages server at `url` (a fake key). */
export function loopbackEnv(home: string, url: string): Record<string, string> {
  return { REWIND_STUDIO_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url }
}

/** A seed workspace and `cli chat` in it on model claude-test, answered by the server at `url`. */
export function loopbackChat(url: string) {
  const { workspace, home } = seedWorkspace()
  return { workspace, home, chat: chatIn(workspace, 'claude-test', loopbackEnv(home, url)) }
}

export interface LiveCli {
  child: ChildProcessWithoutNullStreams
  /** Everything printed so far. */
  stdout(): string
  /** Resolves once stdout holds `text`. */
  waitFor(text: string): Promise<void>
  /** Resolves with the exit code (null when a signal ended it) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** The command in a child process whose stdin stays open, for a test that types as it goes. */
export function startCli(args: string[], env: Record<string, string>): LiveCli {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    env: cliEnv(env),
    stdio: ['pipe', 'pipe', 'pipe']
  })
  let out = ''
  const waiters: { text: string; resolve: () => void }[] = []
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    for (const w of waiters.filter((w) => out.includes(w.text))) {
      waiters.splice(waiters.indexOf(w), 1)
      w.resolve()
    }
  })
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('close', (code, signal) => done({ code, signal }))
  )
  return {
    child,
    stdout: () => out,
    waitFor: (text) =>
      out.includes(text)
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            waiters.push({ text, resolve })
            void exited.then(() =>
              reject(new Error(`exited before printing "${text}"; it printed:\n${out}`))
            )
          }),
    exited
  }
}

/** A scripted model that runs `command` with Bash once, then answers "ran it". */
export function bashScript(command: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-script-')), 'script.json')
  const bash = { type: 'tool_use', name: 'Bash', input: { command } }
  const rules = [{ match: 'run', responses: [[bash], [{ type: 'text', text: 'ran it' }]] }]
  writeFileSync(file, JSON.stringify({ rules }))
  return `scripted:${file}`
}
