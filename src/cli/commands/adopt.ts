// `rewind-studio adopt FILE --run ID [--dry-run] [--json]`: a parallel run's files into the
// workspace and the conversation on at its end, through the rewind engine (core/parallel/adopt.ts
// says the order); the other runs stay branches of the tree. `rewind FILE --undo` takes it back.
import { sessionHistoryPaths } from '../../core/files/history-paths'
import { checkWorkspaceFolder } from '../../core/files/workspace-root'
import { type AdoptPlan, applyAdopt, planAdopt } from '../../core/parallel/adopt'
import { RewindEngine } from '../../core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../core/rewind/workspace-files'
import { rewindStudioHome } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { applyOverrides, readSettings } from '../../core/settings'
import { ModelSetup } from '../../core/studio/model-setup'
import { memorySecrets } from '../../core/studio/secret-store'
import { WorkspaceSession } from '../../core/workspace/workspace-session'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import type { RewindResult } from '../../shared/views'
import { UsageError, optionValue } from '../args'
import { appRoot, startFileCommand } from '../cli-support'
import { onePath, restoreLines, say, sayError } from '../format'

const USAGE = `Usage: rewind-studio adopt FILE --run ID [--dry-run] [--json] [--summarize]
                           [--model M] [--setting key=value ...]

Brings a parallel run (rewind-studio runs FILE lists them) into the workspace: the files as the
run left them come in through the rewind engine, the conversation goes on at the run's end, and
the other runs stay branches of the tree. Files changed outside the agent since are named, files
another session changed since are left alone. The run's workspace is removed afterwards.
\`rewind-studio rewind FILE --undo\` puts the files and the conversation back. --dry-run prints
what would change and writes nothing. With --summarize (or the setting summary.onLeave set to
summarize) the branch the conversation leaves and each other run of the same start are summarized
by the model (--model, else the settings') onto the run's end, so the conversation goes on knowing
what the other attempts did. --json prints {run, restore, delete, recreate,
outsideChanges, conflicts}.`

interface Options {
  file: string
  run: string
  dryRun: boolean
  json: boolean
  summarize: boolean
  model: string | undefined
  settings: string[]
}

function parse(args: string[]): Options {
  const options: Options = {
    file: '',
    run: '',
    dryRun: false,
    json: false,
    summarize: false,
    model: undefined,
    settings: []
  }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (arg === '--run') options.run = optionValue(args, ++i)
    else if (arg === '--dry-run') options.dryRun = true
    else if (arg === '--json') options.json = true
    else if (arg === '--summarize') options.summarize = true
    else if (arg === '--model') options.model = optionValue(args, ++i)
    else if (arg === '--setting') options.settings.push(optionValue(args, ++i))
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one session FILE')
  if (options.run === '') throw new UsageError('give --run ID')
  options.file = files[0] ?? ''
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('adopt', args, USAGE, parse)
  if (typeof options === 'number') return options
  let session: SessionStore | null = null
  try {
    const home = rewindStudioHome()
    session = SessionStore.open(options.file, { readOnly: options.dryRun })
    if (!options.dryRun && session.readOnlyReason !== null) {
      throw new Error(
        `cannot change ${options.file}: ${session.readOnlyReason}. Nothing was changed.`
      )
    }
    checkWorkspaceFolder(session.cwd, home)
    const space = restoreSpaceAt(
      session.cwd,
      sessionHistoryPaths(home, options.file, session.cwd).root
    )
    if (!options.dryRun) {
      const engine = new RewindEngine({ home, store: session, space })
      for (const notice of await engine.recover()) sayError(`note: ${notice}`)
    }
    const adopt = await planAdopt({
      home,
      session,
      space,
      run: options.run,
      dryRun: options.dryRun
    })
    const { plan } = adopt
    const outside = plan.files.filter((f) => f.outsideChange).map((f) => f.path)
    if (!options.json) {
      for (const path of plan.conflicts) {
        sayError(`note: ${onePath(path)} was changed since by another session: left alone`)
      }
      for (const { path, reason } of plan.unrestorable) {
        sayError(`note: ${onePath(path)} cannot be restored: ${reason}`)
      }
    }
    const result: RewindResult | null = options.dryRun
      ? null
      : await apply(home, session, adopt, options)
    const of = (action: 'restore' | 'delete' | 'recreate') =>
      plan.files.filter((f) => f.action === action).map((f) => f.path)
    if (options.json) {
      say(
        escapeControlCharsInJson(
          JSON.stringify({
            run: adopt.run.id,
            restore: of('restore'),
            delete: of('delete'),
            recreate: of('recreate'),
            outsideChanges: outside,
            conflicts: plan.conflicts
          })
        )
      )
      return 0
    }
    const lines = [
      ...plan.files.map((f) => `  ⎿ ${f.action} ${onePath(f.path)}`),
      ...outside.map(
        (p) => `  ! ${onePath(p)} was changed outside the agent since it last wrote it`
      )
    ]
    if (lines.length > 0) say(lines.join('\n'))
    if (result === null) {
      say('Dry run: nothing was changed.')
      return 0
    }
    for (const line of restoreLines(result)) sayError(line)
    if (result.summaryUuid != null) sayError('The branches left are summarized onto its end.')
    say(
      `Adopted run ${adopt.run.id}: the conversation goes on at its end (undo: rewind-studio rewind ${options.file} --undo).`
    )
    return 0
  } catch (error) {
    sayError(`adopt: ${(error as Error).message}`)
    return 1
  } finally {
    session?.close()
  }
}

/**
 * The adopt, on its own engine; asked to summarize, through a session at work with the model
 * (the app's path), which summarizes the branch left and the start's other runs.
 */
async function apply(
  home: string,
  session: SessionStore,
  adopt: AdoptPlan,
  options: Options
): Promise<RewindResult> {
  const file = applyOverrides(readSettings(home), options.settings)
  if (!options.summarize && file.summary?.onLeave !== 'summarize') return applyAdopt(home, adopt)
  const models = new ModelSetup({
    home,
    appRoot,
    secrets: memorySecrets(),
    model: options.model,
    permissionMode: undefined,
    settingOverrides: options.settings,
    demoFallback: options.model === undefined
  })
  const work = await WorkspaceSession.open({
    home,
    store: session,
    model: await models.client(),
    permissionMode: 'default',
    checkpointTools: false,
    bashSandbox: false,
    askPermission: async () => false,
    onEvent: () => undefined
  })
  try {
    return await applyAdopt(home, adopt, { work, leave: { mode: 'summarize' } })
  } finally {
    await work.history.close()
  }
}
