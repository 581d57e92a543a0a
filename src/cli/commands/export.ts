// `rewind-studio export FILE [--branch N|ID | --all] --format md|html|json [-o OUT]`: the session
// rendered by core/export (the same export the app's Export… gives), ours or another tool's
// (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode). Read-only on FILE.
import { randomUUID } from 'node:crypto'
import { linkSync, lstatSync, realpathSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { renderExport } from '../../core/export/render'
import type { ExportScope, ExportSource } from '../../core/export/export-model'
import { isInGitFolder } from '../../core/files/workspace-paths'
import { writePrivateFileSync } from '../../core/os/private-files'
import { WriteFailedError } from '../../core/os/write-failure'
import { detectFileFormat, readSessionFile } from '../../core/session/load'
import { SessionStore } from '../../core/session/store'
import { buildSessionGraph, indexTurns } from '../../core/views/session-graph'
import { branchLeafOf, resolveNode } from '../../core/views/node-refs'
import { escapeControlChars } from '../../shared/control-chars'
import { ExportFormat } from '../../shared/views'
import { startFileCommand } from '../cli-support'
import { sayError } from '../format'
import { UsageError, optionValue } from '../args'

const USAGE = `Usage: rewind-studio export FILE [--branch N|ID | --all] [--format md|html|json] [-o OUT] [--force]

Renders the session in FILE:
  md    a branch as Markdown: prompts, answers, tool calls with their input and result cut to a
        few lines, summaries, reports, labels (default: the active branch)
  html  one self-contained page of the whole tree (default: --all): the branches as an outline to
        navigate, every node with its messages; inline style and script only, no network
  json  the tree model: every node as the app's graph has it, with its messages (default: --all)
--branch N|ID exports the branch through that node (N: a turn number, as /tree numbers them; ID:
a node id or short id); --all the whole tree. Strings that look like API keys are masked.
The default format is md. -o OUT writes a new file (readable by you only, written whole or not at all); --force replaces an
existing OUT that is a regular file (never a device, FIFO or link). OUT may not be inside a .git folder. Without -o the export is printed.`

interface Options {
  file: string
  format: ExportFormat
  scope: { all: true } | { all: false; branch: string | null }
  out: string | null
  force: boolean
}

function parse(args: string[]): Options {
  let format: ExportFormat = 'md'
  let branch: string | null = null
  let all = false
  let out: string | null = null
  let force = false
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => optionValue(args, ++i)
    if (arg === '--format') {
      const raw = value()
      const parsed = ExportFormat.safeParse(raw)
      if (!parsed.success) throw new UsageError(`--format must be md, html or json, not "${raw}"`)
      format = parsed.data
    } else if (arg === '--branch') branch = value()
    else if (arg === '--all') all = true
    else if (arg === '-o' || arg === '--output') out = value()
    else if (arg === '--force') force = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one session FILE')
  if (all && branch !== null) throw new UsageError('give --branch or --all, not both')
  return {
    file: files[0] ?? '',
    format,
    // Markdown reads as one conversation; the page and the JSON hold the tree.
    scope: all || (branch === null && format !== 'md') ? { all: true } : { all: false, branch },
    out,
    force
  }
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('export', args, USAGE, parse)
  if (typeof options === 'number') return options
  let store: SessionStore | null = null
  try {
    // Ours through the store (its lock rules); another tool's session through its reader, as
    // inspect reads it: an export only reads.
    let source: ExportSource
    if (detectFileFormat(options.file) === 'rewind-studio') {
      store = SessionStore.open(options.file, { readOnly: true })
      source = { tree: store.tree(), header: store.header, file: store.file }
    } else {
      const { tree } = readSessionFile(options.file)
      const header = { sessionId: tree.header?.sessionId ?? '', cwd: tree.header?.cwd ?? '' }
      source = { tree, header, file: options.file }
    }
    const tree = source.tree
    let scope: ExportScope = { kind: 'all' }
    if (!options.scope.all) {
      const ref = options.scope.branch
      if (ref === null) scope = { kind: 'branch', leafUuid: tree.leafUuid }
      else {
        const index = indexTurns(tree)
        const node = resolveNode(
          tree,
          buildSessionGraph(tree, source.header.sessionId, index),
          index,
          ref
        )
        scope = { kind: 'branch', leafUuid: branchLeafOf(tree, node) }
      }
    }
    const rendered = renderExport(source, options.format, scope)
    if (options.out === null) {
      // On a terminal: nothing in it may act on the terminal (the JSON is escaped already).
      process.stdout.write(
        options.format === 'json' ? rendered.content : escapeControlChars(rendered.content)
      )
    } else writeExport(options.out, rendered.content, options.force)
    return 0
  } catch (error) {
    sayError(`export: ${(error as Error).message}`)
    return 1
  } finally {
    store?.close()
  }
}

/**
 * Writes OUT whole or not at all: a private temp file beside it, then linked in as OUT (which
 * fails if OUT exists: nothing is overwritten without --force) or, with --force, renamed over it.
 */
function writeExport(out: string, content: string, force: boolean): void {
  refuseGitFolder(out)
  if (force) refuseAllButRegularFile(out)
  const temp = join(dirname(out), `.${basename(out)}.${process.pid}-${randomUUID()}.tmp`)
  try {
    writePrivateFileSync(temp, content)
    if (force) renameSync(temp, out)
    else linkSync(temp, out)
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') {
      throw new Error(
        `${out} exists: give another name, or --force to replace it. Nothing was written.`
      )
    }
    throw new WriteFailedError(out, error, 'nothing was written')
  } finally {
    rmSync(temp, { force: true })
  }
}

/**
 * --force replaces a regular file only: a rename over a device, a FIFO, a socket or a link
 * replaces the node itself (as root, -o /dev/null made /dev/null a file), and no export needs
 * one (without -o it is printed, for a pipe or /dev/stdout alike).
 */
function refuseAllButRegularFile(out: string): void {
  const there = lstatSync(out, { throwIfNoEntry: false })
  if (there === undefined || there.isFile()) return
  const what = there.isSymbolicLink()
    ? 'a symbolic link'
    : there.isDirectory()
      ? 'a folder'
      : 'a device, FIFO or socket'
  throw new Error(
    `${out} is ${what}: --force replaces a regular file only (without -o the export is printed). Nothing was written.`
  )
}

/**
 * Nothing of ours is written into a repository's own folder (a file there can be read by git as
 * its config or a hook): OUT is refused when its folder, links followed, or its own name is one.
 */
function refuseGitFolder(out: string): void {
  let folder: string
  try {
    folder = realpathSync(dirname(resolve(out)))
  } catch {
    return // no such folder: the write says so
  }
  if (isInGitFolder(join(folder, basename(out)))) {
    throw new Error(`${out} is inside a .git folder: give a name outside it. Nothing was written.`)
  }
}
