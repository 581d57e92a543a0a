// The Codex CLI, Gemini CLI and OpenCode sessions the real tools made (test/fixtures/<tool>, each
// README.md says how), copied into temp folders as the tool's home, a workspace and our data
// home. Text files (rollouts, chats, a project root, checkpoints) are rewritten as if the session
// had run in the copy of its workspace; OpenCode's database cannot be (it is only read here), so
// its sessions keep the folder they ran in and a restore names the copy with --cwd.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'

export const TOOL_FIXTURES = resolve(import.meta.dirname, '../fixtures')

export interface ToolHome {
  base: string
  /** The tool's home (what its own env var names). */
  toolHome: string
  workspace: string
  /** The folder the session ran in, as its files (now this copy's) name it. */
  ran: string
  /** Our data home. */
  home: string
  env: Record<string, string>
}

const recorded = (tool: string) =>
  readFileSync(join(TOOL_FIXTURES, tool, 'workspace-path.txt'), 'utf8').trim()

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
}

/** Every text file under `dir` with `from` replaced by `to` (what a relocation rewrites). */
function rewrite(dir: string, from: string, to: string, ending: RegExp): void {
  for (const file of filesUnder(dir).filter((f) => ending.test(f))) {
    writeFileSync(file, readFileSync(file, 'utf8').split(from).join(to))
  }
}

function base(tool: string): { base: string; workspace: string; home: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `rs-${tool}-`)))
  return { base: dir, workspace: join(dir, 'ws'), home: join(dir, 'rs') }
}

/**
 * Codex CLI's home ($CODEX_HOME) with the rollouts of a fixture (`codex`, `codex-patches`: the
 * turns that patch files, `codex-compact` and `codex-compact-old`: compactions, or
 * `codex-subagents`: a sub-agent's), its workspace as the run left it.
 */
export function codexHome(
  workspaceFolder = 'workspace-after',
  fixture:
    | 'codex'
    | 'codex-patches'
    | 'codex-compact'
    | 'codex-compact-old'
    | 'codex-subagents'
    | 'codex-subagents/nested' = 'codex'
): ToolHome {
  const b = base('codex')
  const toolHome = join(b.base, 'codex')
  cpSync(join(TOOL_FIXTURES, fixture, 'sessions'), join(toolHome, 'sessions'), { recursive: true })
  cpSync(join(TOOL_FIXTURES, fixture, workspaceFolder), b.workspace, { recursive: true })
  rewrite(toolHome, recorded(fixture), b.workspace, /\.jsonl$/)
  return {
    ...b,
    toolHome,
    ran: b.workspace,
    env: { CODEX_HOME: toolHome, REWIND_STUDIO_HOME: b.home }
  }
}

/**
 * Gemini CLI's home ($GEMINI_CLI_HOME/.gemini) from `gemini-home` (the end) or
 * `gemini-home-before-restore` (with its checkpoints), the shadow repository's `dot-git` named
 * `.git` again, and its workspace.
 */
export function geminiHome(
  which: 'gemini-home' | 'gemini-home-before-restore',
  workspaceFolder: string,
  fixture: 'gemini-cli' | 'gemini-compress' | 'gemini-compress-auto' = 'gemini-cli'
): ToolHome & { chats: string[] } {
  const b = base('gemini')
  const cliHome = join(b.base, 'g')
  const toolHome = join(cliHome, '.gemini')
  cpSync(join(TOOL_FIXTURES, fixture, which), toolHome, { recursive: true })
  const shadow = join(toolHome, 'history', 'ws', 'dot-git')
  if (existsSync(shadow)) renameSync(shadow, join(toolHome, 'history', 'ws', '.git'))
  // gemini-compress's run wrote no file: its workspace was left empty
  const workspace = join(TOOL_FIXTURES, fixture, workspaceFolder)
  if (existsSync(workspace)) cpSync(workspace, b.workspace, { recursive: true })
  else mkdirSync(b.workspace)
  rewrite(toolHome, recorded(fixture), b.workspace, /(\.jsonl|\.json|\.project_root)$/)
  const chatDir = join(toolHome, 'tmp', 'ws', 'chats')
  return {
    ...b,
    toolHome,
    ran: b.workspace,
    chats: readdirSync(chatDir)
      .sort()
      .map((f) => join(chatDir, f)),
    env: { GEMINI_CLI_HOME: cliHome, REWIND_STUDIO_HOME: b.home }
  }
}

/**
 * The OpenCode runs of test/fixtures/opencode: the `edits` scenario (its top folder), `task`,
 * whose sub-agents ran as child sessions (its task/ folder; make/make.sh OUT task), and
 * `compact`, which OpenCode compacted on its own (compact/).
 */
export type OpenCodeRun = 'opencode' | 'opencode/task' | 'opencode/compact' | 'opencode/nested'

/** OpenCode's data home ($XDG_DATA_HOME/opencode): its database unzipped, its snapshots. */
export function openCodeHome(
  workspaceFolder: string,
  run: OpenCodeRun = 'opencode'
): ToolHome & { db: string } {
  const b = base('opencode')
  const xdg = join(b.base, 'xdg')
  const toolHome = join(xdg, 'opencode')
  cpSync(join(TOOL_FIXTURES, run, 'opencode-data'), toolHome, { recursive: true })
  const db = join(toolHome, 'opencode.db')
  writeFileSync(db, gunzipSync(readFileSync(`${db}.gz`)))
  cpSync(join(TOOL_FIXTURES, run, workspaceFolder), b.workspace, { recursive: true })
  return {
    ...b,
    toolHome,
    db,
    ran: recorded(run),
    env: { XDG_DATA_HOME: xdg, REWIND_STUDIO_HOME: b.home }
  }
}

/** A folder's files and their contents (what a restore is compared by). */
export function contents(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')])
  )
}

interface ExportedSession {
  info: { id: string; projectID: string; directory: string }
  messages: {
    info: { id: string; role?: string }
    parts: ({ id: string } & Record<string, unknown>)[]
  }[]
}

/** The real sessions OpenCode exported (export-<id>.json): the first, and its fork. */
export const OPENCODE_FIRST = 'ses_dcbdb4ef9ffewnZlETLnMy6hQS'
export const OPENCODE_FORK = 'ses_dcbda7f43ffeEmQyDZegIgADxx'
/** The `task` run's session, and the child sessions its two task calls started, by call. */
export const OPENCODE_TASKS = 'ses_dc534c336ffemFKiONsBx0ObVM'
export const OPENCODE_NOTES_AGENT = 'ses_dc534ba81ffet3IasXAxFrYmUw'
export const OPENCODE_TODO_AGENT = 'ses_dc534ba38ffeeNMoWURF6FjQoQ'
/** The `compact` run's session. */
export const OPENCODE_COMPACTED = 'ses_dc51e9087ffeaiU9Mhi2yenV56'

/**
 * OpenCode's data home in the JSON storage its versions before the database wrote (the same
 * objects as its export: storage/session/<project>/<ses>.json, message/<ses>/<msg>.json,
 * part/<msg>/<prt>.json), laid out from the real export of a session (the first by default), as
 * if it had run in `workspace`, with the real snapshots beside it. `write(m)` writes one message
 * with its parts from a child process, parts first, each file whole, as OpenCode writes them.
 */
export function openCodeJsonHome(
  workspace: string,
  dataHome: string,
  session = OPENCODE_FIRST,
  run: OpenCodeRun = 'opencode'
) {
  const exported = JSON.parse(
    readFileSync(join(TOOL_FIXTURES, run, `export-${session}.json`), 'utf8')
      .split(recorded(run))
      .join(workspace)
  ) as ExportedSession
  const snapshots = join(dataHome, 'snapshot')
  if (!existsSync(snapshots)) {
    cpSync(join(TOOL_FIXTURES, run, 'opencode-data', 'snapshot'), snapshots, {
      recursive: true
    })
  }
  const storage = join(dataHome, 'storage')
  const sessionFile = join(storage, 'session', exported.info.projectID, `${exported.info.id}.json`)
  mkdirSync(dirname(sessionFile), { recursive: true })
  writeFileSync(sessionFile, JSON.stringify(exported.info))
  const write = (m: ExportedSession['messages'][number]) => {
    const files: [string, string][] = [
      ...m.parts.map((p): [string, string] => [
        join(storage, 'part', m.info.id, `${p.id}.json`),
        JSON.stringify(p)
      ]),
      [join(storage, 'message', exported.info.id, `${m.info.id}.json`), JSON.stringify(m.info)]
    ]
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        'const fs=require("fs"),p=require("path");for(const [f,t] of JSON.parse(process.argv[1])){fs.mkdirSync(p.dirname(f),{recursive:true});fs.writeFileSync(f,t)}',
        JSON.stringify(files)
      ],
      { encoding: 'utf8' }
    )
    if (child.status !== 0) throw new Error(child.stderr)
  }
  /** Where the second prompt starts: its user message. */
  const secondTurn = exported.messages.findIndex((m, i) => i > 0 && m.info.role === 'user')
  return {
    sessionFile,
    sessionId: exported.info.id,
    messages: exported.messages,
    secondTurn,
    write
  }
}
