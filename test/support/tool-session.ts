// A real session in a real git repository, opened as the app and the CLI chat open one
// (WorkspaceSession: file history, the rewind engine, recovery) and driven through the agent's
// real tools: prompts open checkpoints, Write and Bash run through runTool (Bash starts `bash -c`
// through the command helper, as in the app). No model is asked anything.
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { FileStateTable } from '../../src/core/agent/file-state'
import { createBashTool } from '../../src/core/agent/tools/bash'
import { type Tool, type ToolOutput, runTool } from '../../src/core/agent/tools/tool'
import { writeTool } from '../../src/core/agent/tools/write'
import type { ModelClient } from '../../src/core/agent/model/model-client'
import type { FileHistory } from '../../src/core/files/file-history'
import type { IgnoredFilesPolicy } from '../../src/core/files/ignored-files'
import { checkpointAt } from '../../src/core/rewind/checkpoint-at'
import type { RewindEngine, RewindPlan } from '../../src/core/rewind/rewind-engine'
import { SessionStore } from '../../src/core/session/store'
import { WorkspaceSession } from '../../src/core/workspace/workspace-session'
import type { RewindResult } from '../../src/shared/views'

export interface ToolSession {
  cwd: string
  home: string
  store: SessionStore
  history: FileHistory
  engine: RewindEngine
  /** A user prompt: opens its checkpoint. */
  prompt(text: string): string
  reply(text: string): void
  bash(command: string): Promise<ToolOutput>
  write(rel: string, content: string): Promise<ToolOutput>
  /** The plan of a rewind to before prompt `n` of the active path, then its result. */
  rewindTo(n: number): Promise<{ plan: RewindPlan; result: RewindResult }>
  /** A file's bytes, null when there is none. */
  read(rel: string): Buffer | null
  /** Closes the session and opens it again, as a process resuming it would. */
  reopen(): Promise<ToolSession>
  close(): Promise<void>
}

export interface ToolSessionOptions {
  /** Files of the repository before the session opens (relative path → content). */
  files?: Record<string, string | Buffer>
  /** Where the workspace and the data home go (a mounted disk); a temp folder by default. */
  base?: string
  ignoredFiles?: IgnoredFilesPolicy
}

const bash = createBashTool({ sandbox: false }) as Tool

/** The tools are run here directly: a turn that asked the model would be a test's mistake. */
const noModel: ModelClient = {
  id: 'none',
  complete: () => Promise.reject(new Error('these tests drive the tools themselves'))
}

export async function openToolSession(options: ToolSessionOptions = {}): Promise<ToolSession> {
  const base = options.base ?? realpathSync(mkdtempSync(join(tmpdir(), 'rs-tools-session-')))
  const cwd = join(base, 'ws')
  const home = join(base, 'home')
  mkdirSync(cwd)
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true })
    writeFileSync(join(cwd, rel), content)
  }
  execFileSync('git', ['init', '-q'], { cwd })
  return sessionOver(SessionStore.create({ home, cwd }), home, options)
}

async function sessionOver(
  store: SessionStore,
  home: string,
  options: ToolSessionOptions
): Promise<ToolSession> {
  const cwd = store.cwd
  const work = await WorkspaceSession.open({
    home,
    store,
    model: noModel,
    permissionMode: 'bypassPermissions',
    checkpointTools: false,
    bashSandbox: false,
    askPermission: async () => true,
    onEvent: () => undefined,
    ...(options.ignoredFiles !== undefined ? { ignoredFiles: options.ignoredFiles } : {})
  })
  const { history, engine } = work
  await history.prepareForCommands()
  const ctx = {
    cwd,
    fileState: new FileStateTable(),
    guard: history,
    allowedOutsideRoots: [],
    signal: new AbortController().signal
  }
  const session: ToolSession = {
    cwd,
    home,
    store,
    history,
    engine,
    prompt(text) {
      const uuid = store.appendMessage({ role: 'user', content: text }).uuid
      history.beginCheckpoint(uuid)
      return uuid
    },
    reply(text) {
      store.appendMessage({ role: 'assistant', content: [{ type: 'text', text }] })
    },
    bash: (command) => runTool(bash, { command }, ctx),
    write: (rel, content) =>
      runTool(writeTool as Tool, { file_path: join(cwd, rel), content }, ctx),
    async rewindTo(n) {
      const plan = await work.planRewind(checkpointAt(store, n), 'both')
      return { plan, result: await work.apply(plan) }
    },
    read: (rel) => (existsSync(join(cwd, rel)) ? readFileSync(join(cwd, rel)) : null),
    async reopen() {
      await work.close()
      return sessionOver(SessionStore.open(store.file), home, options)
    },
    close: () => work.close()
  }
  return session
}
