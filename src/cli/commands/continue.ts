// `rewind-studio continue FILE [--at N|ID] [--cwd DIR] [--json]`: Continue in Rewind Studio from
// the terminal. FILE is another tool's session (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode by
// its locator); a new session of ours
// is written holding the path to a node of it, converted (core/session/continue-foreign.ts), and
// its file is printed: `rewind-studio chat --cwd DIR --resume ID` then carries it on. FILE is
// only read, and no file of the workspace is touched (`rewind FILE --to N --mode code` restores
// a Claude Code session's files).
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { checkWorkspaceFolder } from '../../core/files/workspace-root'
import { continueForeign } from '../../core/session/continue-foreign'
import { readSessionFile, sessionExists } from '../../core/session/load'
import { rewindStudioHome } from '../../core/session/paths'
import { Sources } from '../../core/sources/discovery'
import { buildSessionGraph, indexTurns } from '../../core/views/session-graph'
import { nodeEnd, resolveNode } from '../../core/views/node-refs'
import { escapeControlCharsInJson } from '../../shared/control-chars'
import { failWith, wantsHelp } from '../command-failure'
import { say } from '../format'
import { UsageError, optionValue } from '../args'

const USAGE = `Usage: rewind-studio continue FILE [--at N|ID] [--cwd DIR] [--json]

Continues another tool's session (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode:
"sessions" prints an OpenCode session's FILE as <opencode.db>#<id>) in Rewind Studio: a new session
holding the conversation up to a node of FILE (--at: a turn number as inspect lists them, or a
node or record id; default: where the session is now), converted to Rewind Studio's format as
the other tool's model saw it (from its last compaction). Prints the new session's file; carry
it on with \`rewind-studio chat --cwd DIR --resume ID\`. FILE is never written and no file is
changed (\`rewind FILE --to N --mode code\` restores a Claude Code session's files).
The new session is for the folder FILE recorded, when FILE is in that tool's folder of that
project; anywhere else, --cwd DIR names it. --json prints {sessionId, file, at}.`

interface Options {
  file: string
  at: string | null
  cwd: string | null
  json: boolean
}

function parse(args: string[]): Options {
  const options: Options = { file: '', at: null, cwd: null, json: false }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => optionValue(args, ++i)
    if (arg === '--at') options.at = value()
    else if (arg === '--cwd') options.cwd = value()
    else if (arg === '--json') options.json = true
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one FILE')
  options.file = files[0] ?? ''
  return options
}

export async function run(args: string[]): Promise<number> {
  if (wantsHelp(args)) {
    console.log(USAGE)
    return 0
  }
  try {
    const options = parse(args)
    if (!sessionExists(options.file)) throw new UsageError(`no session file ${options.file}`)
    const loaded = readSessionFile(options.file)
    if (loaded.format === 'rewind-studio') {
      throw new UsageError(
        `${options.file} is a Rewind Studio session: carry it on with \`rewind-studio chat --resume ID\``
      )
    }
    const header = loaded.tree.header
    const home = rewindStudioHome()
    const listed = new Sources({ home }).sourceOf(options.file) === loaded.format
    if (options.cwd === null && !listed) {
      // A file says itself where it ran: trusted only in the folder its tool keeps it in.
      throw new UsageError(
        `${options.file} is not in the folder where ${loaded.format} keeps its sessions: give --cwd DIR to say which workspace the new session is for. Nothing was written.`
      )
    }
    const cwd = options.cwd === null ? (header?.cwd ?? '') : resolve(options.cwd)
    checkWorkspaceFolder(cwd, home)
    if (!existsSync(cwd)) throw new UsageError(`the workspace ${cwd} does not exist`)
    const { tree } = loaded
    const at = options.at === null ? tree.leafUuid : endOf(tree, options.at)
    const store = continueForeign({
      home,
      cwd,
      origin: { file: options.file, format: loaded.format, sessionId: header?.sessionId ?? '' },
      tree,
      at
    })
    try {
      if (options.json) {
        console.log(
          escapeControlCharsInJson(
            JSON.stringify({ sessionId: store.sessionId, file: store.file, at })
          )
        )
      } else {
        say(store.file)
        say(
          `Continue it: rewind-studio chat --cwd ${JSON.stringify(cwd)} --resume ${store.sessionId}`
        )
      }
    } finally {
      store.close()
    }
    return 0
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`continue: ${error.message}\n\n${USAGE}`)
      return 2
    }
    return failWith(error)
  }
}

/** The last record of the node `ref` names (a turn number, a node or record id). */
function endOf(tree: Parameters<typeof indexTurns>[0], ref: string): string {
  const index = indexTurns(tree)
  const graph = buildSessionGraph(tree, tree.header?.sessionId ?? '', index)
  return nodeEnd(tree, index, resolveNode(tree, graph, index, ref))
}
