// A real session in a real git repository, driven through the agent's real tools: prompts open
// checkpoints, Write and Bash run through runTool (Bash starts `bash -c` through the command
// helper, as in the app), file history and the rewind engine work on the real store and blobs.
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
import { FileHistory, type FileHistoryOptions } from '../../src/core/files/file-history'
import { type RewindPlan, RewindEngine, checkpointAt } from '../../src/core/rewind/rewind-engine'
import { SessionStore } from '../../src/core/session/store'
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
  close(): Promise<void>
}

export interface ToolSessionOptions {
  /** Files of the repository before the session opens (relative path → content). */
  files?: Record<string, string | Buffer>
  /** Where the workspace and the data home go (a mounted disk); a temp folder by default. */
  base?: string
  history?: Pick<FileHistoryOptions, 'sizeCapBytes'>
}

const bash = createBashTool({ sandbox: false }) as Tool

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
  const store = SessionStore.create({ home, cwd })
  const history = await FileHistory.open({
    home,
    cwd,
    sessionId: store.sessionId,
    sessionFile: store.file,
    log: store,
    ...options.history
  })
  await history.prepareForCommands()
  const engine = new RewindEngine({ home, store, space: history })
  const ctx = {
    cwd,
    fileState: new FileStateTable(),
    guard: history,
    allowedOutsideRoots: [],
    signal: new AbortController().signal
  }
  return {
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
      const plan = await engine.planRewind(checkpointAt(store, n), 'both')
      return { plan, result: await engine.apply(plan) }
    },
    read: (rel) => (existsSync(join(cwd, rel)) ? readFileSync(join(cwd, rel)) : null),
    async close() {
      await history.close()
      store.close()
    }
  }
}
