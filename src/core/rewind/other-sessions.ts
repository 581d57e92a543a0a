// What the workspace's other sessions changed: a rewind must not clobber a file another session
// changed after this one last did (gemini-cli #20855, opencode #5910). Read from their logs,
// read-only, so a session open in another process is read without disturbing it.
import { statSync } from 'node:fs'
import type { FileChangeRecord } from '../session/records'
import { SessionStore } from '../session/store'
import type { SessionTree } from '../session/tree'

/**
 * For each path: the latest time (ISO) another session of the workspace changed it. A fork's
 * copy of a change (`copyOf`, session/fork.ts) is no change the fork made: it does not count.
 */
export function otherSessionsChanges(
  home: string,
  cwd: string,
  ownSessionId: string,
  /** Sessions whose file was last written before this (ms) cannot hold a later change. */
  sinceMs: number
): Map<string, string> {
  const latest = new Map<string, string>()
  for (const listing of SessionStore.list(home, cwd)) {
    // A file with no header (empty) holds no change; the listing says why it is none.
    if (listing.sessionId === ownSessionId || listing.problem !== null) continue
    if (statSync(listing.file).mtimeMs < sinceMs) continue
    const store = SessionStore.open(listing.file, { readOnly: true })
    try {
      for (const record of fileChangeRecords(store.tree())) {
        if (record.copyOf !== undefined) continue
        const known = latest.get(record.path)
        if (known === undefined || record.timestamp > known)
          latest.set(record.path, record.timestamp)
      }
    } finally {
      store.close()
    }
  }
  return latest
}

/** The session's file_change records on every branch, grouped by checkpoint. */
export function fileChangeRecords(tree: SessionTree): FileChangeRecord[] {
  const checkpoints = new Set<string>()
  for (const record of tree.records) {
    const r = record as { type?: unknown; checkpointUuid?: unknown } | null
    if (r?.type === 'file_change' && typeof r.checkpointUuid === 'string') {
      checkpoints.add(r.checkpointUuid)
    }
  }
  return [...checkpoints].flatMap((uuid) => tree.fileChanges(uuid))
}
