// Where session logs live: $REWIND_STUDIO_HOME/sessions/<workspace folder>/<ISO time>_<uuidv7>.jsonl,
// the workspace folder being workspaceFolder(cwd). Sessions written before it are in
// sessions/<encoded cwd>/ (legacyWorkspaceFolders), which is still read.
import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

export function rewindStudioHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.REWIND_STUDIO_HOME
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(homedir(), '.rewind-studio')
}

/**
 * The demo workspace, a copy of demo/workspace (launch.ts): the one folder inside the data home
 * that may be a workspace (workspace-root.ts).
 */
export function demoWorkspaceDir(home: string): string {
  return join(home, 'demo-workspace')
}

/**
 * Where the parallel runs of a workspace's sessions live (core/parallel): one folder per run,
 * `<runs>/<run id>/`, holding its manifest, its own session log and its workspace (`work/`).
 */
export function runsDir(home: string, cwd: string): string {
  return join(home, 'runs', workspaceFolder(cwd))
}

/** The folder a run's agent works in: the only workspace inside the data home but the demo's. */
export const RUN_WORKSPACE_NAME = 'work'

/** Claude Code's folder name for a path: every character other than [A-Za-z0-9] becomes '-'. */
export function encodeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-')
}

/** The absolute path through symlinks; as given (made absolute) when it does not exist. */
export function realPathOf(path: string): string {
  const abs = resolve(path)
  try {
    return realpathSync(abs)
  } catch {
    return abs
  }
}

/** Longest encoded path kept in a folder name: with the hash it stays under 255 characters. */
const MAX_ENCODED_CHARS = 200

/**
 * The folder (under sessions/ and under file-history/) of a workspace: its encoded real path,
 * '-', and 8 hex digits of the real path's sha256. The encoding alone loses characters ('-',
 * '_', '.', ' ' and '/' all become '-'), so /x/a-b and /x/a/b once shared one folder and a
 * session of one was opened for the other; the hash tells them apart, the encoded part keeps
 * the folder recognisable (and is cut where a long path would pass the file name limit: the
 * hash still tells those apart). Of the real path, so a workspace reached through a symlink has
 * one folder. 32 bits: two workspaces would need to clash on the encoding and the hash, and
 * even then listing checks each session header's cwd.
 */
export function workspaceFolder(cwd: string): string {
  const real = realPathOf(cwd)
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 8)
  return `${encodeCwd(real).slice(0, MAX_ENCODED_CHARS)}-${hash}`
}

/**
 * The folders earlier versions used for this workspace (its encoded path alone, as given and
 * through symlinks), shared by every workspace whose path encodes the same: still read.
 */
export function legacyWorkspaceFolders(cwd: string): string[] {
  return [...new Set([encodeCwd(resolve(cwd)), encodeCwd(realPathOf(cwd))])]
}

/** Where new sessions of the workspace go. */
export function sessionsDir(home: string, cwd: string): string {
  return join(home, 'sessions', workspaceFolder(cwd))
}

/**
 * Whether `file` lies in a folder where sessions of workspace `cwd` are kept (sessionsDir, or a
 * folder of the old layout, still read),
 * compared through realpath. Only there does a session file's header say where it ran: a file
 * from anywhere else says whatever its author wrote, `"cwd": "/"` included.
 */
export function isSessionFileOf(home: string, file: string, cwd: string): boolean {
  let folder: string
  try {
    folder = dirname(realpathSync.native(file))
  } catch {
    return false
  }
  const sessions = join(home, 'sessions')
  return [workspaceFolder(cwd), ...legacyWorkspaceFolders(cwd)].some((name) => {
    try {
      return folder === realpathSync.native(join(sessions, name))
    } catch {
      return false
    }
  })
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
