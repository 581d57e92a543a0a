// `rewind-studio diff SESSION_FILE --from A --to B`: compare two nodes of a session (or a node and
// the files on disk now), as the app's Compare does (core/views/compare-view.ts): the files
// that differ with unified diffs, their content rebuilt from the backups, and the two
// conversations from where they part. Reads only: nothing is written, the session is opened
// read-only.
import { BlobStore } from '../../core/files/blob-store'
import { historyPathsAt, sessionHistoryPaths } from '../../core/files/history-paths'
import { DiskHashes } from '../../core/rewind/disk-hashes'
import { settleMarginMs } from '../../core/rewind/workspace-files'
import { rewindStudioHome } from '../../core/session/paths'
import { SessionStore } from '../../core/session/store'
import { type CompareSources, buildCompareView } from '../../core/views/compare-view'
import { buildSessionGraph, indexTurns } from '../../core/views/session-graph'
import { resolveNode } from '../../core/views/node-refs'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import { maskSecrets, maskSecretsIn } from '../../shared/mask-secrets'
import type { CompareView, TranscriptEntry } from '../../shared/views'
import { startFileCommand } from '../cli-support'
import { say, sayError } from '../format'
import { sessionSpace } from '../session-space'
import { UsageError, optionValue } from '../args'

const USAGE = `Usage: rewind-studio diff SESSION_FILE --from A --to B [--cwd DIR] [--json]

Compares two nodes of a session: the files that differ between them, with unified diffs (their
content rebuilt from the session's backups), and the two conversations from where they part.
A and B name a node: a checkpoint number (1, 2, … along the active path; then the turns of the
other branches, as inspect lists them), a node's id, or a unique prefix of one (4 characters or
more). B may be "current": the files on disk now (only the files the session changed are
compared) and the conversation at the session's leaf; the files are read in the workspace the
session's header names, or in DIR with --cwd (required for a SESSION_FILE outside the sessions
folder of that workspace). --json prints the whole comparison as one object. Nothing is written.`

interface Options {
  file: string
  from: string
  to: string
  cwd: string | null
  json: boolean
}

function parse(args: string[]): Options {
  const files: string[] = []
  const options: Options = { file: '', from: '', to: '', cwd: null, json: false }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => optionValue(args, ++i)
    if (arg === '--from') options.from = value()
    else if (arg === '--to') options.to = value()
    else if (arg === '--cwd') options.cwd = value()
    else if (arg === '--json') options.json = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one SESSION_FILE')
  if (options.from === '' || options.to === '') throw new UsageError('give --from A and --to B')
  if (options.from === 'current') throw new UsageError('"current" goes with --to, not --from')
  options.file = files[0] ?? ''
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('diff', args, USAGE, parse)
  if (typeof options === 'number') return options
  let store: SessionStore | null = null
  try {
    store = SessionStore.open(options.file, { readOnly: true })
    const home = rewindStudioHome()
    const tree = store.tree()
    const index = indexTurns(tree)
    const graph = buildSessionGraph(tree, store.sessionId, index)
    const from = resolveNode(tree, graph, index, options.from).id
    const to = options.to === 'current' ? 'current' : resolveNode(tree, graph, index, options.to).id
    // The workspace is looked at only for "current": comparing two nodes reads backups alone.
    const space = to === 'current' ? sessionSpace(home, options.file, store, options.cwd) : null
    const sources: CompareSources = {
      tree,
      index,
      nodes: graph.nodes,
      blobs:
        space?.blobs ??
        new BlobStore(
          historyPathsAt(sessionHistoryPaths(home, options.file, store.cwd).root).blobs
        ),
      disk: space === null ? noDisk : new DiskHashes(space.root, settleMarginMs(space.root)),
      // A session of ours: the files as each node left them, from our own backups.
      caveat: null
    }
    const view = maskSecretsIn(buildCompareView(sources, from, to, { diffBudget: Infinity }))
    if (options.json) console.log(escapeControlCharsInJson(JSON.stringify(view)))
    else print(view)
    return 0
  } catch (error) {
    sayError(`diff: ${(error as Error).message}`)
    return 1
  } finally {
    store?.close()
  }
}

/** Comparing two nodes never reads the disk. */
const noDisk: CompareSources['disk'] = {
  hashOf: () => undefined,
  contentOf: () => undefined
}

function print(view: CompareView): void {
  say(`Compare ${view.a.title} (A) → ${view.b.title} (B)`)
  const { a, b, ancestorId } = view.conversation
  say(
    ancestorId === null
      ? 'The conversations share nothing.'
      : `The conversations part after node ${ancestorId}.`
  )
  for (const [name, entries] of [
    ['A', a],
    ['B', b]
  ] as const) {
    const prompts = entries.filter((e) => e.isPrompt)
    say(`  ${name}: ${entries.length} message(s) after that, ${prompts.length} prompt(s)`)
    for (const entry of prompts) say(`    ❯ ${firstLine(entry)}`)
  }
  if (view.files.length === 0) {
    say('No file the session changed differs.')
    return
  }
  say(`${view.files.length} file(s) differ:`)
  for (const file of view.files) say(`  ${file.change} ${file.path}`)
  for (const file of view.files) {
    if (file.note !== null) say(`! ${file.note}`)
    else if (file.diff === '') say(`(no text diff of ${file.path}: binary or over 1 MB)`)
    else if (file.diff !== null) say(file.diff.trimEnd())
  }
}

function firstLine(entry: TranscriptEntry): string {
  const text =
    typeof entry.content === 'string'
      ? entry.content
      : entry.content.map((b) => (b.type === 'text' && 'text' in b ? String(b.text) : '')).join(' ')
  const line = maskSecrets(text.trim()).split('\n', 1)[0] ?? ''
  return line.length > 100 ? `${line.slice(0, 99)}…` : line
}
