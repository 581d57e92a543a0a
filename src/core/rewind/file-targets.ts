// What each file should contain when the workspace moves from one node of the session tree to
// another, computed from the turns' file_change records alone (pure: no I/O).
//
//   … ── X ─┬─ … from   (where the files are: the timeline's "files at")
//           └─ … to     (a rewind target: where the files were when the checkpoint's prompt was
//                        sent; or another branch's leaf; or any node)
//
// The two sides are the turns behind each node (file-lineage.ts: usually the prompts on its
// path), and X is their last common turn. A file changed on X→from goes back to the `before` of
// its earliest change there (its content at X); a file changed on X→to takes the `after` of its
// latest change there (how switching to an abandoned branch brings its files back). A file that
// no record on either side names is not in the result: nothing rewrites or deletes it.
//
// Changes are filed by checkpoint (the prompt that opened the turn), so they belong to the
// prompt's node: a fork in the middle of a turn counts that turn's changes as common.
import type { FileChangeRecord } from '../session/records'
import { type SessionTree, type TreeRecord, isPrompt } from '../session/tree'
import { changesOfTurns, turnsBehind } from './file-lineage'

export interface FileTarget {
  path: string
  /** Hash of the content the file must have at `to`; null = it must not exist. */
  target: string | null
  /** The permission bits it had with that content, where a record says (see FileChangeRecord). */
  targetMode: number | undefined
  /**
   * What the session last left in the file on the way to `from` (its hash; null = absent): when
   * the disk holds anything else, someone changed the file outside the agent.
   */
  expected: ReadonlySet<string | null>
}

/** The changes behind `from`, and those of each side after X (see the module header). */
function sidesOf(
  tree: SessionTree,
  from: string | null,
  to: string | null
): { alongFrom: FileChangeRecord[]; fromSide: FileChangeRecord[]; toSide: FileChangeRecord[] } {
  const fromTurns = turnsBehind(tree, from)
  const toTurns = turnsBehind(tree, to)
  let common = 0
  while (common < fromTurns.length && fromTurns[common] === toTurns[common]) common++
  return {
    alongFrom: changesOfTurns(tree, fromTurns),
    fromSide: changesOfTurns(tree, fromTurns.slice(common)),
    toSide: changesOfTurns(tree, toTurns.slice(common))
  }
}

export function fileTargets(
  tree: SessionTree,
  from: string | null,
  to: string | null
): FileTarget[] {
  const { alongFrom, fromSide, toSide } = sidesOf(tree, from, to)

  const targets = new Map<string, { hash: string | null; mode: number | undefined }>()
  for (const change of fromSide) {
    if (!targets.has(change.path))
      targets.set(change.path, { hash: change.before, mode: change.beforeMode })
  }
  for (const change of toSide) {
    targets.set(change.path, { hash: change.after, mode: change.afterMode })
  }

  const expected = new Map<string, string | null>()
  for (const change of toSide)
    if (!expected.has(change.path)) expected.set(change.path, change.before)
  for (const change of alongFrom) expected.set(change.path, change.after)

  return [...targets]
    .map(([path, { hash, mode }]) => ({
      path,
      target: hash,
      targetMode: mode,
      expected: new Set([expected.get(path) ?? null])
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/**
 * The folders the changes on X→from made (their records' createdFolders) that no change on
 * X→to made too: once the files are moved, a restore removes those of them left empty. Records
 * from before folders were kept name none, and their folders stay, as they did.
 */
export function foldersMadeBetween(
  tree: SessionTree,
  from: string | null,
  to: string | null
): string[] {
  const { fromSide, toSide } = sidesOf(tree, from, to)
  const kept = new Set(toSide.flatMap((change) => change.createdFolders ?? []))
  const made = new Set(fromSide.flatMap((change) => change.createdFolders ?? []))
  return [...made].filter((folder) => !kept.has(folder)).sort()
}

/**
 * What commands changed without a backup (untracked_changes records) in the checkpoints between
 * `from` and `to`, on both sides of their common node: no restore can undo or redo it, so a plan
 * names each entry as not restored.
 */
export function untrackedBetween(
  tree: SessionTree,
  from: string | null,
  to: string | null
): { path: string; reason: string }[] {
  const fromPath = tree.pathTo(from)
  const toPath = tree.pathTo(to)
  let common = 0
  while (common < fromPath.length && fromPath[common]?.uuid === toPath[common]?.uuid) common++
  const found = new Map<string, { path: string; reason: string }>()
  for (const prompt of [...fromPath.slice(common), ...toPath.slice(common)].filter(isPrompt)) {
    for (const record of tree.untrackedChanges(prompt.uuid)) {
      for (const { path, reason } of record.changes) {
        const why = `a command changed it and file history could not back it up (${reason})`
        found.set(`${path}\0${reason}`, { path, reason: why })
      }
      if ((record.more ?? 0) > 0) {
        const more = `${record.more} more`
        found.set(`${record.uuid}\0more`, {
          path: `(${more})`,
          reason: `${more} changes a command made that file history could not back up`
        })
      }
    }
  }
  return [...found.values()]
}

/** What the turns of the prompts along `path` changed, in order. */
export function changesAlong(tree: SessionTree, path: readonly TreeRecord[]): FileChangeRecord[] {
  return path.filter(isPrompt).flatMap((prompt) => tree.fileChanges(prompt.uuid))
}
