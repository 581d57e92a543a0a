// The files as a node of the session tree left them, computed from the file_change records alone
// (pure: no I/O). Compare shows two such states, the "files at" marker checks the disk against
// one, and every restore moves the workspace between two of them (file-targets.ts).
//
// For each path any turn of the session changed:
//   - changed by the turns behind the node (file-lineage.ts: usually those on its path): the
//     `after` of its latest change there;
//   - changed only by other turns: its content before the session first changed it (the `before`
//     of its earliest record in the file). A restore that leaves such a branch gives the file that
//     content back, so that is what the node's state holds, hand edits aside. Unknown where that
//     record says the content before was never kept (beforeUnknown).
// A path no turn changed is not in the state: the session knows nothing of it. A restore's own
// records (an earlier version's, isRestoreChange) are no turn's: they change no node's state.
import type { SessionTree } from '../session/tree'
import { changesOfTurns, turnsBehind } from './file-lineage'

export interface NodeFile {
  /** Blob hash of its content; null: no file. */
  hash: string | null
  /** Its permission bits with that content, where a record says. */
  mode: number | undefined
  /**
   * How the node left it is not known (`hash` means nothing then): its latest change is another
   * tool's that kept only the content before it (FileChangeRecord.afterUnknown), or only other
   * turns changed it and the earliest change is a tool's that kept no content at all
   * (beforeUnknown: Codex CLI's patches). Nothing may be restored, or deleted, from it.
   */
  afterUnknown?: true
}

/** path → the file as `uuid` left it (null: as before the first message). */
export function filesAsNodeLeftThem(tree: SessionTree, uuid: string | null): Map<string, NodeFile> {
  const state = new Map<string, NodeFile>()
  for (const change of tree.turnFileChanges()) {
    if (!state.has(change.path))
      state.set(change.path, {
        hash: change.before,
        mode: change.beforeMode,
        ...(change.beforeUnknown === true ? { afterUnknown: true as const } : {})
      })
  }
  for (const change of changesOfTurns(tree, turnsBehind(tree, uuid))) {
    state.set(change.path, {
      hash: change.after,
      mode: change.afterMode,
      ...(change.afterUnknown === true ? { afterUnknown: true as const } : {})
    })
  }
  return state
}
