// Where session logs live: $REWIND_STUDIO_HOME/sessions/<encoded cwd>/<ISO time>_<uuidv7>.jsonl.
// The encoding is Claude Code's (every character other than [A-Za-z0-9] becomes '-'), so a
// workspace's folder name is predictable from its path and safe on every file system.
import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

export function rewindStudioHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.REWIND_STUDIO_HOME
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(homedir(), '.rewind-studio')
}

export function encodeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-')
}

export function sessionsDir(home: string, cwd: string): string {
  return join(home, 'sessions', encodeCwd(cwd))
}

/**
 * Whether `file` lies in the folder where sessions of workspace `cwd` are kept (sessionsDir),
 * compared through realpath. Only there does a session file's header say where it ran: a file
 * from anywhere else says whatever its author wrote, `"cwd": "/"` included.
 */
export function isSessionFileOf(home: string, file: string, cwd: string): boolean {
  try {
    return dirname(realpathSync.native(file)) === realpathSync.native(sessionsDir(home, cwd))
  } catch {
    return false
  }
}

/** `2026-01-02T03:04:05.678Z` → `2026-01-02T03-04-05-678Z_<id>.jsonl` (no ':' for Windows). */
export function sessionFileName(createdAt: string, sessionId: string): string {
  return `${createdAt.replace(/[:.]/g, '-')}_${sessionId}.jsonl`
}

const FILE_NAME = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_([0-9a-f-]+)\.jsonl$/

/** The creation time and session id a session file's name holds, or null for any other file. */
export function parseSessionFileName(
  name: string
): { createdAt: string; sessionId: string } | null {
  const m = FILE_NAME.exec(name)
  if (m === null) return null
  const [, day, hh, mm, ss, ms, sessionId] = m
  return { createdAt: `${day}T${hh}:${mm}:${ss}.${ms}Z`, sessionId: sessionId ?? '' }
}
