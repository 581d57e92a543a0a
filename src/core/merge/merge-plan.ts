// The plan of a merge (issue 31): what bringing another branch's files (or one turn's changes)
// into the workspace would do to each file, computed before anything is written. Three sides per
// file, as a version-control merge takes them:
//   base   = the files where the two branches part (their last common record's state), or for a
//            cherry-pick the file before that turn changed it;
//   theirs = the files as the node brought in left them (for a cherry-pick: after that turn);
//   ours   = the workspace now (what is on disk, hand edits included).
// Only paths their side changed (base ≠ theirs) are looked at; a file nobody there touched is
// never read or written. Per path:
//   ours = theirs                → already here, left out;
//   ours = base                  → clean: theirs is taken (modified, added, deleted);
//   both changed, all text       → git's three-way merge, all such files at once
//                                  (merge-tree.ts; merge-file.ts marks a conflict's hunks);
//   deleted on one side, changed on the other, added on both, binary, too large, no git
//                                → a conflict of that kind, to resolve as ours or theirs.
// A rename on their side (a file deleted there and another added with the same content) is one
// entry, the new path: the old one goes, and changes made here to the old path are merged into
// the new one. The plan holds contents in memory (bounded: MAX_MERGE_BYTES per side) for the
// apply (merge-apply.ts); it writes nothing.
import { BlobMissingError, type BlobStore, sha256 } from '../files/blob-store'
import { looksBinary } from '../files/binary-content'
import { PathOutsideWorkspaceError } from '../files/workspace-paths'
import { type NodeFile, filesAsNodeLeftThem } from '../rewind/node-files'
import { checkedPath, readFileAt } from '../rewind/workspace-files'
import { type SessionTree, startsTurn } from '../session/tree'
import { CodedError } from '../../shared/coded-error'
import { type FileMerge, type MergeRunner, gitAvailable } from './merge-file'
import { findRenames } from './similar-files'
import type { TextTriple } from './merge-tree'

/** What their branch did to the file since the branches part. */
export type MergeChange = 'added' | 'deleted' | 'modified' | 'renamed'

/** Why a file cannot be merged without a choice. */
export type ConflictKind =
  /** Both changed the same lines. */
  | 'content'
  /** Both added it, with different contents. */
  | 'added-both'
  /** Deleted here, changed there. */
  | 'deleted-here'
  /** Changed here, deleted there. */
  | 'deleted-there'
  /** Both changed a binary file. */
  | 'binary'
  /** Both changed a file past MAX_MERGE_BYTES. */
  | 'too-large'
  /** Both changed it and git, which merges text, is not installed. */
  | 'no-git'

export interface MergeFilePlan {
  path: string
  change: MergeChange
  /** A rename: the path the file had where the branches part (deleted by the merge). */
  renamedFrom?: string
  /** A rename's percent of similar content (100: the same). */
  similarity?: number
  /**
   * This branch renamed the file (from `from`, where the branches part) and `path` is its name
   * here: their change is merged into it there, and their own new name, if any, is not taken.
   */
  renamedHere?: { from: string; similarity: number }
  status: 'clean' | 'conflict'
  conflict?: ConflictKind
  /** Conflicting hunks git marked (conflict 'content' and 'added-both'). */
  hunks?: number
  base: Buffer | null
  /** What is on disk now (null: no file), and its hash, which the apply requires unchanged. */
  ours: Buffer | null
  oursHash: string | null
  /** Ours at the renamed-from path (a rename only). */
  oursFrom?: { content: Buffer | null; hash: string | null }
  theirs: Buffer | null
  /** The bits a file their side created had, where its records say. */
  theirsMode?: number
  /** A clean file's result (null: deleted); a text conflict's result with its hunks marked. */
  merged: Buffer | null
  /** Text: the merge runs again with a favor for resolution ours or theirs. */
  text: boolean
}

export interface MergePlan {
  /** The record brought in, and the last record both branches share (null: none). */
  fromUuid: string
  baseUuid: string | null
  /** A cherry-pick: the prompt whose turn's changes are merged. */
  turnUuid?: string
  files: MergeFilePlan[]
  /** Paths whose content there is not known (backup pruned, another tool's record): left alone. */
  unmergeable: { path: string; reason: string }[]
}

/** Bytes of one side past which a file both changed is not merged line by line. */
export const MAX_MERGE_BYTES = 8 * 1024 * 1024

/** A merge that cannot be planned or applied as asked; nothing was changed. */
export class MergeError extends CodedError {
  override name = 'MergeError'
}

export interface MergeSources {
  tree: SessionTree
  blobs: BlobStore
  /** The workspace root (resolved through symlinks). */
  root: string
  runner: MergeRunner
}

/**
 * The plan of bringing the files of `fromUuid` (any record) into the workspace, whose
 * conversation is at `leafUuid`.
 */
export async function planBranchMerge(
  src: MergeSources,
  fromUuid: string,
  leafUuid: string | null
): Promise<MergePlan> {
  const { tree } = src
  if (tree.get(fromUuid) === undefined) throw new MergeError('not_found', `No record ${fromUuid}`)
  const baseUuid = partingPoint(tree, fromUuid, leafUuid)
  if (baseUuid === fromUuid) {
    throw new MergeError(
      'conflict',
      'That node is on this branch already (at or before where the conversation is): nothing to bring in.'
    )
  }
  const base = filesAsNodeLeftThem(tree, baseUuid)
  const theirs = filesAsNodeLeftThem(tree, fromUuid)
  const sides = new Map<string, Sides>()
  for (const [path, there] of theirs) {
    const at = base.get(path) ?? { hash: null, mode: undefined }
    if (at.hash !== there.hash || there.afterUnknown === true)
      sides.set(path, { base: at, theirs: there })
  }
  return {
    fromUuid,
    baseUuid,
    ...(await planSides(src, sides, labelsFor(fromUuid), addedSince(tree, base, leafUuid)))
  }
}

/**
 * The plan of a cherry-pick: the changes of the turn of `turnUuid` (a prompt or a merge) alone,
 * each file from its content before the turn first changed it to its content after the turn.
 */
export async function planTurnMerge(src: MergeSources, turnUuid: string): Promise<MergePlan> {
  const { tree } = src
  const record = tree.get(turnUuid)
  if (record === undefined || !startsTurn(record)) {
    throw new MergeError(
      'not_found',
      `${turnUuid} is not a turn of this session (no prompt has that id)`
    )
  }
  const sides = new Map<string, Sides>()
  for (const change of tree.fileChanges(turnUuid)) {
    const known = sides.get(change.path)
    sides.set(change.path, {
      base: known?.base ?? { hash: change.before, mode: change.beforeMode },
      theirs: {
        hash: change.after,
        mode: change.afterMode,
        ...(change.afterUnknown === true ? { afterUnknown: true as const } : {})
      }
    })
  }
  for (const [path, s] of sides) if (s.base.hash === s.theirs.hash) sides.delete(path)
  return {
    fromUuid: turnUuid,
    baseUuid: record.parentUuid,
    turnUuid,
    ...(await planSides(
      src,
      sides,
      labelsFor(turnUuid),
      addedSince(tree, filesAsNodeLeftThem(tree, record.parentUuid), tree.leafUuid)
    ))
  }
}

/** The last record the paths to `a` and `b` share (null: none). */
export function partingPoint(tree: SessionTree, a: string, b: string | null): string | null {
  const pathA = tree.pathTo(a)
  const pathB = tree.pathTo(b)
  let common = 0
  while (common < pathA.length && pathA[common]?.uuid === pathB[common]?.uuid) common++
  return common === 0 ? null : (pathA[common - 1]?.uuid ?? null)
}

interface Sides {
  base: NodeFile
  theirs: NodeFile
}

function labelsFor(fromUuid: string) {
  return {
    ours: 'this branch',
    base: 'where the branches part',
    theirs: `brought in (…${fromUuid.slice(-8)})`
  }
}

async function planSides(
  src: MergeSources,
  sides: Map<string, Sides>,
  labels: ReturnType<typeof labelsFor>,
  oursAdded: readonly string[]
): Promise<Pick<MergePlan, 'files' | 'unmergeable'>> {
  const unmergeable: MergePlan['unmergeable'] = []
  const content = new Map<string, { base: Buffer | null; theirs: Buffer | null }>()
  for (const [path, s] of [...sides].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (s.theirs.afterUnknown === true) {
      unmergeable.push({
        path,
        reason:
          'its content on that branch is not known (another tool kept only the content before each change)'
      })
      continue
    }
    try {
      content.set(path, {
        base: readBlob(src.blobs, s.base.hash),
        theirs: readBlob(src.blobs, s.theirs.hash)
      })
    } catch (error) {
      if (!(error instanceof BlobMissingError)) throw error
      unmergeable.push({
        path,
        reason: 'its content there is not in the backup store (pruned by retention)'
      })
    }
  }
  // Renames on their side: a file gone there and a new file there with the same or at least half
  // the same content (similar-files.ts).
  const renamedTo = new Map<string, { from: string; similarity: number }>()
  const there = findRenames(
    [...content].flatMap(([path, c]) =>
      c.base !== null && c.theirs === null ? [{ path, content: c.base }] : []
    ),
    [...content].flatMap(([path, c]) =>
      c.base === null && c.theirs !== null ? [{ path, content: c.theirs }] : []
    )
  )
  for (const r of there) renamedTo.set(r.to, { from: r.from, similarity: r.similarity })
  const renamedFrom = new Set(there.map((r) => r.from))
  const here = renamesHere(src, content, renamedTo, oursAdded)
  const planned: (MergeFilePlan | TextMerge | null)[] = []
  for (const [path, c] of content) {
    if (renamedFrom.has(path)) continue
    const rename = renamedTo.get(path)
    const from = rename?.from
    const theirsMode = sides.get(path)?.theirs.mode
    const baseOf = from === undefined ? c.base : (content.get(from)?.base ?? null)
    // This branch moved the file: their change goes to where it is here, under this branch's name.
    const moved = here.get(path)
    planned.push(
      planFile(src, {
        path: moved?.to ?? path,
        base: baseOf,
        theirs: c.theirs,
        change:
          moved !== undefined
            ? 'modified'
            : from !== undefined
              ? 'renamed'
              : c.base === null
                ? 'added'
                : c.theirs === null
                  ? 'deleted'
                  : 'modified',
        ...(moved === undefined
          ? from === undefined
            ? {}
            : { renamedFrom: from, similarity: rename?.similarity ?? 100 }
          : { renamedHere: { from: from ?? path, similarity: moved.similarity } }),
        ...(theirsMode === undefined ? {} : { theirsMode })
      })
    )
  }
  // Every text file both changed, merged at once (merge-tree.ts), not a process each.
  const texts = planned.filter((f): f is TextMerge => f !== null && 'triple' in f)
  const merged = await src.runner.mergeAll(
    texts.map((t) => t.triple),
    labels
  )
  const done = new Map(texts.map((t, i) => [t, merged[i] as FileMerge]))
  const files = planned.flatMap((f): MergeFilePlan[] => {
    if (f === null) return []
    if (!('triple' in f)) return [f]
    const { content, conflicts } = done.get(f) as FileMerge
    return [
      conflicts === 0
        ? { ...f.plan, text: true, status: 'clean', merged: content }
        : {
            ...f.plan,
            text: true,
            status: 'conflict',
            conflict: f.plan.base === null ? 'added-both' : 'content',
            hunks: conflicts,
            merged: content
          }
    ]
  })
  return { files, unmergeable }
}

/** Files this branch created that are read to find its renames, at most. */
const MAX_ADDED_HERE = 10_000

/** Paths the records of the branch at `leafUuid` created since `base` (the files then). */
function addedSince(
  tree: SessionTree,
  base: Map<string, NodeFile>,
  leafUuid: string | null
): string[] {
  return [...filesAsNodeLeftThem(tree, leafUuid)]
    .filter(([path, f]) => f.hash !== null && (base.get(path)?.hash ?? null) === null)
    .map(([path]) => path)
}

/**
 * Renames this branch made: a file their side changed (or renamed) that is gone here, paired
 * with a file this branch's records created that is on disk, by the same measure as theirs.
 * Keyed by their path in `content` (the new one for a rename there).
 */
function renamesHere(
  src: MergeSources,
  content: Map<string, { base: Buffer | null; theirs: Buffer | null }>,
  renamedTo: Map<string, { from: string }>,
  oursAdded: readonly string[]
): Map<string, { to: string; similarity: number }> {
  const moved = new Map<string, { to: string; similarity: number }>()
  const goneHere: { path: string; content: Buffer }[] = []
  const renamedFrom = new Set([...renamedTo.values()].map((r) => r.from))
  for (const [path, c] of content) {
    if (c.theirs === null || renamedFrom.has(path)) continue
    const from = renamedTo.get(path)?.from
    const base = from === undefined ? c.base : (content.get(from)?.base ?? null)
    if (base === null) continue
    if (onDisk(src.root, path).content !== null) continue
    if (from !== undefined && onDisk(src.root, from).content !== null) continue
    goneHere.push({ path, content: base })
  }
  // Each candidate is read from disk: past MAX_ADDED_HERE of them this branch's renames are not
  // looked for (their change to such a file is then a deleted-here conflict, as before).
  if (goneHere.length === 0 || oursAdded.length > MAX_ADDED_HERE) return moved
  const addedHere = oursAdded.flatMap((path) => {
    if (content.has(path)) return []
    try {
      const file = onDisk(src.root, path).content
      return file === null ? [] : [{ path, content: file }]
    } catch (error) {
      if (error instanceof MergeError) return []
      throw error
    }
  })
  for (const r of findRenames(goneHere, addedHere)) {
    moved.set(r.from, { to: r.to, similarity: r.similarity })
  }
  return moved
}

function readBlob(blobs: BlobStore, hash: string | null): Buffer | null {
  return hash === null ? null : blobs.read(hash)
}

/** What is on disk at `path` now (null: no file), its path checked as a restore checks it. */
function onDisk(root: string, path: string): { content: Buffer | null; hash: string | null } {
  let abs: string
  try {
    abs = checkedPath(root, path)
  } catch (error) {
    if (!(error instanceof PathOutsideWorkspaceError)) throw error
    throw new MergeError(
      'refused',
      `The merge names a path it may not touch. ${error.message}. Nothing was changed.`
    )
  }
  const file = readFileAt(abs)
  return file === null
    ? { content: null, hash: null }
    : { content: file.content, hash: sha256(file.content) }
}

/** A file both sides changed as text: its plan waits for the three-way merge of `triple`. */
interface TextMerge {
  plan: Omit<MergeFilePlan, 'status' | 'merged'>
  triple: TextTriple
}

/** A file's plan, or the text merge it needs (null: it is as theirs already). */
function planFile(
  src: MergeSources,
  f: Pick<
    MergeFilePlan,
    | 'path'
    | 'base'
    | 'theirs'
    | 'change'
    | 'renamedFrom'
    | 'similarity'
    | 'renamedHere'
    | 'theirsMode'
  >
): MergeFilePlan | TextMerge | null {
  const here = onDisk(src.root, f.path)
  // A rename: what this branch has at the old path is what it merges with theirs.
  const hereFrom = f.renamedFrom === undefined ? undefined : onDisk(src.root, f.renamedFrom)
  const ours = hereFrom !== undefined && here.content === null ? hereFrom.content : here.content
  const plan = {
    ...f,
    ours: here.content,
    oursHash: here.hash,
    ...(hereFrom === undefined ? {} : { oursFrom: hereFrom }),
    text: false
  }
  const same = (a: Buffer | null, b: Buffer | null) =>
    a === null ? b === null : b !== null && a.equals(b)
  // Already as theirs (a rename: the new file there and the old one gone).
  if (
    same(ours, f.theirs) &&
    (hereFrom === undefined || (here.content !== null && hereFrom.content === null))
  ) {
    return null
  }
  if (same(ours, f.base)) return { ...plan, status: 'clean', merged: f.theirs }
  const conflict = (kind: ConflictKind): MergeFilePlan => ({
    ...plan,
    status: 'conflict',
    conflict: kind,
    merged: null
  })
  if (hereFrom !== undefined && here.content !== null && hereFrom.content !== null)
    return conflict('added-both')
  if (f.theirs === null) return conflict('deleted-there')
  if (ours === null) return conflict('deleted-here')
  if (looksBinary(ours) || looksBinary(f.theirs) || (f.base !== null && looksBinary(f.base)))
    return conflict('binary')
  if (Math.max(ours.length, f.theirs.length, f.base?.length ?? 0) > MAX_MERGE_BYTES)
    return conflict('too-large')
  if (!gitAvailable()) return conflict('no-git')
  return { plan, triple: { base: f.base, ours, theirs: f.theirs } }
}

export { labelsFor as mergeLabels }
