// `rewind-studio rewind SESSION_FILE --to N | --undo`: the rewind engine without the app, for
// scripts (claude-code #16976 asks for exactly this). Checkpoint N is the Nth user-typed prompt
// on the active path, as `/rewind` lists them. --dry-run prints the preview and changes nothing.
import { existsSync, realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { sessionHistoryPaths } from '../../core/files/history-paths'
import { type RewindPlan, RewindEngine, checkpointAt } from '../../core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../core/rewind/workspace-files'
import { rewindStudioHome } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { RewindMode } from '../../shared/messages'
import type { RewindResult } from '../../shared/views'

const USAGE = `Usage: rewind-studio rewind SESSION_FILE --to N [--mode both|conversation|code] [--cwd DIR]
                            [--dry-run] [--json]
       rewind-studio rewind SESSION_FILE --undo [--cwd DIR] [--json]

Rewinds the session to just before its checkpoint N (the Nth prompt on the active path):
  both          the conversation and the files (default)
  conversation  the conversation only
  code          the files only
Files the session changed since the checkpoint get their content back; files it created after
it are deleted; nothing else is touched. --undo reverses the last rewind (hand edits included).
--cwd restores into DIR instead of the session's workspace. --dry-run prints what would change,
with diffs, and changes nothing. --json prints {restore, delete, recreate, outsideChanges}.`

class UsageError extends Error {}

interface Options {
  file: string
  to: number | null
  undo: boolean
  mode: RewindMode
  cwd: string | null
  dryRun: boolean
  json: boolean
}

function parse(args: string[]): Options {
  const options: Options = {
    file: '',
    to: null,
    undo: false,
    mode: 'both',
    cwd: null,
    dryRun: false,
    json: false
  }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => {
      const v = args[++i]
      if (v === undefined) throw new UsageError(`${arg} needs a value`)
      return v
    }
    if (arg === '--to') {
      const raw = value()
      const n = Number(raw)
      if (!Number.isInteger(n) || n < 1) {
        throw new UsageError(`--to needs a checkpoint number (1, 2, ...), not "${raw}"`)
      }
      options.to = n
    } else if (arg === '--mode') {
      const raw = value()
      const mode = RewindMode.safeParse(raw)
      if (!mode.success)
        throw new UsageError(`--mode must be both, conversation or code, not "${raw}"`)
      options.mode = mode.data
    } else if (arg === '--cwd') options.cwd = value()
    else if (arg === '--undo') options.undo = true
    else if (arg === '--dry-run') options.dryRun = true
    else if (arg === '--json') options.json = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one SESSION_FILE')
  options.file = files[0] ?? ''
  if (options.undo === (options.to !== null)) throw new UsageError('give either --to N or --undo')
  if (options.undo && options.dryRun) throw new UsageError('--dry-run goes with --to, not --undo')
  return options
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  let options: Options
  try {
    options = parse(args)
  } catch (error) {
    console.error(`rewind: ${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (!existsSync(options.file)) {
    console.error(`rewind: no session file ${options.file}`)
    return 1
  }
  let store: SessionStore | null = null
  try {
    store = SessionStore.open(options.file, { readOnly: options.dryRun })
    if (!options.dryRun && store.readOnlyReason !== null) {
      throw new Error(
        `cannot change ${options.file}: ${store.readOnlyReason}. Nothing was changed.`
      )
    }
    const home = rewindStudioHome()
    const root = options.cwd ?? store.cwd
    if (!existsSync(root)) throw new Error(`the workspace ${root} does not exist`)
    const engine = new RewindEngine({
      home,
      store,
      // Backups live with the session's workspace; --cwd only says where to restore.
      space: restoreSpaceAt(
        realpathSync(resolve(root)),
        sessionHistoryPaths(home, options.file, store.cwd).root
      )
    })
    for (const notice of await engine.recover()) console.error(`note: ${notice}`)
    if (options.undo) {
      const result = await engine.undo()
      print(options, result, null)
      return 0
    }
    const checkpoint = checkpointAt(store, options.to ?? 0)
    const plan = await engine.planRewind(checkpoint, options.mode)
    for (const path of plan.conflicts) {
      console.error(`note: ${path} was changed since by another session: left alone`)
    }
    for (const { path, reason } of plan.unrestorable) {
      console.error(`note: ${path} cannot be restored: ${reason}`)
    }
    const result = options.dryRun ? null : await engine.apply(plan)
    print(options, result, plan)
    return 0
  } catch (error) {
    console.error(`rewind: ${(error as Error).message}`)
    return 1
  } finally {
    store?.close()
  }
}

function print(options: Options, result: RewindResult | null, plan: RewindPlan | null): void {
  const outside = plan?.files.filter((f) => f.outsideChange).map((f) => f.path) ?? []
  const paths = (action: 'restore' | 'delete' | 'recreate') =>
    plan?.files.filter((f) => f.action === action).map((f) => f.path) ?? []
  const lists =
    plan !== null
      ? { restore: paths('restore'), delete: paths('delete'), recreate: paths('recreate') }
      : {
          restore: result?.restored ?? [],
          delete: result?.deleted ?? [],
          recreate: result?.recreated ?? []
        }
  if (options.json) {
    console.log(JSON.stringify({ ...lists, outsideChanges: outside }))
    return
  }
  for (const path of lists.restore) console.log(`  ⎿ restore ${path}`)
  for (const path of lists.delete) console.log(`  ⎿ delete (created after the checkpoint) ${path}`)
  for (const path of lists.recreate) console.log(`  ⎿ recreate ${path}`)
  for (const path of outside)
    console.log(`  ! ${path} was changed outside the agent since it last wrote it`)
  if (plan === null) {
    console.log(
      'Undone: the files and the conversation are back where they were before the rewind.'
    )
    return
  }
  if (options.dryRun) {
    for (const file of plan.files) if (file.diff !== '') console.log(file.diff)
    console.log('Dry run: nothing was changed.')
    return
  }
  const kept =
    plan.messagesKept === null ? '' : `; the conversation keeps ${plan.messagesKept} messages`
  console.log(`Rewound to before checkpoint ${options.to} (mode ${options.mode})${kept}.`)
  if (result?.prefill !== null && result?.prefill !== undefined) {
    console.log(`Prompt to send again: ${result.prefill}`)
  }
}
