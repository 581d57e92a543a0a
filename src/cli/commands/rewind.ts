// `rewind-studio rewind SESSION_FILE --to N | --undo | --redo`: the rewind engine without the
// app, for scripts (claude-code #16976 asks for exactly this). Checkpoint N is the Nth
// user-typed prompt on the active path, as `/rewind` lists them. --undo and --redo walk the
// session's timeline (every rewind, branch switch and continue), one step per run.
// --dry-run prints the preview and changes nothing.
import { RewindEngine, type RewindPlan } from '../../core/rewind/rewind-engine'
import { checkpointAt } from '../../core/rewind/checkpoint-at'
import type { TimelineAction } from '../../core/rewind/timeline'
import { detectFileFormat } from '../../core/session/load'
import { rewindStudioHome } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { RewindMode } from '../../shared/messages'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import { maskSecrets } from '../../shared/mask-secrets'
import type { RewindResult } from '../../shared/views'
import { startFileCommand } from '../cli-support'
import { folderLines, onePath, say, sayError } from '../format'
import { sessionSpace } from '../session-space'
import { UsageError, optionValue } from '../args'

const USAGE = `Usage: rewind-studio rewind SESSION_FILE --to N [--mode both|conversation|code] [--cwd DIR]
                            [--dry-run] [--diff] [--json]
       rewind-studio rewind SESSION_FILE --undo | --redo [--cwd DIR] [--json]
       rewind-studio rewind CLAUDE_SESSION.jsonl --to N [--mode code] [--cwd DIR] [--dry-run] [--json]

Rewinds the session to just before its checkpoint N (the Nth prompt on the active path):
  both          the conversation and the files (default)
  conversation  the conversation only
  code          the files only
Files the session changed since the checkpoint get their content back; files it created after
it are deleted; nothing else is touched. --undo reverses the last rewind, branch switch or
continue (hand edits included); run it again to go further back. --redo does again the last one
undone, while nothing else was done since. --cwd restores into DIR instead of the session's
workspace; it is required for a SESSION_FILE outside the sessions folder of the workspace its
header names. --dry-run prints what would change and changes nothing; --diff adds each file's
diff (current → restored). --json prints {restore, delete, recreate, outsideChanges}.
Refused: /, the home folder, a relative or empty workspace, and records naming the workspace
folder itself or a path in any .git folder.

A Claude Code session file (rescue restore): puts every file the session tracked back as Claude
Code's own backups (<claude home>/file-history/<session>/, claude home = $CLAUDE_CONFIG_DIR or
~/.claude) say it was before prompt N; a file that did not exist then is deleted; files the
session never touched are left alone. The session file and Claude Code's folder are never
written; --undo and --redo walk the rescue restores' own timeline. A file whose backup is
missing is skipped and named (exit code 1: the restore is partial); a snapshot path outside the
workspace refuses the restore before anything changes. Claude Code keeps only the content
before each change: the files after the last prompt's turn cannot be rebuilt.`

interface Options {
  file: string
  to: number | null
  step: 'undo' | 'redo' | null
  /** Null when not given: both for our sessions, code for a foreign one. */
  mode: RewindMode | null
  cwd: string | null
  dryRun: boolean
  diff: boolean
  json: boolean
}

function parse(args: string[]): Options {
  const options: Options = {
    file: '',
    to: null,
    step: null,
    mode: null,
    cwd: null,
    dryRun: false,
    diff: false,
    json: false
  }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => optionValue(args, ++i)
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
    } else if (arg === '--cwd') {
      // Never empty (optionValue): resolve('') would be the current folder.
      options.cwd = value()
    } else if (arg === '--undo' || arg === '--redo') {
      if (options.step !== null && options.step !== arg.slice(2)) {
        throw new UsageError('give --undo or --redo, not both')
      }
      options.step = arg === '--undo' ? 'undo' : 'redo'
    } else if (arg === '--dry-run') options.dryRun = true
    else if (arg === '--diff') options.diff = true
    else if (arg === '--json') options.json = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one SESSION_FILE')
  options.file = files[0] ?? ''
  if ((options.step !== null) === (options.to !== null)) {
    throw new UsageError('give either --to N or --undo (or --redo)')
  }
  if (options.step !== null && options.dryRun) {
    throw new UsageError(`--dry-run goes with --to, not --${options.step}`)
  }
  if (options.step !== null && options.diff) {
    throw new UsageError(`--diff goes with --to, not --${options.step}`)
  }
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('rewind', args, USAGE, parse)
  if (typeof options === 'number') return options
  // A foreign session's rescue restore, and the views naming an undo's step, are imported when
  // used: `--to` on our sessions loads neither (each module loaded is start-up time).
  if (detectFileFormat(options.file) !== 'rewind-studio')
    return (await import('./rewind-foreign')).rewindForeign(options)
  let store: SessionStore | null = null
  try {
    store = SessionStore.open(options.file, { readOnly: options.dryRun })
    if (!options.dryRun && store.readOnlyReason !== null) {
      throw new Error(
        `cannot change ${options.file}: ${store.readOnlyReason}. Nothing was changed.`
      )
    }
    const home = rewindStudioHome()
    const engine = new RewindEngine({
      home,
      store,
      space: sessionSpace(home, options.file, store, options.cwd)
    })
    for (const notice of await engine.recover()) sayError(`note: ${notice}`)
    if (options.step !== null) {
      const timeline = await engine.timeline()
      const action = options.step === 'undo' ? timeline.undoable : timeline.redoable
      const result = options.step === 'undo' ? await engine.undo() : await engine.redo()
      print(options, result, null)
      if (!options.json && action !== null) await sayStep(options.step, store, action)
      return 0
    }
    const checkpoint = checkpointAt(store, options.to ?? 0)
    // No diffs with the plan: only --diff prints them (each made when printed).
    const plan = await engine.planRewind(checkpoint, options.mode ?? 'both', { diffs: false })
    for (const path of plan.conflicts) {
      sayError(`note: ${onePath(path)} was changed since by another session: left alone`)
    }
    for (const { path, reason } of plan.unrestorable) {
      sayError(`note: ${onePath(path)} cannot be restored: ${reason}`)
    }
    // Made before the apply changes the files; only when asked (a diff per file costs more than
    // restoring it).
    const diffs = options.diff ? plan.files.map((f) => engine.fileDiff(plan, f.path).diff) : []
    const result = options.dryRun ? null : await engine.apply(plan)
    print(options, result, plan, diffs)
    return 0
  } catch (error) {
    sayError(`rewind: ${(error as Error).message}`)
    return 1
  } finally {
    store?.close()
  }
}

function print(
  options: Options,
  result: RewindResult | null,
  plan: RewindPlan | null,
  diffs: string[] = []
): void {
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
    console.log(escapeControlCharsInJson(JSON.stringify({ ...lists, outsideChanges: outside })))
    return
  }
  // One write for the lists: a rewind of a thousand files printed a line at a time.
  const lines = [
    ...lists.restore.map((path) => `  ⎿ restore ${onePath(path)}`),
    ...lists.delete.map((path) => `  ⎿ delete (created after the checkpoint) ${onePath(path)}`),
    ...lists.recreate.map((path) => `  ⎿ recreate ${onePath(path)}`),
    ...(result === null ? [] : folderLines(result)),
    ...outside.map(
      (path) => `  ! ${onePath(path)} was changed outside the agent since it last wrote it`
    )
  ]
  if (lines.length > 0) say(lines.join('\n'))
  if (plan === null) return
  for (const diff of diffs) if (diff !== '') say(maskSecrets(diff))
  if (options.dryRun) {
    say('Dry run: nothing was changed.')
    return
  }
  const kept =
    plan.messagesKept === null ? '' : `; the conversation keeps ${plan.messagesKept} messages`
  const left = plan.unrestorable.length
  const notRestored =
    left === 0
      ? ''
      : `; ${left} ${left === 1 ? 'path' : 'paths'} could not be restored (see the notes above)`
  say(
    `Rewound to before checkpoint ${options.to} (mode ${options.mode ?? 'both'})${kept}${notRestored}.`
  )
  if (result?.prefill !== null && result?.prefill !== undefined) {
    say(`Prompt to send again: ${result.prefill}`)
  }
}

/** What an undo or a redo did, named as the timeline names the action (masked, escaped). */
async function sayStep(
  step: 'undo' | 'redo',
  store: SessionStore,
  action: TimelineAction
): Promise<void> {
  const [{ indexTurns }, { actionLabel }] = await Promise.all([
    import('../../core/views/session-graph'),
    import('../../core/views/timeline-view')
  ])
  const tree = store.tree()
  const label = actionLabel(tree, indexTurns(tree), action)
  say(
    step === 'undo'
      ? `Undone: ${label}. The files and the conversation are back where they were before it.`
      : `Redone: ${label}.`
  )
}
