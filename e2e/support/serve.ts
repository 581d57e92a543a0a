// Starts the real CLI (`rewind-studio serve`) in a child process on a temp workspace and home,
// and reads the URL it prints. Every e2e test drives the app through this, as a user would.
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const repoRoot = resolve(import.meta.dirname, '../..')
export const screenshotDir = join(repoRoot, 'e2e', 'screenshots')

export interface ServedApp {
  url: string
  origin: string
  workspace: string
  home: string
  output: () => string
  /** Whether the host process is still running (a crash ends it). */
  alive: () => boolean
  /** The host process (signalled by tests that stop it their way). */
  pid: number
  stop: () => Promise<void>
}

export interface ServeOptions {
  /** Files to create in the workspace, by relative path. */
  files?: Record<string, string>
  /** A copy of this folder becomes the workspace (e.g. demo/workspace). */
  copyFrom?: string
  /** An existing folder to serve as the workspace, and the data home (a fake home's). */
  workspace?: string
  home?: string
  args?: string[]
  env?: Record<string, string>
  /** Runs before the app starts (a session written under the data home, say). */
  before?: (where: { workspace: string; home: string }) => void
  /** The most file descriptors the host may hold (its RLIMIT_NOFILE, set by prlimit). */
  maxFiles?: number
}

export async function serve(options: ServeOptions = {}): Promise<ServedApp> {
  const base = mkdtempSync(join(tmpdir(), 'rs-e2e-'))
  const workspace = options.workspace ?? join(base, 'workspace')
  const home = options.home ?? join(base, 'home')
  mkdirSync(home, { recursive: true })
  if (options.copyFrom !== undefined) cpSync(options.copyFrom, workspace, { recursive: true })
  else mkdirSync(workspace, { recursive: true })
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(join(workspace, path, '..'), { recursive: true })
    writeFileSync(join(workspace, path), content)
  }
  options.before?.({ workspace, home })
  const env: NodeJS.ProcessEnv = { ...process.env, REWIND_STUDIO_HOME: home, ...options.env }
  delete env.ANTHROPIC_API_KEY
  const command = [
    process.execPath,
    join(repoRoot, 'bin/rewind-studio.mjs'),
    'serve',
    '--cwd',
    workspace,
    ...(options.args ?? [])
  ]
  // prlimit execs the host in its own place: the pid is the host's.
  const [file, ...args] =
    options.maxFiles === undefined
      ? command
      : ['prlimit', `--nofile=${options.maxFiles}`, '--', ...command]
  const child: ChildProcess = spawn(file as string, args, {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      // A host that never came up (hung at start) is not left running.
      child.kill('SIGKILL')
      reject(new Error(`serve printed no URL:\n${output}`))
    }, 60_000)
    const poll = setInterval(() => {
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output)
      if (match?.[1]) {
        clearInterval(poll)
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    }, 50)
    child.once('exit', (code) => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}:\n${output}`))
    })
  })
  return {
    url,
    origin: new URL(url).origin,
    workspace,
    home,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    pid: child.pid as number,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once('exit', () => done())
        child.kill('SIGTERM')
      })
  }
}
