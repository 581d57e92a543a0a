// Which session files belong to a workspace, found without opening them: only each file's first
// line (its header) is read, so listing a workspace of long sessions costs a few bytes a session.
//
// A session is listed for a workspace only when its header's cwd is that workspace (real paths
// compared), whichever folder it is in: the workspace's own folder (paths.ts workspaceFolder) or
// the older one named by the encoded path alone, which every workspace whose path encodes the
// same shares. A session of another workspace there is not listed, so it is never opened here.
// A file with no usable header (empty: a crash between creating it and writing the header) is
// listed with its problem, so it can be shown; everything that reads sessions skips it.
import { closeSync, readdirSync, readSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openRegularFile } from '../os/read-regular-file'
import { legacyWorkspaceFolders, parseSessionFileName, realPathOf, workspaceFolder } from './paths'
import { emptyFileMessage } from './problems'
import type { SessionHeader } from './records'
import { sessionHeaderOf } from './tree'

export interface SessionListing {
  file: string
  sessionId: string
  createdAt: string
  /** Why the file cannot be opened as a session (empty, no header); null for a session. */
  problem: string | null
}

/** A session file of a folder with its header's cwd (null when it has no usable header). */
export interface FolderListing extends SessionListing {
  cwd: string | null
}

/** The workspace's sessions in both layouts, oldest first, with the files that are none. */
export function listWorkspaceSessions(home: string, cwd: string): SessionListing[] {
  const real = realPathOf(cwd)
  const realOf = new Map<string, string>()
  const belongs = (headerCwd: string) => {
    let resolved = realOf.get(headerCwd)
    if (resolved === undefined) {
      resolved = realPathOf(headerCwd)
      realOf.set(headerCwd, resolved)
    }
    return resolved === real
  }
  const folders = [...new Set([workspaceFolder(cwd), ...legacyWorkspaceFolders(cwd)])]
  return folders
    .flatMap((folder) => listSessionFolder(join(home, 'sessions', folder)))
    .filter((listing) => listing.cwd === null || belongs(listing.cwd))
    .map(({ file, sessionId, createdAt, problem }) => ({ file, sessionId, createdAt, problem }))
    .sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.file, b.file))
}

/** The workspace's most recently written session (for --continue), or null. */
export function latestSessionFile(home: string, cwd: string): string | null {
  let best: { file: string; mtime: number } | null = null
  for (const { file, problem } of listWorkspaceSessions(home, cwd)) {
    if (problem !== null) continue
    const mtime = statSync(file).mtimeMs
    if (best === null || mtime >= best.mtime) best = { file, mtime }
  }
  return best?.file ?? null
}

/**
 * A session of the workspace by id or unique id prefix (for --resume), or null. A file that
 * is no session is found too, so opening it says why it cannot be opened.
 */
export function findSessionFile(home: string, cwd: string, id: string): string | null {
  if (id === '') throw new Error('A session id is needed')
  const sessions = listWorkspaceSessions(home, cwd)
  const exact = sessions.find((s) => s.sessionId === id)
  if (exact !== undefined) return exact.file
  const matches = sessions.filter((s) => s.sessionId.startsWith(id))
  if (matches.length > 1) {
    throw new Error(
      `Session id "${id}" is ambiguous: ${matches.length} sessions start with it (${matches.map((m) => m.sessionId).join(', ')})`
    )
  }
  return matches[0]?.file ?? null
}

/** Every session file in one folder, whatever workspace its header names, oldest first. */
export function listSessionFolder(dir: string): FolderListing[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return names
    .flatMap((name) => {
      const parsed = parseSessionFileName(name)
      if (parsed === null) return []
      const file = join(dir, name)
      const header = readSessionHeaderOrWhy(file)
      return [
        'problem' in header
          ? { file, ...parsed, cwd: null, problem: header.problem }
          : { file, ...parsed, cwd: header.header.cwd, problem: null }
      ]
    })
    .sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.file, b.file))
}

/** A header line longer than this is no header of ours (a path is at most a few KB). */
const MAX_HEADER_BYTES = 64 * 1024

/** The session header on the file's first line, or why there is none. */
export function readSessionHeader(file: string): { header: SessionHeader } | { problem: string } {
  const line = firstLine(file)
  if (line.bytes === 0) return { problem: emptyFileMessage(0) }
  if (line.text === null) {
    return { problem: `line 1 is no session header (over ${MAX_HEADER_BYTES} bytes)` }
  }
  let value: unknown
  try {
    value = JSON.parse(line.text)
  } catch {
    return { problem: 'line 1 is no session header (not JSON, or cut off)' }
  }
  const header = sessionHeaderOf(value)
  return header === null ? { problem: 'line 1 is no Rewind Studio session header' } : { header }
}

/** readSessionHeader, with a file that cannot be read (permissions, a folder) as its problem. */
function readSessionHeaderOrWhy(file: string): { header: SessionHeader } | { problem: string } {
  try {
    return readSessionHeader(file)
  } catch (error) {
    return { problem: `cannot be read: ${(error as Error).message}` }
  }
}

/** The text before the first '\n' (null when longer than the cap) and the bytes read. */
function firstLine(file: string): { text: string | null; bytes: number } {
  const { fd } = openRegularFile(file)
  try {
    const chunk = Buffer.alloc(4096)
    const parts: Buffer[] = []
    let bytes = 0
    while (bytes <= MAX_HEADER_BYTES) {
      const n = readSync(fd, chunk, 0, chunk.length, bytes)
      if (n === 0) break
      const nl = chunk.subarray(0, n).indexOf(10)
      parts.push(Buffer.from(chunk.subarray(0, nl === -1 ? n : nl)))
      bytes += n
      if (nl !== -1) return { text: Buffer.concat(parts).toString('utf8'), bytes }
    }
    return { text: bytes > MAX_HEADER_BYTES ? null : Buffer.concat(parts).toString('utf8'), bytes }
  } finally {
    closeSync(fd)
  }
}

function compare(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1
}
