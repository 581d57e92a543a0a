// `share push` and the app's Share…: a session's shared branches and the backups they name,
// written as git objects in the workspace's repository and pushed under our own ref namespace.
// In this order:
//   1. read the session (read-only: the writer may go on) and the last push of it (its tree);
//   2. build what is sent (outgoing.ts: masked records in chunks, backups by content) and the
//      preview: sizes, what the last push did not hold, what was masked. A dry run ends here
//      having written nothing;
//   3. write the blobs the repository lacks, the trees and the two commits (the session's, its
//      summary's), each after the last push of it, in one fast-import (git.ts says why);
//   4. move our two refs in one transaction, each only from the value step 1 read (a push
//      running beside this one makes it fail, and nothing is pushed);
//   5. push both refs at once. A refused push puts the refs back where they were, so the next
//      preview still counts what the remote lacks.
// Nothing here touches the index, the working tree, HEAD or a branch (git.ts).
import { randomUUID } from 'node:crypto'
import { sessionHistoryPaths } from '../files/history-paths'
import { BlobStore } from '../files/blob-store'
import { SessionStore } from '../session/store'
import type { SharePreview, ShareResult } from '../../shared/share-views'
import { GitRepo, ShareError } from './git'
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
  // 3. One fast-import: the blobs the repository lacks, then the two commits, onto temporary
  // refs of ours (a process that dies here leaves objects nothing names, and those refs).
  const shareJson = metaFile(outgoing)
  // A file's versions one after another: fast-import makes each a delta of the one before it,
  // and the push then sends those deltas as they are instead of searching for them.
  const contents = new Map<string, Buffer>()
  const byPath = [...outgoing.backups].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0
  )
  for (const backup of byPath) if (backup.content !== null) contents.set(backup.oid, backup.content)
  for (const chunk of outgoing.chunks) contents.set(repo.blobId(chunk), chunk)
  contents.set(repo.blobId(shareJson), shareJson)
  const missing = await repo.missing([...contents.keys()])
  const ident = await repo.identity()
  const message = Buffer.from(shareMessage(outgoing.meta), 'utf8')
  const temp = `refs/rewind-studio/tmp/${randomUUID()}`
  function* commit(ref: string, parent: string | null, files: ReadonlyMap<string, string>) {
    yield `commit ${ref}\nauthor ${ident}\ncommitter ${ident}\ndata ${message.length}\n`
    yield message
    yield `\n${parent === null ? '' : `from ${parent}\n`}deleteall\n`
    for (const [path, oid] of files) yield `M 100644 ${oid} ${path}\n`
    yield '\n'
  }
  await repo.fastImport(
    (function* () {
      for (const [oid, content] of contents) {
        if (!missing.has(oid)) continue
        yield `blob\ndata ${content.length}\n`
        yield content
        yield '\n'
      }
      yield* commit(`${temp}/session`, prepared.previous, prepared.blobs)
      yield* commit(
        `${temp}/summary`,
        prepared.previousSummary,
        new Map([[SHARE_FILE, repo.blobId(shareJson)]])
      )
    })()
  )
  const commits = await repo.refTargets([`${temp}/session`, `${temp}/summary`])
  const made = commits.get(`${temp}/session`)
  const summary = commits.get(`${temp}/summary`)
  if (made === undefined || summary === undefined) {
    throw new ShareError('internal', 'git fast-import made no commit')
  }
  // 4. Our refs, each from the value read in step 1, and the temporary ones gone, at once.
  await repo
    .updateRefs([
      { ref: sessionRef(id), to: made, from: prepared.previous },
      { ref: summaryRef(id), to: summary, from: prepared.previousSummary },
      { ref: `${temp}/session`, delete: made },
      { ref: `${temp}/summary`, delete: summary }
    ])
    .catch(async (error: unknown) => {
      await repo
        .updateRefs([
          { ref: `${temp}/session`, delete: made },
          { ref: `${temp}/summary`, delete: summary }
        ])
        .catch(() => undefined)
      throw error
    })
  // 5. Both refs at once; refused, they go back where they were.
  try {
    const sent = await repo.push(remote, [
      `${sessionRef(id)}:${sessionRef(id)}`,
      `${summaryRef(id)}:${summaryRef(id)}`
    ])
    return { ...preview, commit: made, sent }
  } catch (error) {
    await putBack(repo, sessionRef(id), prepared.previous, made)
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
    const last = await repo.refTargets([sessionRef(id), summaryRef(id)])
    const previous = last.get(sessionRef(id)) ?? null
    const previousSummary = last.get(summaryRef(id)) ?? null
    const sent = new Map<string, { oid: string; size: number | null }>()
    if (previous !== null) {
      for (const entry of await repo.lsTree(previous)) {
        if (entry.type === 'blob') sent.set(entry.path, { oid: entry.oid, size: entry.size })
      }
    }
    const blobStore = new BlobStore(
      sessionHistoryPaths(options.home, options.file, options.workspace).blobs
    )
    const outgoing = buildOutgoing({
      tree,
      header: store.header,
      blobs: blobStore,
      scope,
      previous: sent,
      code: await repo.code(),
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

/** Puts `ref` back to `to` (deleting it when it did not exist) if it still points at `from`. */
async function putBack(repo: GitRepo, ref: string, to: string | null, from: string): Promise<void> {
  await repo
    .run(to === null ? ['update-ref', '-d', ref, from] : ['update-ref', ref, to, from], {
      allowFailure: true
    })
    .catch(() => undefined)
}
