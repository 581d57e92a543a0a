// `rewind-studio runs FILE [--json] [--stop ID] [--discard ID]`: the parallel runs of a session
// (core/parallel), as one compare table per start; stop one that runs in another process, or
// discard one (its workspace removed; its branch, once joined, stays in the tree). FILE is only
// read.
import { BlobStore } from '../../core/files/blob-store'
import { historyPathsAt, sessionHistoryPaths } from '../../core/files/history-paths'
import { discardRun, findRun } from '../../core/parallel/adopt'
import { requestStop } from '../../core/parallel/launcher'
import { isUnderway, sessionRuns } from '../../core/parallel/run-manifest'
import { type RunRow, runRow } from '../../core/parallel/run-table'
import { rewindStudioHome } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { escapeControlCharsInJson, escapeControlCharsOneLine } from '../../shared/control-chars'
import { maskSecrets } from '../../shared/mask-secrets'
import { UsageError, optionValue } from '../args'
import { startFileCommand } from '../cli-support'
import { say, sayError } from '../format'

const USAGE = `Usage: rewind-studio runs FILE [--json] [--stop ID] [--discard ID]

Lists the parallel runs started from the session (rewind-studio parallel), one table per start:
each run's state (running, done, failed, stopped), files changed, lines added and removed, tokens,
time and its --check result. --stop ID stops a run that another process runs. --discard ID
removes the run's workspace (its branch stays in the tree). --json prints {runs: [...]}, each run
with its start and group.`

interface Options {
  file: string
  json: boolean
  stop: string | null
  discard: string | null
}

function parse(args: string[]): Options {
  const options: Options = { file: '', json: false, stop: null, discard: null }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (arg === '--json') options.json = true
    else if (arg === '--stop') options.stop = optionValue(args, ++i)
    else if (arg === '--discard') options.discard = optionValue(args, ++i)
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one session FILE')
  if (options.stop !== null && options.discard !== null) {
    throw new UsageError('give --stop or --discard, not both')
  }
  options.file = files[0] ?? ''
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('runs', args, USAGE, parse)
  if (typeof options === 'number') return options
  let session: SessionStore | null = null
  try {
    const home = rewindStudioHome()
    session = SessionStore.open(options.file, { readOnly: true })
    if (options.stop !== null) {
      const target = findRun(home, session, options.stop)
      if (!isUnderway(target))
        throw new Error(`run ${target.id} is ${target.state}: nothing to stop`)
      requestStop(home, target)
      say(`Asked run ${target.id} to stop.`)
      return 0
    }
    if (options.discard !== null) {
      const discarded = await discardRun(home, session, options.discard)
      say(`Run ${discarded.id}: its workspace was removed.`)
      return 0
    }
    const blobs = new BlobStore(
      historyPathsAt(sessionHistoryPaths(home, options.file, session.cwd).root).blobs
    )
    const runs = sessionRuns(home, session.cwd, session.sessionId)
    if (options.json) {
      say(
        escapeControlCharsInJson(
          JSON.stringify({
            runs: runs.map((r) => ({ ...runRow(r, blobs), start: r.startUuid, group: r.group }))
          })
        )
      )
      return 0
    }
    if (runs.length === 0) {
      say('This session has no parallel runs.')
      return 0
    }
    const groups = new Map<string, typeof runs>()
    for (const r of runs) groups.set(r.group, [...(groups.get(r.group) ?? []), r])
    for (const group of groups.values()) {
      say(`From ${group[0]?.startUuid ?? ''}, started ${group[0]?.startedAt ?? ''}:`)
      printRuns(group.map((r) => runRow(r, blobs)))
    }
    return 0
  } catch (error) {
    sayError(`runs: ${(error as Error).message}`)
    return 1
  } finally {
    session?.close()
  }
}

/** The compare table, one run a line, then each run's check tail and error. */
export function printRuns(rows: RunRow[]): void {
  const lines = [
    '  RUN                                   STATE    FILES   +LINES   -LINES   TOKENS     TIME  CHECK'
  ]
  for (const r of rows) {
    const check =
      r.check === null ? '-' : r.check.exitCode === null ? 'cut' : `exit ${r.check.exitCode}`
    lines.push(
      `  ${r.id.padEnd(36)}  ${r.state.padEnd(7)}  ${String(r.files.length).padStart(5)}  ${`+${r.linesAdded}`.padStart(7)}  ${`-${r.linesRemoved}`.padStart(7)}  ${(r.tokens === null ? '-' : String(r.tokens)).padStart(7)}  ${`${(r.ms / 1000).toFixed(1)}s`.padStart(7)}  ${check}`
    )
  }
  for (const r of rows) {
    lines.push(`  ${r.id}: ${shown(r.prompt)}`)
    if (r.files.length > 0) lines.push(`    files: ${r.files.map(shown).join(', ')}`)
    if (r.error !== null) lines.push(`    error: ${shown(r.error)}`)
    if (r.check !== null && r.check.tail !== '') {
      lines.push(...r.check.tail.split('\n').map((line) => `    | ${shown(line)}`))
    }
    if (r.workspace !== null) lines.push(`    workspace: ${shown(r.workspace)}`)
  }
  say(lines.join('\n'))
}

function shown(text: string): string {
  return escapeControlCharsOneLine(maskSecrets(text))
}
