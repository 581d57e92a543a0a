// Fork: a new session holding the path from a root to one node of another session, written
// through the session store (never by copying bytes), so the copy is checked as any append is.
//
// What the fork holds, in one append after its header:
//   1. the conversation nodes on the path, under their own uuids: a node means the same thing
//      in both files (forkedFrom.leafUuid, a summary's fromId, a file change's checkpointUuid
//      still name it), each the child of the one before;
//   2. the file_change records of the path's turns, so a rewind in the fork restores what those
//      turns changed, from the workspace's file history, which the fork shares with its origin
//      because it is created in the origin's sessions folder. Each copy is a record of the fork
//      (its uuid, the fork's time) naming the record it copies (`copyOf`): the fork took the
//      files over when it was made, and the origin does not count a copy as another session's
//      change (rewind/other-sessions.ts), while a change the fork really makes later counts;
//   3. the labels of the path's nodes.
// Leaf moves (rewind, navigate) and everything on other branches stay behind: the fork's leaf is
// the node it was made at. The workspace's files are not touched here (see studio/fork-at-node.ts for
// restoring that node's state). The fork appears whole or not at all (create's `fill`): a
// process killed while writing it leaves no session behind.
import { dirname } from 'node:path'
import { CodedError, NotFoundError } from '../../shared/coded-error'
import { isSessionFileOf } from './paths'
import type { FileChangeRecord } from './records'
import { SessionStore } from './store'
import { type SessionTree, type TreeRecord, isPrompt } from './tree'

/** The records a fork of `tree` at `atUuid` copies. */
export interface ForkCopy {
  nodes: TreeRecord[]
  fileChanges: FileChangeRecord[]
  labels: { targetUuid: string; label: string }[]
}

export function forkCopy(tree: SessionTree, atUuid: string): ForkCopy {
  const nodes = tree.pathTo(atUuid)
  const fileChanges = nodes.filter(isPrompt).flatMap((prompt) => tree.fileChanges(prompt.uuid))
  const labels = tree.labels()
  return {
    nodes,
    fileChanges,
    labels: nodes.flatMap((node) => {
      const label = labels.get(node.uuid)
      return label === undefined ? [] : [{ targetUuid: node.uuid, label }]
    })
  }
}

/** What a fork reads of its origin (opened read-only is enough: the origin is not written). */
export type ForkOrigin = Pick<SessionStore, 'file' | 'sessionId' | 'cwd' | 'tree'>

/**
 * Creates the fork of `origin` at node `atUuid` beside the origin's file, holding the writer
 * lock (the caller closes it). A failure, or a crash, leaves no fork behind.
 */
export function forkSession(home: string, origin: ForkOrigin, atUuid: string): SessionStore {
  requireNode(origin, atUuid)
  if (!isSessionFileOf(home, origin.file, origin.cwd)) {
    // The fork goes beside its origin, to share its backups: only in a sessions folder of the
    // workspace the header names (a file from anywhere else says whatever its author wrote).
    throw new CodedError(
      'conflict',
      `${origin.file} is not in the sessions folder of the workspace its header names (${origin.cwd}): nothing was forked.`
    )
  }
  return writeFork(home, origin, atUuid, dirname(origin.file))
}

/**
 * The fork of `origin` at `atUuid`, created in the sessions folder `dir` (one whose file history
 * holds the backups the copied records name: forkSession's, or a pulled session's workspace).
 * Staged and renamed into place whole (SessionStore.create's fill): a crash leaves no fork.
 * `fromElsewhere`: the origin's records were written on another machine (a pulled session), so
 * the folders they say they made are that machine's: here a rewind past them would remove a
 * user's empty folder of that name. Their copies name none (the folders the fork's own restore
 * makes are its journal's, which its undo removes).
 */
export function writeFork(
  home: string,
  origin: ForkOrigin,
  atUuid: string,
  dir: string,
  fromElsewhere = false
): SessionStore {
  requireNode(origin, atUuid)
  const copied = forkCopy(origin.tree(), atUuid)
  const copy = fromElsewhere
    ? {
        ...copied,
        fileChanges: copied.fileChanges.map(({ createdFolders: _theirs, ...change }) => change)
      }
    : copied
  return SessionStore.create({
    home,
    cwd: origin.cwd,
    dir,
    forkedFrom: { sessionId: origin.sessionId, leafUuid: atUuid, file: origin.file },
    fill: (fork) => fork.appendCopied(copy)
  })
}

function requireNode(origin: ForkOrigin, atUuid: string): void {
  if (origin.tree().get(atUuid) === undefined) {
    throw new NotFoundError(`No message ${atUuid} in ${origin.file}: nothing was forked.`)
  }
}
