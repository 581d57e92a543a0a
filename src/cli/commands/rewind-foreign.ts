// `rewind-studio rewind SESSION --to N --mode code | --undo`: a rescue restore of another tool's
// session's files from that tool's own backups (Claude Code's file-history, Gemini CLI's
// checkpoints, OpenCode's snapshots: core/rewind/rescue.ts), for the rewind command when it is
// given a foreign session. The session and the tool's folders are only read; the restore's
// record, journal and undo backups go to our data home.
import { existsSync, realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { checkWorkspaceFolder } from '../../core/files/workspace-root'
import type { RewindPlan } from '../../core/rewind/rewind-engine'
import { openRescue, planRescue, type RescueSpace } from '../../core/rewind/rescue'
import { readSessionFile, readerOf, type LoadedSession } from '../../core/session/load'
import { rewindStudioHome } from '../../core/session/paths'
import { Sources } from '../../core/sources/discovery'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import { maskSecrets } from '../../shared/mask-secrets'
import type { RewindMode } from '../../shared/messages'
import { TOOL_NAMES, type RewindResult, type SkippedFile } from '../../shared/views'
import { onePath, say, sayError } from '../format'

export interface ForeignRewindOptions {
  file: string
  to: number | null
  step: 'undo' | 'redo' | null
  mode: RewindMode | null
  cwd: string | null
  dryRun: boolean
  json: boolean
}

/** Exit code 1 when a file was skipped: the restore is partial, and a script must see that. */
export async function rewindForeign(options: ForeignRewindOptions): Promise<number> {
  let space: RescueSpace | null = null
  try {
    const loaded = readSessionFile(options.file)
    if (options.mode !== null && options.mode !== 'code') {
      throw new Error(
        `${options.file} is a ${loaded.format} session, which Rewind Studio never writes: only its files can be restored (--mode code). To carry the conversation on from a point, use \`rewind-studio continue ${options.file} --at N\`. Nothing was changed.`
      )
    }
    const home = rewindStudioHome()
    // The tools' folders: where discovery looks for them ($CLAUDE_CONFIG_DIR, ~/.claude...).
    const sources = new Sources({ home, persist: false })
    const claude = sources.homes['claude-code']
    const cwd = loaded.tree.header?.cwd ?? ''
    const tool = TOOL_NAMES[loaded.format]
    if (options.cwd === null) {
      checkWorkspaceFolder(cwd, home)
      if (!sources.listsFor(options.file, cwd)) {
        // A session says itself where it ran: trusted only where its tool keeps the sessions
        // of that folder (discovery lists it for it). Anywhere else, the user names the folder.
        throw new Error(
          `${options.file} is not where ${tool} keeps the sessions of the workspace it names (${cwd || 'none'}): give --cwd DIR to say which folder to restore. Nothing was changed.`
        )
      }
    }
    const root = options.cwd === null ? cwd : resolve(options.cwd)
    checkWorkspaceFolder(root, home)
    if (!existsSync(root)) throw new Error(`the workspace ${root} does not exist`)
    space = openRescue({
      home,
      file: options.file,
      loaded,
      root: realpathSync(root),
      claudeHome: claude,
      // A dry run writes nothing, not even the companion log's first line.
      readOnly: options.dryRun
    })
    for (const notice of await space.engine.recover()) sayError(`note: ${notice}`)
    if (options.step !== null) {
      const result = options.step === 'undo' ? await space.engine.undo() : await space.engine.redo()
      printResult(options, result, [], options.step)
      return 0
    }
    const { plan, index } = await planToPrompt(space, loaded, options.to ?? 0)
    const skipped = plan.unrestorable
    for (const { path, reason } of skipped) sayError(`note: ${path} is skipped: ${reason}`)
    if (options.dryRun) {
      const engine = space.engine
      printPlan(options, plan, skipped, index, (path) => engine.fileDiff(plan, path).diff, tool)
      return 0
    }
    const result = await space.engine.apply(plan)
    printResult(options, result, skipped, index, unbackedOf(plan))
    return skipped.length > 0 ? 1 : 0
  } catch (error) {
    sayError(`rewind: ${(error as Error).message}`)
    return 1
  } finally {
    space?.close()
  }
}

/** Prompt N of the session's active path, and the plan back to before it. */
async function planToPrompt(
  space: RescueSpace,
  loaded: LoadedSession,
  n: number
): Promise<{ plan: RewindPlan; index: number }> {
  const checkpoints = loaded.tree.checkpoints()
  const checkpoint = checkpoints[n - 1]
  if (checkpoint === undefined) {
    throw new Error(
      checkpoints.length === 0
        ? 'This session has no prompts: there is nothing to restore to'
        : `No prompt ${n}: the active path has prompts 1 to ${checkpoints.length}. ${readerOf(loaded.format)?.keeps ?? ''} Nothing was changed.`
    )
  }
  return { plan: await planRescue(space, loaded, checkpoint.uuid), index: n }
}

function printPlan(
  options: ForeignRewindOptions,
  plan: RewindPlan,
  skipped: SkippedFile[],
  index: number,
  /** The diff of a file the plan made none for (it makes them for its first few only). */
  diffOf: (path: string) => string,
  tool: string
): void {
  const paths = (action: 'restore' | 'delete' | 'recreate') =>
    plan.files.filter((f) => f.action === action).map((f) => f.path)
  const lists = { restore: paths('restore'), delete: paths('delete'), recreate: paths('recreate') }
  const outsideChanges = unbackedOf(plan)
  if (options.json) {
    console.log(escapeControlCharsInJson(JSON.stringify({ ...lists, outsideChanges, skipped })))
    return
  }
  printLists(lists, new Set(outsideChanges))
  for (const file of plan.files) {
    const diff = file.diff ?? diffOf(file.path)
    if (diff !== '') say(maskSecrets(diff))
  }
  if (outsideChanges.length > 0) {
    say(
      `${outsideChanges.length} file(s) hold what no backup of ${tool} holds (changed by hand, or as its last turn left them): the restore would replace it (\`rewind --undo\` brings it back).`
    )
  }
  say(
    `Dry run: nothing was changed. This would put the files back as ${tool}'s backups say they were before prompt ${index}.`
  )
}

/** The files whose content now no backup of the tool holds (a hand edit, its last turn's). */
function unbackedOf(plan: RewindPlan): string[] {
  return plan.files.filter((f) => f.outsideChange).map((f) => f.path)
}

function printResult(
  options: ForeignRewindOptions,
  result: RewindResult,
  skipped: SkippedFile[],
  index: number | 'undo' | 'redo',
  outsideChanges: string[] = []
): void {
  const lists = { restore: result.restored, delete: result.deleted, recreate: result.recreated }
  if (options.json) {
    console.log(escapeControlCharsInJson(JSON.stringify({ ...lists, outsideChanges, skipped })))
    return
  }
  printLists(lists, new Set(outsideChanges))
  if (index === 'undo' || index === 'redo') {
    say(
      index === 'undo'
        ? 'Undone: the files are back as they were before the rescue restore.'
        : 'Redone: the files are restored again as the undone rescue restore left them.'
    )
    return
  }
  if (skipped.length > 0) {
    say(
      `Partly restored to before prompt ${index}: ${skipped.length} file(s) skipped (their backup is missing): ${skipped.map((s) => onePath(s.path)).join(', ')}. \`rewind --undo\` reverses what was restored.`
    )
    return
  }
  say(`Restored the files to before prompt ${index}. \`rewind --undo\` reverses it.`)
}

function printLists(
  lists: { restore: string[]; delete: string[]; recreate: string[] },
  unbacked: ReadonlySet<string> = new Set()
): void {
  const mark = (path: string) => (unbacked.has(path) ? ' (what it holds now is in no backup)' : '')
  for (const path of lists.restore) say(`  ⎿ restore ${onePath(path)}${mark(path)}`)
  for (const path of lists.delete)
    say(`  ⎿ delete (did not exist then) ${onePath(path)}${mark(path)}`)
  for (const path of lists.recreate) say(`  ⎿ recreate ${onePath(path)}`)
}
