// The Claude Code sessions made for these tests (test/fixtures/claude-code, SOURCES.md there), copied
// into temp folders as a Claude home, a workspace and a data home, and the variants the real CLI
// cannot make, synthesized from them: a compaction whose logical parent is missing, a snapshot
// naming a path outside the workspace.
import { createHash } from 'node:crypto'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { encodeCwd } from '../../src/core/session/paths'

export const FIXTURES = resolve(import.meta.dirname, '../fixtures/claude-code')

export type FixtureName =
  | 'rewind-parallel'
  | 'compact-subagents'
  | 'nested-subagents'
  | 'subagents-progress-2.1.63'
  | 'fork-session-subagents'

export interface FixtureCopy {
  /** A Claude home holding the session's projects/ and file-history/ folders. */
  claudeHome: string
  /** The transcript, in <claudeHome>/projects/<encoded cwd>/. */
  file: string
  sessionId: string
  /** A copy of the workspace as Claude Code left it. */
  workspace: string
  /** Our data home. */
  home: string
  env: Record<string, string>
}

/** Folders the run left empty in its workspace (its rewind deleted the notes, not their folder). */
const EMPTY_FOLDERS: Record<FixtureName, string[]> = {
  'rewind-parallel': ['notes'],
  'compact-subagents': [],
  'nested-subagents': [],
  'subagents-progress-2.1.63': [],
  'fork-session-subagents': []
}

export function copyFixture(name: FixtureName): FixtureCopy {
  const base = mkdtempSync(join(tmpdir(), `rs-cc-${name}-`))
  const claudeHome = join(base, 'claude')
  const workspace = join(base, 'ws')
  cpSync(join(FIXTURES, name, 'claude'), claudeHome, { recursive: true })
  cpSync(join(FIXTURES, name, 'workspace-after'), workspace, { recursive: true })
  // Git keeps no empty folder: the ones Claude Code's run left empty are made again here.
  for (const folder of EMPTY_FOLDERS[name]) mkdirSync(join(workspace, folder), { recursive: true })
  const projects = join(claudeHome, 'projects')
  const folder = join(projects, readdirSync(projects)[0] ?? '')
  const transcript = readdirSync(folder).find((f) => f.endsWith('.jsonl')) ?? ''
  const home = join(base, 'rs')
  return {
    claudeHome,
    file: join(folder, transcript),
    sessionId: transcript.replace(/\.jsonl$/, ''),
    workspace,
    home,
    env: { CLAUDE_CONFIG_DIR: claudeHome, REWIND_STUDIO_HOME: home }
  }
}

/**
 * The session as if it had run in the copy of its workspace: every record's cwd and every path in
 * it (tool inputs and results) say so, and the transcript (with its sub-agent folder) is where
 * Claude Code keeps the sessions of that folder.
 */
export function relocateToWorkspace(cc: FixtureCopy): FixtureCopy {
  const workspace = realpathSync(cc.workspace)
  const folder = join(cc.claudeHome, 'projects', encodeCwd(workspace))
  mkdirSync(folder, { recursive: true })
  const moved = join(folder, basename(cc.file))
  const ran = readLines(cc.file).find((r) => typeof r.cwd === 'string')?.cwd as string | undefined
  const rewrite = (from: string, to: string) => {
    writeLines(
      to,
      readLines(from).map((r) =>
        ran === undefined
          ? r
          : (JSON.parse(JSON.stringify(r).split(ran).join(workspace)) as unknown)
      )
    )
    if (from !== to) rmSync(from)
  }
  rewrite(cc.file, moved)
  const sidecars = cc.file.replace(/\.jsonl$/, '')
  try {
    renameSync(sidecars, moved.replace(/\.jsonl$/, ''))
    const dir = join(moved.replace(/\.jsonl$/, ''), 'subagents')
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')))
      rewrite(join(dir, name), join(dir, name))
  } catch {
    // No sub-agent folder in this session.
  }
  rmSync(dirname(cc.file), { recursive: true, force: true })
  return { ...cc, file: moved, workspace }
}

/** Every file under `dir` with its sha256: to show a folder was only read. */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }
  walk(dir)
  return out
}

/** The transcript's lines as JSON objects. */
export function readLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

export function writeLines(file: string, lines: readonly unknown[]): void {
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
}

/** What Claude Code sent the model right after a prompt (model-request.json). */
export function modelRequest(name: FixtureName): { prompt: string; messages: ApiMessage[] } {
  return JSON.parse(readFileSync(join(FIXTURES, name, 'model-request.json'), 'utf8')) as {
    prompt: string
    messages: ApiMessage[]
  }
}

export interface ApiMessage {
  role: string
  content: unknown
}

/**
 * The conversation of a Messages request, without what the harness adds on its own: Claude Code's
 * <system-reminder> blocks (attachments, context), cache_control marks, and the newline Claude
 * Code puts after each text of the user messages it merges into one (the log holds the text
 * without it; we send it as logged). Consecutive messages of one role are merged, as the API
 * reads them.
 */
export function conversationOf(messages: readonly ApiMessage[]): ApiMessage[] {
  const out: { role: string; content: unknown[] }[] = []
  for (const m of messages) {
    const blocks = (
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content
    ) as Record<string, unknown>[]
    const kept = blocks
      .filter(
        (b) => !(b.type === 'text' && String(b.text).trimStart().startsWith('<system-reminder>'))
      )
      .map((b) => Object.fromEntries(Object.entries(b).filter(([key]) => key !== 'cache_control')))
      .map((b) => (b.type === 'text' ? { ...b, text: String(b.text).replace(/\n$/, '') } : b))
    if (kept.length === 0) continue
    const last = out.at(-1)
    if (last !== undefined && last.role === m.role) last.content.push(...kept)
    else out.push({ role: m.role, content: kept })
  }
  return out
}
