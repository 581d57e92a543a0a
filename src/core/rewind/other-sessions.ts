// What the workspace's other sessions changed: a rewind must not clobber a file another session
// changed after this one last did (gemini-cli #20855, opencode #5910). Read from the session index
// (core/sources): each session's changed paths are kept beside its summary (in a cache of their
// own, which the session list never reads), so only a log that changed since it was last
// summarized is read (of one that grew, only its new lines), read-only, so a session open in
// another process is read without disturbing it.
import type { FileChangeRecord } from '../session/records'
import type { SessionTree } from '../session/tree'
import type { Sources } from '../sources/discovery'

/**
 * For each path: the latest time (ISO) another session of the workspace changed it. A fork's
 * copy of a change (`copyOf`, session/fork.ts) is no change the fork made: the index leaves it out.
 */
export function otherSessionsChanges(
  sources: Sources,
  cwd: string,
  ownSessionId: string,
  /** Sessions whose file was last written before this (ms) cannot hold a later change. */
  sinceMs: number
): Map<string, string> {
  const latest = new Map<string, string>()
  // Left out before they are read: this session (its summary would be made again after each of
  // its appends), and sessions whose file was last written before `sinceMs`.
  const others = sources.ourSessions(
    cwd,
    ({ sessionId, stamp }) => sessionId !== ownSessionId && stamp.mtimeMs >= sinceMs
  )
  // A file with no header (empty) holds no change; the listing says why it is none.
  const sessions = others.filter((session) => session.problem === null)
  for (const changed of sources.index.changedPaths(sessions)) {
    for (const [path, at] of Object.entries(changed)) {
      const known = latest.get(path)
      if (known === undefined || at > known) latest.set(path, at)
    }
  }
  return latest
}

/**
 * Every file_change record of the session, on every branch: the turns' (turnChangeRecords), then
 * those earlier versions wrote for restores (tree.restoreChanges: no turn's, but what the session
 * did to the disk, and blobs its log names).
 */
export function fileChangeRecords(tree: SessionTree): FileChangeRecord[] {
  return [...turnChangeRecords(tree), ...tree.restoreChanges()]
}

/** What the session's turns changed, on every branch, grouped by checkpoint. */
export function turnChangeRecords(tree: SessionTree): FileChangeRecord[] {
  const checkpoints = new Set<string>()
  for (const record of tree.records) {
    const r = record as { type?: unknown; checkpointUuid?: unknown } | null
    if (r?.type === 'file_change' && typeof r.checkpointUuid === 'string') {
      checkpoints.add(r.checkpointUuid)
    }
  }
  return [...checkpoints].flatMap((uuid) => tree.fileChanges(uuid))
}
