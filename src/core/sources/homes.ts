// Where each tool keeps its sessions, found as the tool finds it. Ours is the data home; the others
// are read, never written:
//
//   source       home (first that is set)                           sessions
//   rewind-      $REWIND_STUDIO_HOME, ~/.rewind-studio                <home>/sessions/<workspace folder>/*.jsonl
//     studio
//   claude-code  $REWIND_STUDIO_CLAUDE_HOME, $CLAUDE_CONFIG_DIR,      <home>/projects/<encoded cwd>/*.jsonl
//                settings sources.claudeCodeHome, ~/.claude
//   pi           $REWIND_STUDIO_PI_HOME, $PI_CODING_AGENT_DIR,        <home>/sessions/--<cwd, / as ->--/*.jsonl
//                settings sources.piHome, ~/.pi/agent
//   oh-my-pi     $REWIND_STUDIO_OMP_HOME, $OMP_CODING_AGENT_DIR,      <home>/sessions/<encoded cwd>/*.jsonl
//                settings sources.ohMyPiHome, ~/.omp/agent
//   codex        $REWIND_STUDIO_CODEX_HOME, $CODEX_HOME,              <home>/sessions/YYYY/MM/DD/rollout-*.jsonl
//                settings sources.codexHome, ~/.codex                 (and archived_sessions/): by date, any cwd
//   gemini-cli   $REWIND_STUDIO_GEMINI_HOME, $GEMINI_CLI_HOME/.gemini, <home>/tmp/<project>/chats/*.jsonl, the
//                settings sources.geminiHome, ~/.gemini               project's root in tmp/<project>/.project_root
//   opencode     $REWIND_STUDIO_OPENCODE_HOME, $XDG_DATA_HOME/opencode, <home>/opencode.db ($OPENCODE_DB names
//                settings sources.openCodeHome, ~/.local/share/opencode another): one database of every session
//
// The environment wins over settings: our own variable first, then the one the tool itself reads
// (so a Claude Code run with CLAUDE_CONFIG_DIR=X is found where it wrote).
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import type { SessionSource } from '../../shared/views'
import { readSettings } from '../settings'

export type { SessionSource }

export type SourceHomes = Record<SessionSource, string>

/** The folder under a source's home that its sessions (or their project folders) are in. */
export const SESSIONS_FOLDER: Record<SessionSource, string> = {
  'rewind-studio': 'sessions',
  'claude-code': 'projects',
  pi: 'sessions',
  'oh-my-pi': 'sessions',
  codex: 'sessions',
  'gemini-cli': 'tmp',
  opencode: '.'
}

export function sourceHomes(home: string, env: NodeJS.ProcessEnv = process.env): SourceHomes {
  const settings = readSettings(home).sources ?? {}
  const first = (...values: (string | undefined)[]) =>
    resolve(values.find((v) => v !== undefined && v !== '') ?? '')
  const under = (base: string | undefined, ...parts: string[]) =>
    base === undefined || base === '' ? undefined : join(base, ...parts)
  // XDG: a relative $XDG_DATA_HOME is to be ignored (the spec), as OpenCode's xdg-basedir does.
  const xdgData =
    env.XDG_DATA_HOME !== undefined && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined
  return {
    'rewind-studio': resolve(home),
    'claude-code': first(
      env.REWIND_STUDIO_CLAUDE_HOME,
      env.CLAUDE_CONFIG_DIR,
      settings.claudeCodeHome,
      join(homedir(), '.claude')
    ),
    pi: first(
      env.REWIND_STUDIO_PI_HOME,
      env.PI_CODING_AGENT_DIR,
      settings.piHome,
      join(homedir(), '.pi', 'agent')
    ),
    'oh-my-pi': first(
      env.REWIND_STUDIO_OMP_HOME,
      env.OMP_CODING_AGENT_DIR,
      settings.ohMyPiHome,
      join(homedir(), '.omp', 'agent')
    ),
    codex: first(
      env.REWIND_STUDIO_CODEX_HOME,
      env.CODEX_HOME,
      settings.codexHome,
      join(homedir(), '.codex')
    ),
    'gemini-cli': first(
      env.REWIND_STUDIO_GEMINI_HOME,
      under(env.GEMINI_CLI_HOME, '.gemini'),
      settings.geminiHome,
      join(homedir(), '.gemini')
    ),
    opencode: first(
      env.REWIND_STUDIO_OPENCODE_HOME,
      under(xdgData, 'opencode'),
      settings.openCodeHome,
      join(homedir(), '.local', 'share', 'opencode')
    )
  }
}

/** OpenCode's database: $OPENCODE_DB (absolute, or in its home), else `<home>/opencode.db`. */
export function openCodeDatabase(homes: SourceHomes, env: NodeJS.ProcessEnv = process.env): string {
  const named = env.OPENCODE_DB
  if (named === undefined || named === '') return join(homes.opencode, 'opencode.db')
  return isAbsolute(named) ? named : join(homes.opencode, named)
}

/** Where a source's project folders are. */
export function sessionsRoot(homes: SourceHomes, source: SessionSource): string {
  return join(homes[source], SESSIONS_FOLDER[source])
}
