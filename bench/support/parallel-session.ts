// A workspace with a one-turn session of ours to start parallel runs from (bench/parallel-*.ts),
// and what ParallelRuns needs besides: the session open for writing, its blobs, its history.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BlobStore } from '../../src/core/files/blob-store'
import { historyPathsAt, sessionHistoryPaths } from '../../src/core/files/history-paths'
import type { ModelClient } from '../../src/core/agent/model/model-client'
import { ScriptedModel } from '../../src/core/agent/model/scripted'
import { type LaunchOptions, ParallelRuns } from '../../src/core/parallel/launcher'
import { SessionStore } from '../../src/core/session/store'
import { runCli } from '../../test/support/cli'

export interface BenchSession {
  session: SessionStore
  blobs: BlobStore
  historyRoot: string
  startUuid: string
}

/** `rewind-studio chat` once in `workspace` ("hello" → an answer), the session opened to write. */
export async function oneTurnSession(
  base: string,
  workspace: string,
  home: string
): Promise<BenchSession> {
  const script = join(base, 'hello.json')
  writeFileSync(
    script,
    JSON.stringify({ rules: [{ match: 'hello', responses: [[{ type: 'text', text: 'hi' }]] }] })
  )
  const chat = await runCli(['chat', '--cwd', workspace, '--model', `scripted:${script}`], {
    input: 'hello\n/exit\n',
    env: { REWIND_STUDIO_HOME: home }
  })
  if (chat.code !== 0) throw new Error(chat.stderr)
  const file = SessionStore.latest(home, workspace) as string
  const session = SessionStore.open(file)
  const historyRoot = sessionHistoryPaths(home, file, workspace).root
  return {
    session,
    blobs: new BlobStore(historyPathsAt(historyRoot).blobs),
    historyRoot,
    startUuid: session.leafUuid as string
  }
}

/** A scripted model each of whose answers comes `delayMs` after it was asked. */
export async function slowScripted(file: string, delayMs: number): Promise<ModelClient> {
  const inner = await ScriptedModel.load(file)
  return {
    id: inner.id,
    complete: async (request, options) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      return inner.complete(request, options)
    }
  }
}

/** Runs `prompts` from the session's leaf to their end; the wall time in ms. */
export async function timeRuns(
  home: string,
  s: BenchSession,
  prompts: string[],
  model: () => Promise<ModelClient>,
  extra: Partial<LaunchOptions> = {}
): Promise<{ ms: number; runs: Awaited<ParallelRuns['finished']> }> {
  const t0 = performance.now()
  const runs = await ParallelRuns.start({
    home,
    session: s.session,
    blobs: s.blobs,
    historyRoot: s.historyRoot,
    startUuid: s.startUuid,
    prompts,
    model: { name: 'bench', create: model },
    permissionMode: 'bypassPermissions',
    checkpointTools: false,
    bashSandbox: false,
    check: null,
    maxRuns: prompts.length,
    ...extra
  }).finished
  return { ms: performance.now() - t0, runs }
}
