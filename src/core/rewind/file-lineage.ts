// The turns whose changes make the files as a node left them (pure: no I/O): the node's own turn
// (the latest prompt on its path), then the turn of the node the files were at when that prompt
// was sent (its base, replayed by timeline.ts), and so on back to the first. For a session whose
// files never moved without its conversation, these are the prompts on the node's path. A turn
// sent while the files were elsewhere (after a code-only rewind, or a conversation-only one, which
// leaves them) started from those files, not from its parent's, and its lineage goes on from
// there.
//
// A restore is no turn and changes no lineage: it moves the files from one node's state to
// another's (file-targets.ts), and the timeline says where they are. So what a turn changed is
// its own file_change records alone, and the state a node left is made of turns alone.
import type { FileChangeRecord } from '../session/records'
import type { SessionTree } from '../session/tree'
import { replayTimeline } from './timeline'

/** Where the files were (the record whose state they held) when the prompt `uuid` was sent. */
export function filesWhenSent(tree: SessionTree, uuid: string): string | null {
  const base = replayTimeline(tree).bases.get(uuid)
  return base !== undefined ? base : (tree.get(uuid)?.parentUuid ?? null)
}

/** The prompts whose turns make the files as `uuid` left them, oldest first. */
export function turnsBehind(tree: SessionTree, uuid: string | null): string[] {
  const turns: string[] = []
  // A turn met again closes a loop of bases (a hand-edited log): marked by node number, not a
  // set of the uuids of every turn behind (120,000 in a 500 MB log).
  const seen = new Uint8Array(tree.size)
  for (let turn = tree.turnOf(uuid); turn !== null;) {
    const n = tree.nodeNumber(turn)
    if (seen[n] === 1) break
    seen[n] = 1
    turns.push(turn)
    turn = tree.turnOf(filesWhenSent(tree, turn))
  }
  return turns.reverse()
}

/** What the turns of `prompts` changed, in order (each turn's records in file order). */
export function changesOfTurns(tree: SessionTree, prompts: readonly string[]): FileChangeRecord[] {
  return prompts.flatMap((prompt) => tree.fileChanges(prompt))
}
