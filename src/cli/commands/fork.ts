// `rewind-studio fork FILE [--at N|ID] [--restore [--dry-run]] [--json]`: a new session holding
// the path to one node of FILE (core/session/fork.ts), beside it; prints the new file. FILE is
// only read. The files are left alone unless --restore (core/studio/fork-at-node.ts says the order).
import { existsSync, realpathSync } from 'node:fs'
import { sessionHistoryPaths } from '../../core/files/history-paths'
import { checkWorkspaceFolder } from '../../core/files/workspace-root'
import { RewindEngine, type RewindPlan } from '../../core/rewind/rewind-engine'
import { restoreSpaceAt } from '../../core/rewind/workspace-files'
import { rewindStudioHome } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { forkEnd, forkRoute, restoreInFork } from '../../core/studio/fork-at-node'
import { escapeControlCharsInJson, escapeControlCharsOneLine } from '../../shared/control-chars'
import { maskSecrets } from '../../shared/mask-secrets'
import type { RewindResult } from '../../shared/views'
import { startFileCommand } from '../cli-support'
import { restoreLines, say, sayError } from '../format'
import { UsageError, optionValue } from '../args'

const USAGE = `Usage: rewind-studio fork FILE [--at N|ID] [--restore [--dry-run]] [--json]

Writes a new session holding the conversation of FILE from its start to one node, and prints the
new session's file. N is a turn number: the prompts of the active path are 1, 2, 3… (as
rewind --to counts them), the turns of other branches follow in the order chat's /tree lists
them. ID is a node's id, or the short id inspect and /tree print. Without --at, the whole
active path is forked. The fork keeps the records' ids, lies beside FILE and shares its backups;
FILE is not changed. Continue it with \`chat --resume <its id>\`. A session pulled with \`share
pull\` forks among the workspace's own sessions, its files from the shared backups.
The workspace's files are left as they are unless --restore: then they are brought to the state
at that node, as a switch to it would, and the fork records it (\`rewind FORK --undo\` puts them
back). --dry-run, with --restore, prints what would change and writes nothing.
--json prints {file, sessionId, forkedFrom, restored, deleted, recreated}.`

interface Options {
  file: string
  at: string | null
  restore: boolean
  dryRun: boolean
  json: boolean
}

function parse(args: string[]): Options {
  const options: Options = { file: '', at: null, restore: false, dryRun: false, json: false }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (arg === '--at') {
      options.at = optionValue(args, ++i)
    } else if (arg === '--restore') options.restore = true
    else if (arg === '--dry-run') options.dryRun = true
    else if (arg === '--json') options.json = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one session FILE')
  if (options.dryRun && !options.restore) throw new UsageError('--dry-run goes with --restore')
  options.file = files[0] ?? ''
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('fork', args, USAGE, parse)
  if (typeof options === 'number') return options
  const stores: SessionStore[] = []
  try {
    // Read-only: a fork never writes its origin, which may be open in the app meanwhile.
    const origin = SessionStore.open(options.file, { readOnly: true })
    stores.push(origin)
    const home = rewindStudioHome()
    checkWorkspaceFolder(origin.cwd, home)
    const end = forkEnd(origin.tree(), origin.sessionId, options.at)
    let plan: RewindPlan | null = null
    let engineFor: ((store: SessionStore) => RewindEngine) | null = null
    // A session pulled from a remote forks among this workspace's sessions (core/share).
    const route = forkRoute(home, origin)
    if (options.restore) {
      if (!existsSync(origin.cwd)) throw new Error(`the workspace ${origin.cwd} does not exist`)
      const space = restoreSpaceAt(
        realpathSync(origin.cwd),
        sessionHistoryPaths(home, options.file, origin.cwd).root
      )
      engineFor = (store) => new RewindEngine({ home, store, space })
      plan = await route.plan(engineFor(origin), space.blobs, end)
      for (const path of plan.conflicts) {
        sayError(`note: ${path} was changed since by another session: left alone`)
      }
      for (const { path, reason } of plan.unrestorable) {
        sayError(`note: ${path} cannot be restored: ${reason}`)
      }
      if (options.dryRun) {
        for (const file of plan.files)
          say(`  ⎿ ${file.action} ${escapeControlCharsOneLine(file.path)}`)
        // The plan made diffs for its first few files only: the rest are made here.
        const engine = engineFor(origin)
        for (const file of plan.files) {
          const diff = file.diff ?? engine.fileDiff(plan, file.path).diff
          if (diff !== '') say(maskSecrets(diff))
        }
        say('Dry run: nothing was changed.')
        return 0
      }
    }
    const fork = route.fork(end)
    stores.push(fork)
    let result: RewindResult | null = null
    let failure: string | null = null
    if (plan !== null && engineFor !== null) {
      try {
        result = await engineFor(fork).apply(restoreInFork(plan, fork))
      } catch (error) {
        failure = (error as Error).message
      }
    }
    if (options.json) {
      console.log(
        escapeControlCharsInJson(
          JSON.stringify({
            file: fork.file,
            sessionId: fork.sessionId,
            forkedFrom: fork.header.forkedFrom,
            restored: result?.restored ?? [],
            deleted: result?.deleted ?? [],
            recreated: result?.recreated ?? []
          })
        )
      )
    } else {
      if (result !== null) for (const line of restoreLines(result)) sayError(line)
      say(fork.file)
    }
    if (failure !== null) {
      sayError(`fork: the fork was made; its files were not restored: ${failure}`)
      return 1
    }
    return 0
  } catch (error) {
    sayError(`fork: ${(error as Error).message}`)
    return 1
  } finally {
    for (const store of stores) store.close()
  }
}
