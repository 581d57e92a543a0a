// The read-before-edit table: which files the agent has seen, and as what content. Write and
// Edit of an existing file are refused unless the agent read (or wrote) it on the current
// branch and it has not changed on disk since, so the model never edits blind. When the branch
// changes (a rewind, a resumed session, a parallel run starting from a node) the table is made
// again from the branch itself (writtenOnBranch): a file read on an abandoned branch was never
// seen on this one, and one the model wrote on this branch was. A code restore forgets the
// files it put back.
import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import type { SessionTree, TreeRecord } from '../session/tree'

/** The tools that write through guarded-write.ts: a file_change of theirs holds what the model wrote. */
export const MODEL_WRITE_TOOLS = ['Write', 'Edit'] as const
export type ModelWriteTool = (typeof MODEL_WRITE_TOOLS)[number]

function digest(content: string): string {
  return createHash('sha256').update(content).digest('hex')
}

export class FileStateTable {
  /** Absolute path → sha256 of the content the agent last read or wrote. */
  private readonly seen = new Map<string, string>()
  /** What the table was last rehydrated with, not yet worked out (see rehydrate). */
  private pending: (() => ReadonlyMap<string, string>) | null = null

  markRead(abs: string, content: string): void {
    this.entries().set(resolve(abs), digest(content))
  }

  markWritten(abs: string, content: string): void {
    this.entries().set(resolve(abs), digest(content))
  }

  /** The agent read or wrote this file on the current branch. */
  canEdit(abs: string): boolean {
    return this.entries().has(resolve(abs))
  }

  /** `content` (what is on disk now) is what the agent last read or wrote. */
  isUnchanged(abs: string, content: string): boolean {
    return this.entries().get(resolve(abs)) === digest(content)
  }

  forget(abs: string): void {
    this.entries().delete(resolve(abs))
  }

  /**
   * Forgets everything but these files (absolute path → sha256 of the content seen), worked out
   * by `seen` when the table is next asked: a session opens without walking its whole branch
   * for them (writtenOnBranch: half a second on a 500 MB log), which only a Read, Write or Edit
   * needs. `seen` must answer for the branch as it was when this was called (writtenOnBranch's
   * `held`).
   */
  rehydrate(seen: () => ReadonlyMap<string, string>): void {
    this.pending = seen
  }

  private entries(): Map<string, string> {
    const pending = this.pending
    if (pending !== null) {
      this.pending = null
      this.seen.clear()
      for (const [abs, hash] of pending()) this.seen.set(resolve(abs), hash)
    }
    return this.seen
  }
}

const modelWrites: ReadonlySet<string> = new Set(MODEL_WRITE_TOOLS)

/**
 * What the model is known to have seen of each file on a branch, from the records it sees
 * (`view`, context.ts modelView): the content its own Write or Edit left, where that was the
 * file's latest change there; its hash is the blob's, a sha256 of the content, as the table's.
 * A file the model only read (a read keeps no content in the log), or last changed by a command,
 * a merge or a restore, is left out: the model reads it again before it edits it. A change made
 * on another branch of the same turn (an exploration the agent rewound) is not in the view.
 * `held`: how many records the tree held when the view was taken; a change appended since is
 * left out, as it would have been then (FileStateTable.rehydrate works this out later).
 */
export function writtenOnBranch(
  tree: SessionTree,
  view: readonly TreeRecord[],
  cwd: string,
  held = tree.records.length
): Map<string, string> {
  const inView = new Set(view.map((record) => record.uuid))
  const appended = held < tree.records.length ? new Set(tree.records.slice(held)) : null
  const seen = new Map<string, string>()
  for (const record of view) {
    for (const change of tree.fileChanges(record.uuid)) {
      if (change.parentUuid === null || !inView.has(change.parentUuid)) continue
      if (appended?.has(change) === true) continue
      const abs = join(cwd, change.path)
      const { after } = change
      if (modelWrites.has(change.source) && after !== null && change.afterUnknown !== true) {
        seen.set(abs, after)
      } else {
        seen.delete(abs)
      }
    }
  }
  return seen
}
