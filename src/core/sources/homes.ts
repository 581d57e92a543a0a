// Where each tool keeps its sessions. Ours is the data home; the others are read, never written:
//
//   source         home (first that is set)                                  sessions
//   rewind-studio  $REWIND_STUDIO_HOME, ~/.rewind-studio                     <home>/sessions/<workspace folder>/*.jsonl
//   claude-code    $REWIND_STUDIO_CLAUDE_HOME, $CLAUDE_CONFIG_DIR,           <home>/projects/<encoded cwd>/*.jsonl
//                  settings sources.claudeCodeHome, ~/.claude
//   pi             $REWIND_STUDIO_PI_HOME, $PI_CODING_AGENT_DIR,             <home>/sessions/--<cwd, / as ->--/*.jsonl
//                  settings sources.piHome, ~/.pi/agent
//   oh-my-pi       $REWIND_STUDIO_OMP_HOME, settings sources.ohMyPiHome,     <home>/sessions/<encoded cwd>/*.jsonl
//                  ~/.omp/agent
//
// The environment wins over settings: our own variable first, then the one the tool itself reads
// (so a Claude Code run with CLAUDE_CONFIG_DIR=X is found where it wrote).
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { SessionSource } from '../../shared/views'
import { readSettings } from '../settings'

export type { SessionSource }

export type SourceHomes = Record<SessionSource, string>

/** The folder under a source's home whose sub-folders (one per project) hold its session files. */
export const SESSIONS_FOLDER: Record<SessionSource, string> = {
  'rewind-studio': 'sessions',
  'claude-code': 'projects',
  pi: 'sessions',
  'oh-my-pi': 'sessions'
}

export function sourceHomes(home: string, env: NodeJS.ProcessEnv = process.env): SourceHomes {
  const settings = readSettings(home).sources ?? {}
  const first = (...values: (string | undefined)[]) =>
    resolve(values.find((v) => v !== undefined && v !== '') ?? '')
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
      settings.ohMyPiHome,
      join(homedir(), '.omp', 'agent')
    )
  }
}

/** Where a source's project folders are. */
export function sessionsRoot(homes: SourceHomes, source: SessionSource): string {
  return join(homes[source], SESSIONS_FOLDER[source])
}
