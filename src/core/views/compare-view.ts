// Compare: two nodes of the session (or a node and the files on disk now), side by side. The
// files are each side's state as the session's records describe it (rewind/node-files.ts), their
// content rebuilt from the backups; only files the session touched are compared. The
// conversations are shown from the last message they share. The studio's `compare` channel and
// the CLI's `diff` both build this view.
//
// Which files differ is found from the hashes alone; a diff costs reading two blobs and diffing
// them, so a view over many files leaves out the diffs past a budget (diff: null), and
// compareFileDiff gives any one of them.
import type { CompareFile, CompareView, FileDiff, GraphNode } from '../../shared/views'
import { NotFoundError } from '../../shared/coded-error'
import { BlobMissingError } from '../files/blob-store'
import type { BlobStore } from '../files/blob-store'
import type { DiskHashes } from '../rewind/disk-hashes'
import { unifiedDiff } from '../rewind/file-diff'
import { filesAsNodeLeftThem } from '../rewind/node-files'
import type { SessionTree } from '../session/tree'
import { type TurnIndex, buildTranscript, ownerNode } from './session-graph'
import { nodeEnd } from './node-refs'

/** What compare reads: the tree and its graph, the backups, and the disk for 'current'. */
export interface CompareSources {
  tree: SessionTree
  index: TurnIndex
  nodes: readonly GraphNode[]
  blobs: Pick<BlobStore, 'read'>
  disk: Pick<DiskHashes, 'hashOf' | 'contentOf'>
  /** What the sides' files are made of, when it is less than our own history (CompareView). */
  caveat: string | null
}

export interface CompareOptions {
  /** Diff text past which the view leaves diffs out (null); default 1 MB. */
  diffBudget?: number
}

const DEFAULT_DIFF_BUDGET = 1_000_000

interface Side {
  ref: string
  title: string
  /** The record its conversation ends at. */
  end: string | null
  /** path → hash (null: no file; undefined: cannot be read on disk). */
  hashOf: (path: string) => string | null | undefined
  /** Whether how this side left the file was never saved (another tool's log). */
  unknown: (path: string) => boolean
  contentOf: (path: string) => Buffer | null
}

export function buildCompareView(
  sources: CompareSources,
  a: string,
  b: string,
  options: CompareOptions = {}
): CompareView {
  const sideA = sideOf(sources, a)
  const sideB = sideOf(sources, b)
  const files: CompareFile[] = []
  let budget = options.diffBudget ?? DEFAULT_DIFF_BUDGET
  for (const path of touchedPaths(sources.tree)) {
    const file = compareFile(sideA, sideB, path, budget > 0)
    if (file === null) continue
    budget -= file.diff?.length ?? 0
    files.push(file)
  }
  const pathA = sources.tree.pathTo(sideA.end)
  const pathB = sources.tree.pathTo(sideB.end)
  let shared = 0
  while (shared < pathA.length && pathA[shared]?.uuid === pathB[shared]?.uuid) shared++
  const ancestor = shared === 0 ? null : (pathA[shared - 1]?.uuid ?? null)
  return {
    a: { ref: sideA.ref, title: sideA.title },
    b: { ref: sideB.ref, title: sideB.title },
    files,
    caveat: sources.caveat,
    conversation: {
      ancestorId: ownerNode(sources.index, ancestor),
      a: buildTranscript(sources.tree, sideA.end, sources.index).slice(shared),
      b: buildTranscript(sources.tree, sideB.end, sources.index).slice(shared)
    }
  }
}

/** One file of a compare with its diff (for a view that left it out). */
export function compareFileDiff(
  sources: CompareSources,
  a: string,
  b: string,
  path: string
): FileDiff {
  if (!touchedPaths(sources.tree).includes(path)) {
    throw new NotFoundError(`The session never changed ${path}: it is not compared.`)
  }
  const file = compareFile(sideOf(sources, a), sideOf(sources, b), path, true)
  return { path, diff: file?.diff ?? '', outsideChange: false }
}

function compareFile(a: Side, b: Side, path: string, withDiff: boolean): CompareFile | null {
  const hashA = a.hashOf(path)
  const hashB = b.hashOf(path)
  const unknown = [a, b].filter((side) => side.unknown(path))
  if (unknown.length > 0) {
    // Nothing says whether the two differ, or how: said, never guessed from a null hash (two
    // unknown sides are no proof of the same content).
    return {
      path,
      change: 'modified',
      diff: '',
      note: `how ${unknown.map((side) => `"${side.title}"`).join(' and ')} left ${path} was never saved (the tool kept no content of it there)`
    }
  }
  if (hashA === hashB) return null
  const change = hashA === null ? 'added' : hashB === null ? 'deleted' : 'modified'
  if (hashA === undefined || hashB === undefined) {
    const where = hashA === undefined ? a.title : b.title
    return { path, change, diff: '', note: `${path} cannot be read safely in ${where}` }
  }
  if (!withDiff) return { path, change, diff: null, note: null }
  try {
    return {
      path,
      change,
      diff: unifiedDiff(path, a.contentOf(path), b.contentOf(path)),
      note: null
    }
  } catch (error) {
    const reason =
      error instanceof BlobMissingError
        ? 'its backup is no longer in the store (pruned by retention)'
        : (error as Error).message
    return { path, change, diff: '', note: `No diff of ${path}: ${reason}` }
  }
}

function sideOf(sources: CompareSources, ref: string): Side {
  const { tree, index, blobs, disk } = sources
  if (ref === 'current') {
    return {
      ref,
      title: 'Current files',
      end: tree.leafUuid,
      hashOf: (path) => disk.hashOf(path),
      unknown: () => false,
      contentOf: (path) => disk.contentOf(path) ?? null
    }
  }
  const node = sources.nodes.find((n) => n.id === ref)
  if (node === undefined) throw new NotFoundError(`No node ${ref} in this session.`)
  const state = filesAsNodeLeftThem(tree, node.id)
  const hashOf = (path: string) => state.get(path)?.hash ?? null
  return {
    ref,
    title: node.title,
    end: nodeEnd(tree, index, node),
    hashOf,
    unknown: (path) => state.get(path)?.afterUnknown === true,
    contentOf: (path) => {
      const hash = hashOf(path)
      return hash === null ? null : blobs.read(hash)
    }
  }
}

/** The paths any file_change record names, sorted. */
function touchedPaths(tree: SessionTree): string[] {
  return [...filesAsNodeLeftThem(tree, null).keys()].sort()
}
