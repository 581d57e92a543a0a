// `rewind-studio share push|list|pull`: a session shared through the workspace's git remote
// (core/share: the ref layout, what is masked, what a pull takes). Only our own refs move; the
// user's branches, index, HEAD and working tree are never touched.
import { resolve } from 'node:path'
import { listShared } from '../../core/share/list'
import { pullSession } from '../../core/share/pull'
import { previewPush, pushSession } from '../../core/share/push'
import type { ShareScope } from '../../core/share/layout'
import { checkWorkspaceFolder } from '../../core/files/workspace-root'
import { isSessionFileOf, rewindStudioHome, sessionsDir } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { buildSessionGraph, indexTurns } from '../../core/views/session-graph'
import { branchLeafOf, resolveNode } from '../../core/views/node-refs'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import { formatBytes } from '../../shared/prompt-limit'
import type { SharePreview, ShareResult } from '../../shared/share-views'
import { startFileCommand } from '../cli-support'
import { failWith, wantsHelp } from '../command-failure'
import { say, sayError } from '../format'
import { UsageError, optionValue } from '../args'

const USAGE = `Usage: rewind-studio share push FILE [--remote NAME] [--branch N|ID | --all] [--dry-run] [--json] [--cwd DIR]
       rewind-studio share list [--remote NAME] [--cwd DIR] [--json]
       rewind-studio share pull ID [--remote NAME] [--cwd DIR] [--json]

push   writes the session in FILE (the whole tree, or with --branch the branch through turn N or
       node ID) and the backups it names as git objects under refs/rewind-studio/sessions/<id>
       of the workspace's repository, then pushes that ref to the remote (default: origin, or the
       only remote). Strings that look like keys are masked in what is sent, in the records and
       in text backups; the local log keeps them. Prints what was sent (bytes, as git counts
       them); --dry-run prints what would be sent and what is masked, and writes nothing. The
       workspace is the one FILE's header names (FILE must be in its sessions folder), or --cwd.
list   the sessions the remote holds: id, title, who shared them, when, on which commit.
pull   fetches session ID into refs/rewind-studio/remotes/<remote>/sessions/<id> and copies it
       into the data home (its backups into the workspace's file history), read-only; prints
       its file. No file of the workspace is touched: open it in the app (Shared sessions) to
       review it, and Continue from here or Fork to carry it on with its files.
The workspace of list and pull is --cwd DIR, default the current folder.`

interface Options {
  verb: 'push' | 'list' | 'pull'
  /** push: the session file; pull: the session id. */
  file: string
  remote: string | undefined
  branch: string | null
  all: boolean
  dryRun: boolean
  json: boolean
  cwd: string | null
}

function parse(args: string[]): Options {
  const [verb, ...rest] = args
  if (verb !== 'push' && verb !== 'list' && verb !== 'pull') {
    throw new UsageError(
      verb === undefined
        ? 'give push, list or pull'
        : `unknown share command ${JSON.stringify(verb)}`
    )
  }
  const options: Options = {
    verb,
    file: '',
    remote: undefined,
    branch: null,
    all: false,
    dryRun: false,
    json: false,
    cwd: null
  }
  const positional: string[] = []
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? ''
    const value = () => optionValue(rest, ++i)
    if (arg === '--remote') options.remote = value()
    else if (arg === '--branch' && verb === 'push') options.branch = value()
    else if (arg === '--all' && verb === 'push') options.all = true
    else if (arg === '--dry-run' && verb === 'push') options.dryRun = true
    else if (arg === '--json') options.json = true
    else if (arg === '--cwd') options.cwd = value()
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg} for share ${verb}`)
    else positional.push(arg)
  }
  if (verb === 'list' && positional.length > 0) throw new UsageError('share list takes no argument')
  if (verb !== 'list' && positional.length !== 1) {
    throw new UsageError(
      verb === 'push' ? 'give exactly one session FILE' : 'give exactly one session ID'
    )
  }
  if (options.all && options.branch !== null)
    throw new UsageError('give --branch or --all, not both')
  options.file = positional[0] ?? ''
  return options
}

export async function run(args: string[]): Promise<number> {
  if (wantsHelp(args)) {
    console.log(USAGE)
    return 0
  }
  let options: Options
  try {
    options = parse(args)
  } catch (error) {
    sayError(`share: ${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const home = rewindStudioHome()
  try {
    if (options.verb === 'push') {
      const checked = startFileCommand('share push', [options.file], USAGE, (a) => ({
        file: a[0] ?? ''
      }))
      if (typeof checked === 'number') return checked
      return await push(home, options)
    }
    const workspace = resolve(options.cwd ?? process.cwd())
    if (options.verb === 'list') {
      const list = await listShared({ home, workspace, remote: options.remote })
      if (options.json) say(escapeControlCharsInJson(JSON.stringify(list, null, 2)))
      else if (list.sessions.length === 0) say(`${list.remote} holds no shared session.`)
      else {
        for (const s of list.sessions) {
          const code =
            s.code === null
              ? 'no commit'
              : `${s.code.branch ?? 'detached'} at ${s.code.commit.slice(0, 12)}`
          say(
            `${s.sessionId}  ${s.title || '(no prompt)'}\n    shared by ${s.sharedBy} at ${s.sharedAt}, on ${code}; ${s.turns} turns, ${s.files} files, ${s.backups} backups, ${formatBytes(s.bytes)}${s.pulled ? '; pulled here' : ''}${s.ours ? '; pushed from here' : ''}`
          )
        }
      }
      return 0
    }
    const pulled = await pullSession({
      home,
      workspace,
      remote: options.remote,
      sessionId: options.file
    })
    if (options.json) say(escapeControlCharsInJson(JSON.stringify(pulled, null, 2)))
    else {
      const { info } = pulled
      say(pulled.file)
      say(
        `Pulled ${info.sessionId} from ${info.remote} (commit ${info.commit.slice(0, 12)}): shared by ${info.sharedBy} at ${info.sharedAt}${info.code === null ? '' : `, on ${info.code.branch ?? 'detached HEAD'} at ${info.code.commit.slice(0, 12)}${info.codeHere === false ? ' (not in this repository: fetch it to compare)' : ''}`}; ${pulled.lines} lines, ${pulled.backups} backups.`
      )
      for (const problem of pulled.problems) sayError(`share pull: ${problem}`)
    }
    return 0
  } catch (error) {
    return failWith(error)
  }
}

async function push(home: string, options: Options): Promise<number> {
  // The header names the repository the session goes through: trusted only for a file kept in
  // that workspace's sessions folder (as rewind FILE), else --cwd says.
  const store = SessionStore.open(options.file, { readOnly: true })
  let scope: ShareScope = { kind: 'all' }
  let workspace: string
  try {
    if (options.cwd === null) {
      checkWorkspaceFolder(store.cwd, home)
      if (!isSessionFileOf(home, options.file, store.cwd)) {
        throw new UsageError(
          `${options.file} is not in the sessions folder of the workspace its header names (${sessionsDir(home, store.cwd)}): give --cwd DIR to say whose repository to share it through. Nothing was shared.`
        )
      }
    }
    workspace = options.cwd === null ? store.cwd : resolve(options.cwd)
    checkWorkspaceFolder(workspace, home)
    if (options.branch !== null) {
      const tree = store.tree()
      const index = indexTurns(tree)
      const node = resolveNode(
        tree,
        buildSessionGraph(tree, store.sessionId, index),
        index,
        options.branch
      )
      const leafUuid = branchLeafOf(tree, node)
      if (leafUuid !== null) scope = { kind: 'branch', leafUuid }
    }
  } finally {
    store.close()
  }
  const request = { home, file: options.file, workspace, remote: options.remote, scope }
  if (options.dryRun) {
    const preview = await previewPush(request)
    if (options.json) say(escapeControlCharsInJson(JSON.stringify(preview, null, 2)))
    else describe(preview, null)
    return 0
  }
  const result = await pushSession(request)
  if (options.json) say(escapeControlCharsInJson(JSON.stringify(result, null, 2)))
  else describe(result, result)
  return 0
}

function describe(preview: SharePreview, result: ShareResult | null): void {
  const p = preview
  say(
    `${result === null ? 'Would share' : 'Shared'} session ${p.sessionId} to ${p.remote} as ${p.ref}${result === null ? '' : ` (commit ${result.commit.slice(0, 12)})`}: ${p.scope === 'all' ? 'the whole tree' : 'one branch'}, ${p.turns} turns, ${p.files} files, ${p.backups} backups, ${formatBytes(p.bytes)}.`
  )
  say(
    p.sharedBefore === null
      ? `First push of this session: ${p.newObjects} objects, ${formatBytes(p.newBytes)} before compression.`
      : `New since the last push: ${p.newObjects} objects, ${formatBytes(p.newBytes)} before compression.`
  )
  if (result !== null)
    say(
      `Sent ${result.sent.objects} objects, ${formatBytes(result.sent.bytes)} (as git counts them).`
    )
  if (p.missingBackups > 0)
    say(`${p.missingBackups} backups the records name were pruned here: not shared.`)
  say(
    p.masked === 0
      ? 'Nothing looked like a key: nothing was masked.'
      : `${p.masked} pieces that look like keys are masked in what ${result === null ? 'would be' : 'was'} sent:`
  )
  for (const r of p.redactions) say(`  ${r.where}: ${r.shown}   …${r.context}…`)
  if (p.masked > p.redactions.length) say(`  …and ${p.masked - p.redactions.length} more.`)
}
