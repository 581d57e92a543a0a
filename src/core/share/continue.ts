// Continue from here and Fork on a node of a pulled session: a session of one's own, in this
// workspace's sessions folder, holding the path to that node (session/fork.ts writeFork), and,
// when asked, the node's files restored from the shared backups through the rewind engine (the
// same preview, journal and undo as any restore; studio/fork-at-node.ts says the order).
//
// Which files, and to what: the files the path's turns changed, each as the node left it (the
// `after` of its latest change on the way root → node). This is a move from "before the
// session" to the node, not from the sharer's leaf: this machine's files were never at the
// sharer's leaf, so the changes the node shares with it must be written too. Files the session
// changed only on other branches are left alone (the fork knows nothing of them). Each record's
// path is checked as any restore checks it: a path outside the workspace or in a `.git` refuses
// the whole restore, naming the record, before anything is read or written.
import type { BlobStore } from '../files/blob-store'
import { blobContent } from '../rewind/content-source'
import { fileTargets } from '../rewind/file-targets'
import type { RewindEngine, RewindPlan } from '../rewind/rewind-engine'
import { sessionsDir } from '../session/paths'
import { writeFork } from '../session/fork'
import type { SessionStore } from '../session/store'

/** The fork of a pulled session at `atUuid`, among this workspace's own sessions. */
export function forkPulled(home: string, pulled: SessionStore, atUuid: string): SessionStore {
  return writeFork(home, pulled, atUuid, sessionsDir(home, pulled.cwd), true)
}

/**
 * The restore of the node's files, planned as a switch of `pulled` to `atUuid` (so a fork files
 * it as its own switch: studio/fork-at-node.ts restoreInFork), its content from `blobs` (the workspace's
 * file history, where the pull put the shared backups).
 */
export async function planPulledRestore(
  engine: RewindEngine,
  blobs: BlobStore,
  pulled: Pick<SessionStore, 'tree' | 'leafUuid'>,
  atUuid: string
): Promise<RewindPlan> {
  const tree = pulled.tree()
  const planned = await engine.planExternalRestore(
    atUuid,
    fileTargets(tree, null, atUuid),
    blobContent(blobs)
  )
  // The content is in our own store already: nothing to copy in at the apply.
  const { source: _ours, ...plan } = planned
  const messagesKept = tree
    .pathTo(atUuid)
    .filter((r) => r.type === 'user' || r.type === 'assistant').length
  return {
    ...plan,
    kind: 'switch-branch',
    checkpointUuid: null,
    mode: null,
    leafBefore: pulled.leafUuid,
    leafAfter: atUuid,
    messagesKept,
    preview: { ...plan.preview, messagesKept }
  }
}
