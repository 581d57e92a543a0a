// Run by session-fuzz.test.ts: the real command line (src/cli/index.ts) and the real studio (the
// handlers `serve` gives the page, through dispatch) in one long-lived process, so a few hundred
// commands cost one start-up. One command per stdin line; one JSON line back per command: its
// exit code and what it printed (a studio run: the code and message of every reply), or the stack
// of what it threw. Whatever escapes to the process (an uncaught exception, an unhandled
// rejection: what ended `serve` when a pi session opened) is reported as such and ends it. The
// test times each command and kills this process when one hangs.
//
//   {home, args}                        `rewind-studio <args>` with REWIND_STUDIO_HOME=home
//   {home, env, studio: {cwd, ...}}     a studio on cwd (its latest session), then either
//     explore: true                     every session of another tool it lists opened and read
//                                       through (graph, nodes, transcript, timeline, search, export)
//     target, calls: [{channel, args}]  each call made with `target` (a file of another tool, or
//                                       our session by id) shown; '@first', '@last', '@prompt',
//                                       '@file', '@session', '@cwd' in args stand for its nodes
//                                       (first, last, a prompt), file, session id and workspace
import { createInterface } from 'node:readline'
import { format } from 'node:util'
import { main } from '../../src/cli/index'
import { dispatch } from '../../src/core/studio/dispatch'
import { validatingSink } from '../../src/core/studio/events'
import { folderLauncher, launchStudio, parseLaunchArgs } from '../../src/core/studio/launch'
import { memorySecrets } from '../../src/core/studio/secret-store'
import { WorkspaceHost } from '../../src/core/studio/workspace-host'
import type { Handlers, Reply } from '../../src/shared/contract'
import type { AppInfo, SessionGraph, SessionSummary } from '../../src/shared/views'
import { repoRoot } from '../support/cli'

let stdout = ''
let stderr = ''
console.log = (...args: unknown[]) => void (stdout += `${format(...args)}\n`)
console.error = (...args: unknown[]) => void (stderr += `${format(...args)}\n`)
console.warn = console.error

// What a command prints as bytes straight to stdout (inspect's text) is captured too; the
// replies go through the real write.
const write = process.stdout.write.bind(process.stdout)
const decoder = new TextDecoder()
process.stdout.write = ((chunk: string | Uint8Array) => {
  stdout += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
  return true
}) as typeof process.stdout.write

const reply = (value: object) => {
  stdout += decoder.decode()
  write(`${JSON.stringify(value)}\n`)
}
const die = (error: unknown) => {
  reply({ code: null, stdout, stderr, threw: `uncaught: ${(error as Error)?.stack ?? error}` })
  process.exit(70)
}
process.on('uncaughtException', die)
process.on('unhandledRejection', die)

export interface StudioRun {
  cwd: string
  explore?: boolean
  target?: { file: string } | { sessionId: string }
  calls?: { channel: string; args?: unknown }[]
}

/** What the test is told of each reply: its code and message, not its (possibly large) value. */
export interface Answer {
  channel: string
  args?: unknown
  ok: boolean
  code?: string
  message?: string
}

async function runStudio(home: string, run: StudioRun): Promise<Answer[]> {
  const options = parseLaunchArgs(['--cwd', run.cwd])
  const launchOptions = {
    ...options,
    home,
    appRoot: repoRoot,
    secrets: memorySecrets(),
    emit: validatingSink(() => undefined)
  }
  const host = new WorkspaceHost(await launchStudio(launchOptions), {
    home,
    launch: folderLauncher(launchOptions)
  })
  const handlers: Handlers = host.handlers()
  const answers: Answer[] = []
  const call = async (channel: string, args?: unknown): Promise<Reply> => {
    const answer = await dispatch(handlers, channel, args, (message) => (stderr += `${message}\n`))
    answers.push(
      answer.ok
        ? { channel, ok: true }
        : { channel, args, ok: false, code: answer.error.code, message: answer.error.message }
    )
    return answer
  }
  const valueOf = async <T>(channel: string, args?: unknown): Promise<T | null> => {
    const answer = await call(channel, args)
    return answer.ok ? (answer.value as T) : null
  }
  try {
    if (run.explore === true) {
      for (const session of (await valueOf<SessionSummary[]>('session:list')) ?? []) {
        if (session.source === 'rewind-studio') continue
        if ((await valueOf('session:openFile', { file: session.file })) === null) continue
        await readThrough(valueOf)
      }
      await valueOf('projects:list')
    }
    for (const { channel, args } of run.calls ?? []) {
      const names = await show(run, host, valueOf)
      await call(channel, stand(args, names))
      const info = await valueOf<AppInfo>('app:info')
      // A prompt or a summary left running would make every later call busy.
      if (info?.running === true) await valueOf('agent:stop')
    }
    // Let what the calls set going outside any request (the graph pushes) settle before closing.
    await valueOf('app:info')
    await new Promise((resolve) => setTimeout(resolve, 50))
  } finally {
    await host.close()
  }
  return answers
}

/** Every view of the session shown: what the page reads of it, and an export. */
async function readThrough(valueOf: <T>(c: string, a?: unknown) => Promise<T | null>) {
  const graph = await valueOf<SessionGraph>('session:graph')
  const nodes = graph?.nodes ?? []
  for (const node of [nodes[0], nodes.at(-1)]) {
    if (node === undefined) continue
    await valueOf('session:node', { nodeId: node.id })
    await valueOf('session:transcript', { leafUuid: node.branchLeafUuid })
  }
  await valueOf('session:transcriptRange', {
    leafUuid: null,
    anchor: 'end',
    before: 50,
    after: 0
  })
  await valueOf('session:checkpoints', { leafUuid: null })
  await valueOf('timeline:list')
  await valueOf('session:searchIndex')
  if (nodes.length > 1) {
    await valueOf('compare', { a: nodes[0]?.id, b: nodes.at(-1)?.id })
  }
  await valueOf('session:export', { format: 'html', scope: 'all' })
  await valueOf('app:info')
}

/** Shows `run.target` if the last call moved off it; the names the calls' placeholders stand for. */
async function show(
  run: StudioRun,
  host: WorkspaceHost,
  valueOf: <T>(c: string, a?: unknown) => Promise<T | null>
): Promise<Record<string, unknown>> {
  let info = await valueOf<AppInfo>('app:info')
  if (info !== null && info.workspace !== run.cwd) {
    info = await valueOf<AppInfo>('workspace:open', { cwd: run.cwd })
  }
  const target = run.target
  if (target !== undefined && 'file' in target && info?.foreign?.file !== target.file) {
    info = await valueOf<AppInfo>('session:openFile', { file: target.file })
  }
  if (target !== undefined && 'sessionId' in target && info?.sessionId !== target.sessionId) {
    info = await valueOf<AppInfo>('session:open', { sessionId: target.sessionId })
  }
  const nodes = (await valueOf<SessionGraph>('session:graph'))?.nodes ?? []
  return {
    '@first': nodes[0]?.id ?? 'none',
    '@last': nodes.at(-1)?.id ?? 'none',
    '@prompt': nodes.find((n) => n.kind === 'turn')?.id ?? 'none',
    '@file': info?.foreign?.file ?? info?.sessionFile ?? 'none',
    '@session': info?.sessionId ?? 'none',
    '@cwd': host.studio.info().workspace
  }
}

/** `args` with each placeholder string replaced by what it stands for. */
function stand(args: unknown, names: Record<string, unknown>): unknown {
  if (typeof args === 'string') return Object.hasOwn(names, args) ? names[args] : args
  if (Array.isArray(args)) return args.map((a) => stand(a, names))
  if (typeof args === 'object' && args !== null) {
    return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, stand(v, names)]))
  }
  return args
}

/** The variables the last command set (the other tools' homes): gone before the next. */
let setBefore: Record<string, string> = {}

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as {
    home: string
    args?: string[]
    env?: Record<string, string>
    studio?: StudioRun
  }
  process.env.REWIND_STUDIO_HOME = command.home
  for (const name of Object.keys(setBefore)) delete process.env[name]
  setBefore = command.env ?? {}
  Object.assign(process.env, setBefore)
  stdout = ''
  stderr = ''
  try {
    if (command.studio !== undefined) {
      const answers = await runStudio(command.home, command.studio)
      reply({ code: 0, stdout, stderr, answers })
    } else {
      const code = await main(command.args ?? [])
      reply({ code, stdout, stderr })
    }
  } catch (error) {
    reply({ code: null, stdout, stderr, threw: (error as Error)?.stack ?? String(error) })
  }
}
