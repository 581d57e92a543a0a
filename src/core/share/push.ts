// `share push` and the app's Share…: a session's shared branches and the backups they name,
// written as git objects in the workspace's repository and pushed under our own ref namespace.
// In this order:
//   1. read the session (read-only: the writer may go on) and the last push of it (its tree);
//   2. build what is sent (outgoing.ts: masked records in chunks, backups by content) and the
//      preview: sizes, what the last push did not hold, what was masked. A dry run ends here
//      having written nothing;
//   3. write the blobs the repository lacks (one fast-import), the trees and the two commits
//      (the session's, its summary's), each after the last push of it;
//   4. move our two refs, each only from the value step 1 read (a push running beside this one
//      makes one of them fail, and nothing is pushed);
//   5. push both refs at once. A refused push puts the refs back where they were, so the next
//      preview still counts what the remote lacks.
// Nothing here touches the index, the working tree, HEAD or a branch (git.ts).
import { sessionHistoryPaths } from '../files/history-paths'
import { BlobStore } from '../files/blob-store'
import { SessionStore } from '../session/store'
import type { SharePreview, ShareResult } from '../../shared/share-views'
import { GitRepo, ShareError, type TreeLine } from './git'
import {
  SHARE_FILE,
  type ShareScope,
  backupPath,
  logChunkPath,
  sessionRef,
  shareMessage,
  summaryRef
} from './layout'
import { type Outgoing, buildOutgoing } from './outgoing'

export interface PushOptions {
  home: string
  /** The session's log. */
  file: string
  /** The workspace whose repository it goes through (the session's, checked by the caller). */
  workspace: string
  remote?: string | undefined
  /** What is shared: the whole tree, or a branch by its leaf (null: the active branch). */
  scope: ShareScope | { kind: 'branch'; leafUuid: null }
}

/** Everything step 2 made: what a push writes, and the preview of it. */
interface Prepared {
  repo: GitRepo
  remote: string
  outgoing: Outgoing
  previous: string | null
  previousSummary: string | null
  /** Every blob of the tree: path → object id. */
  blobs: Map<string, string>
  preview: SharePreview
}

/** What a push would send, writing nothing. */
export async function previewPush(options: PushOptions): Promise<SharePreview> {
  return (await prepare(options)).preview
}

export async function pushSession(options: PushOptions): Promise<ShareResult> {
  const prepared = await prepare(options)
  const { repo, remote, outgoing, preview } = prepared
  const id = preview.sessionId
  // 3. Objects: only what the repository lacks goes through fast-import.
  const toWrite = outgoing.backups.filter((b) => b.content !== null)
  const shareJson = metaFile(outgoing)
  const candidates = [
    ...toWrite.map((b) => ({ oid: b.oid, content: b.content as Buffer })),
    ...outgoing.chunks.map((chunk) => ({ oid: repo.blobId(chunk), content: chunk })),
    { oid: repo.blobId(shareJson), content: shareJson }
  ]
  const missing = await repo.missing(candidates.map((c) => c.oid))
  const seen = new Set<string>()
  await repo.writeBlobs(
    candidates
      .filter((c) => missing.has(c.oid) && !seen.has(c.oid) && seen.add(c.oid))
      .map((c) => c.content)
  )
  const tree = await writeTree(repo, prepared.blobs)
  const [summaryTree] = await repo.mktrees([[blobLine(SHARE_FILE, repo.blobId(shareJson))]])
  const message = shareMessage(outgoing.meta)
  const commit = await repo.commitTree(
    tree,
    prepared.previous === null ? [] : [prepared.previous],
    message
  )
  const summary = await repo.commitTree(
    summaryTree ?? '',
    prepared.previousSummary === null ? [] : [prepared.previousSummary],
    message
  )
  // 4. Our refs, each from the value read in step 1.
  await repo.updateRef(sessionRef(id), commit, prepared.previous)
  try {
    await repo.updateRef(summaryRef(id), summary, prepared.previousSummary)
  } catch (error) {
    await putBack(repo, sessionRef(id), prepared.previous, commit)
    throw error
  }
  // 5. Both refs at once.
  try {
    const sent = await repo.push(remote, [
      `${sessionRef(id)}:${sessionRef(id)}`,
      `${summaryRef(id)}:${summaryRef(id)}`
    ])
    return { ...preview, commit, sent }
  } catch (error) {
    await putBack(repo, sessionRef(id), prepared.previous, commit)
    await putBack(repo, summaryRef(id), prepared.previousSummary, summary)
    throw error
  }
}

async function prepare(options: PushOptions): Promise<Prepared> {
  const store = SessionStore.open(options.file, { readOnly: true })
  try {
    const tree = store.tree()
    const leaf = options.scope.kind === 'branch' ? (options.scope.leafUuid ?? tree.leafUuid) : null
    if (options.scope.kind === 'branch' && (leaf === null || tree.get(leaf) === undefined)) {
      throw new ShareError(
        'not_found',
        `No branch ${leaf ?? '(the session is empty)'} in ${options.file}: nothing was shared.`
      )
    }
    const scope: ShareScope = leaf === null ? { kind: 'all' } : { kind: 'branch', leafUuid: leaf }
    const repo = await GitRepo.open(options.workspace)
    const remote = await repo.remote(options.remote)
    const id = store.sessionId
    const previous = await repo.refTarget(sessionRef(id))
    const previousSummary = await repo.refTarget(summaryRef(id))
    const sent = new Map<string, { oid: string; size: number | null }>()
    if (previous !== null) {
      for (const entry of await repo.lsTree(previous)) {
        if (entry.type === 'blob') sent.set(entry.path, { oid: entry.oid, size: entry.size })
      }
    }
    const head = await repo.head()
    const blobStore = new BlobStore(
      sessionHistoryPaths(options.home, options.file, options.workspace).blobs
    )
    const outgoing = buildOutgoing({
      tree,
      header: store.header,
      blobs: blobStore,
      scope,
      previous: sent,
      code: head === null ? null : { commit: head, branch: await repo.branch() },
      blobId: (content) => repo.blobId(content)
    })
    await blobStore.close()
    const blobs = new Map<string, string>()
    const sizes = new Map<string, number>()
    for (const backup of outgoing.backups) {
      blobs.set(backupPath(backup.hash), backup.oid)
      sizes.set(backup.oid, backup.bytes)
    }
    outgoing.chunks.forEach((chunk, n) => {
      const oid = repo.blobId(chunk)
      blobs.set(logChunkPath(n), oid)
      sizes.set(oid, chunk.length)
    })
    const shareJson = metaFile(outgoing)
    blobs.set(SHARE_FILE, repo.blobId(shareJson))
    sizes.set(repo.blobId(shareJson), shareJson.length)
    // What the last push did not hold (by object id: a chunk that kept its bytes is not new).
    const sentIds = new Set([...sent.values()].map((entry) => entry.oid))
    const fresh = [...new Set(blobs.values())].filter((oid) => !sentIds.has(oid))
    const { meta } = outgoing
    const preview: SharePreview = {
      sessionId: id,
      title: meta.title,
      remote,
      remotes: await repo.remotes(),
      ref: sessionRef(id),
      scope: scope.kind,
      code: meta.code,
      records: meta.counts.records,
      turns: meta.counts.turns,
      files: meta.counts.files,
      backups: meta.counts.backups,
      bytes: meta.counts.bytes,
      missingBackups: outgoing.missingBackups,
      sharedBefore: previous,
      newObjects: fresh.length,
      newBytes: fresh.reduce((sum, oid) => sum + (sizes.get(oid) ?? 0), 0),
      masked: outgoing.redactions.count,
      redactions: outgoing.redactions.listed
    }
    return { repo, remote, outgoing, previous, previousSummary, blobs, preview }
  } finally {
    store.close()
  }
}

function metaFile(outgoing: Outgoing): Buffer {
  return Buffer.from(JSON.stringify(outgoing.meta, null, 2) + '\n', 'utf8')
}

function blobLine(name: string, oid: string): TreeLine {
  return { mode: '100644', type: 'blob', oid, name }
}

/**
 * The tree of `blobs` (path → object id): one mktree per level, the deepest first. Unchanged
 * folders (a shard of backups nothing was added to, the log but its last chunk) get the ids
 * they had, so git sends none of them again.
 */
async function writeTree(repo: GitRepo, blobs: ReadonlyMap<string, string>): Promise<string> {
  interface Folder {
    blobs: TreeLine[]
    folders: Map<string, Folder>
  }
  const root: Folder = { blobs: [], folders: new Map() }
  for (const [path, oid] of blobs) {
    const parts = path.split('/')
    const name = parts.pop() ?? ''
    let folder = root
    for (const part of parts) {
      let next = folder.folders.get(part)
      if (next === undefined) {
        next = { blobs: [], folders: new Map() }
        folder.folders.set(part, next)
      }
      folder = next
    }
    folder.blobs.push(blobLine(name, oid))
  }
  // Deepest level first: each level's ids are the lines of the level above.
  const byDepth: { folder: Folder; depth: number }[] = []
  const walk = (folder: Folder, depth: number) => {
    byDepth.push({ folder, depth })
    for (const child of folder.folders.values()) walk(child, depth + 1)
  }
  walk(root, 0)
  const ids = new Map<Folder, string>()
  const deepest = Math.max(...byDepth.map((f) => f.depth))
  for (let depth = deepest; depth >= 0; depth--) {
    const level = byDepth.filter((f) => f.depth === depth).map((f) => f.folder)
    const made = await repo.mktrees(
      level.map((folder) => [
        ...folder.blobs,
        ...[...folder.folders].map(([name, child]): TreeLine => ({
          mode: '040000',
          type: 'tree',
          oid: ids.get(child) ?? '',
          name
        }))
      ])
    )
    level.forEach((folder, i) => ids.set(folder, made[i] ?? ''))
  }
  return ids.get(root) ?? ''
}

/** Puts `ref` back to `to` (deleting it when it did not exist) if it still points at `from`. */
async function putBack(repo: GitRepo, ref: string, to: string | null, from: string): Promise<void> {
  await repo
    .run(to === null ? ['update-ref', '-d', ref, from] : ['update-ref', ref, to, from], {
      allowFailure: true
    })
    .catch(() => undefined)
}
