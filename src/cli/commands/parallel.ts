// `rewind-studio parallel FILE --at N|ID --prompt TEXT [--prompt TEXT …] [--runs K] [--check CMD]
// [--model M] [--json]`: several attempts from one node at once, each in its own workspace
// (core/parallel), each a branch of FILE's tree once it ends; prints their compare table. The
// user's workspace is only read. FILE is written (the runs joined into it), so it must not be
// open elsewhere.
import { BlobStore } from '../../core/files/blob-store'
import { historyPathsAt, sessionHistoryPaths } from '../../core/files/history-paths'
import { checkWorkspaceFolder } from '../../core/files/workspace-root'
import { ParallelRuns, runPermissionMode } from '../../core/parallel/launcher'
import { MAX_RUNS_PER_START, defaultMaxRuns } from '../../core/parallel/max-runs'
import { collectRuns } from '../../core/parallel/run-gc'
import { runRow } from '../../core/parallel/run-table'
import { RewindEngine } from '../../core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../core/rewind/workspace-files'
import { rewindStudioHome } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { applyOverrides, readSettings } from '../../core/settings'
import { forkEnd } from '../../core/studio/fork-at-node'
import { ModelSetup } from '../../core/studio/model-setup'
import { memorySecrets } from '../../core/studio/secret-store'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import { PermissionMode } from '../../shared/messages'
import { UsageError, optionValue } from '../args'
import { appRoot, startFileCommand } from '../cli-support'
import { say, sayError } from '../format'
import { printRuns } from './runs'

const USAGE = `Usage: rewind-studio parallel FILE --at N|ID --prompt TEXT [--prompt TEXT ...] [--runs K]
                              [--check CMD] [--model M] [--permission-mode MODE]
                              [--max-runs N] [--setting key=value ...] [--json]

Starts several attempts from one node of the session at once: K runs (1-8) of one prompt
(--runs K), or one run per --prompt. Each run starts from that node's conversation and files, in
a workspace of its own under the data home: a checkout of your HEAD in a repository of its own
(it reads your repository's objects and writes nothing into your .git) with your uncommitted
changes and the session's files laid over it, or a copy of the folder. Your workspace is only read; you may keep working in it. Each run becomes a branch
of FILE at that node when it ends. --check CMD runs in each run's workspace when it ends (its
exit code and last lines are shown). At most --max-runs (setting parallel.maxRuns, default one
per core) run at once. Ctrl-C stops every run. Runs may edit files in their own workspace;
commands need --permission-mode bypassPermissions (with the setting bash.sandbox, confined to
it). N is a turn number or ID a node id, as fork --at takes them.
Then: \`rewind-studio runs FILE\` lists the runs, \`rewind-studio adopt FILE --run ID\` brings one
into your workspace (undo: \`rewind-studio rewind FILE --undo\`).
--json prints {start, runs: [{id, state, prompt, files, linesAdded, linesRemoved, tokens, ms,
check, error, workspace}]}.`

interface Options {
  file: string
  at: string | null
  prompts: string[]
  runs: number | null
  check: string | null
  model: string | undefined
  permissionMode: PermissionMode | undefined
  maxRuns: number | null
  settings: string[]
  json: boolean
}

function count(raw: string, flag: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > MAX_RUNS_PER_START) {
    throw new UsageError(`${flag} takes a number from 1 to ${MAX_RUNS_PER_START}, not "${raw}"`)
  }
  return n
}

function parse(args: string[]): Options {
  const options: Options = {
    file: '',
    at: null,
    prompts: [],
    runs: null,
    check: null,
    model: undefined,
    permissionMode: undefined,
    maxRuns: null,
    settings: [],
    json: false
  }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => optionValue(args, ++i)
    if (arg === '--at') options.at = value()
    else if (arg === '--prompt') options.prompts.push(value())
    else if (arg === '--runs') options.runs = count(value(), '--runs')
    else if (arg === '--check') options.check = value()
    else if (arg === '--model') options.model = value()
    else if (arg === '--permission-mode') {
      const raw = value()
      const mode = PermissionMode.safeParse(raw)
      if (!mode.success) {
        throw new UsageError(
          `--permission-mode must be default, acceptEdits or bypassPermissions, not "${raw}"`
        )
      }
      options.permissionMode = mode.data
    } else if (arg === '--max-runs') options.maxRuns = count(value(), '--max-runs')
    else if (arg === '--setting') options.settings.push(value())
    else if (arg === '--json') options.json = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one session FILE')
  options.file = files[0] ?? ''
  if (options.prompts.length === 0) throw new UsageError('give a --prompt')
  if (options.runs !== null && options.prompts.length > 1) {
    throw new UsageError('--runs K repeats one prompt: give one --prompt with it')
  }
  if (options.prompts.length > MAX_RUNS_PER_START) {
    throw new UsageError(`at most ${MAX_RUNS_PER_START} prompts`)
  }
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('parallel', args, USAGE, parse)
  if (typeof options === 'number') return options
  let session: SessionStore | null = null
  let runs: ParallelRuns | null = null
  const stop = () => void runs?.stopAll()
  try {
    const home = rewindStudioHome()
    const models = new ModelSetup({
      home,
      appRoot,
      secrets: memorySecrets(),
      model: options.model,
      permissionMode: options.permissionMode,
      settingOverrides: options.settings,
      demoFallback: options.model === undefined
    })
    // Before anything is made: a model that cannot be set up changes nothing.
    await models.client()
    const settings = models.settings()
    session = SessionStore.open(options.file)
    if (session.readOnlyReason !== null) {
      throw new Error(
        `cannot run from ${options.file}: ${session.readOnlyReason}. Nothing was changed.`
      )
    }
    checkWorkspaceFolder(session.cwd, home)
    const historyRoot = sessionHistoryPaths(home, options.file, session.cwd).root
    // A restore (an adopt) a crash interrupted is finished or rolled back first.
    const engine = new RewindEngine({
      home,
      store: session,
      space: restoreSpaceAt(session.cwd, historyRoot)
    })
    for (const notice of await engine.recover()) sayError(`note: ${notice}`)
    await collectRuns(home)
    const startUuid = forkEnd(session.tree(), session.sessionId, options.at)
    const prompts =
      options.runs === null
        ? options.prompts
        : Array.from({ length: options.runs }, () => options.prompts[0] as string)
    const file = applyOverrides(readSettings(home), options.settings)
    const blobs = new BlobStore(historyPathsAt(historyRoot).blobs)
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    const said = new Map<string, string>()
    runs = ParallelRuns.start({
      home,
      session,
      blobs,
      historyRoot,
      startUuid,
      prompts,
      model: { name: models.effectiveModel(), create: () => models.client() },
      permissionMode: runPermissionMode(settings.permissionMode),
      checkpointTools: settings.checkpointEnabled,
      bashSandbox: settings.bashSandbox,
      compaction: {
        threshold: settings.compactionThreshold,
        contextWindow: settings.contextWindow
      },
      check: options.check,
      maxRuns: options.maxRuns ?? file.parallel?.maxRuns ?? defaultMaxRuns(),
      onRun: (r) => {
        const line = `run ${r.id}: ${r.state}${r.joined ? ', a branch of the session now' : ''}`
        if (!options.json && said.get(r.id) !== line) sayError(line)
        said.set(r.id, line)
      }
    })
    const finished = await runs.finished
    const rows = finished.map((r) => runRow(r, blobs))
    if (options.json) {
      say(escapeControlCharsInJson(JSON.stringify({ start: startUuid, runs: rows })))
    } else {
      printRuns(rows)
      say(`Adopt one: rewind-studio adopt ${options.file} --run ID`)
    }
    return rows.some((r) => r.state === 'failed') ? 1 : 0
  } catch (error) {
    sayError(`parallel: ${(error as Error).message}`)
    return 1
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    session?.close()
  }
}
