// The files as a node of the session tree left them, computed from the file_change records alone
// (pure: no I/O). Compare shows two such states, the "files at" marker checks the disk against
// one, and every restore moves the workspace between two of them (file-targets.ts).
//
// For each path any record of the session names:
//   - changed on the way root → node: the `after` of its latest change there;
//   - changed only on other branches: its content before the session first changed it (the
//     `before` of its earliest record in the file). A restore that leaves such a branch gives the
//     file that content back, so that is what the node's state holds, hand edits aside.
// A path no record names is not in the state: the session knows nothing of it.
import type { FileChangeRecord } from '../session/records'
import type { SessionTree } from '../session/tree'
import { changesAlong } from './file-targets'
import { fileChangeRecords } from './other-sessions'

export interface NodeFile {
  /** Blob hash of its content; null: no file. */
  hash: string | null
  /** Its permission bits with that content, where a record says. */
  mode: number | undefined
}

/** path → the file as `uuid` left it (null: as before the first message). */
export function filesAsNodeLeftThem(tree: SessionTree, uuid: string | null): Map<string, NodeFile> {
  const state = new Map<string, NodeFile>()
  for (const change of allFileChanges(tree)) {
    if (!state.has(change.path))
      state.set(change.path, { hash: change.before, mode: change.beforeMode })
  }
  for (const change of changesAlong(tree, tree.pathTo(uuid))) {
    state.set(change.path, { hash: change.after, mode: change.afterMode })
  }
  return state
}

/** Every file_change record of the session, on every branch, in file order. */
export function allFileChanges(tree: SessionTree): FileChangeRecord[] {
  // Through the tree, which keeps only the records it accepted (not a duplicate uuid's).
  const accepted = new Set<unknown>(fileChangeRecords(tree))
  return tree.records.filter((r): r is FileChangeRecord => accepted.has(r))
}
