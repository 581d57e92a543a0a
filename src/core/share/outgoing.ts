// What a push sends, made from a session and its backups: the records of the branches shared,
// masked (mask.ts), as lines of the log cut into chunks (layout.ts), and the backups those
// records name, masked where they are text holding a key, each with the git object id it has.
// Pure of git but for the object ids: a dry run builds this and writes nothing.
//
// Which records: the whole tree (every record in file order but the header, whose folder names
// the sharer's machine is kept too: it says where the session ran), or one branch: the
// conversation nodes on the path from its root to its leaf, the file changes of the path's
// turns and the labels of the path's nodes, in file order (a fork's choice, session/fork.ts),
// so the branch's leaf is the shared log's leaf and a branch that grows only appends.
//
// A backup already in the last push under its own name (it was not masked) is not read again:
// its content has that hash, and the blob that name holds is what was sent. Only new backups,
// and those a push masked (named otherwise), are read from the store.
import { BlobMissingError, type BlobStore } from '../files/blob-store'
import type { FileChangeRecord, SessionHeader } from '../session/records'
import { type SessionTree, isConversationNode, isPrompt, typedPrompt } from '../session/tree'
import { maskSecrets } from '../../shared/mask-secrets'
import { backupPath, chunkLines, type ShareMeta, type ShareScope } from './layout'
import { Redactions, maskBackup, maskRecord } from './mask'

const SHA256 = /^[0-9a-f]{64}$/

export interface OutgoingBackup {
  /** The sha256 its shared records name (of the masked content, when it was masked). */
  hash: string
  /** The path of the first record naming it. */
  path: string
  /** The git object id of what is sent. */
  oid: string
  bytes: number
  /** Its content, when it had to be read (a backup the last push did not send as it is). */
  content: Buffer | null
}

export interface Outgoing {
  meta: ShareMeta
  chunks: Buffer[]
  backups: OutgoingBackup[]
  /** Backups the records name that the store no longer holds (pruned): not sent. */
  missingBackups: number
  redactions: Redactions
}

export interface OutgoingInput {
  tree: SessionTree
  header: SessionHeader
  blobs: BlobStore
  scope: ShareScope
  /** Blob entries of the last push: path → object id and size (empty for a first push). */
  previous: ReadonlyMap<string, { oid: string; size: number | null }>
  code: ShareMeta['code']
  /** The id git gives a blob of this content (its hash: sha1 or sha256). */
  blobId: (content: Uint8Array) => string
  now?: Date
}

export function buildOutgoing(input: OutgoingInput): Outgoing {
  const { tree, scope } = input
  const records = sharedRecords(tree, scope)
  const redactions = new Redactions()
  const changes = records.filter(isFileChange)
  const pathOf = new Map<string, string>()
  for (const change of changes) {
    for (const hash of [change.before, change.after]) {
      if (hash !== null && !pathOf.has(hash)) pathOf.set(hash, change.path)
    }
  }
  let missingBackups = 0
  for (const hash of pathOf.keys()) {
    // A hand-made record may name anything: only a sha256 can name a backup.
    if (!SHA256.test(hash)) {
      pathOf.delete(hash)
      missingBackups++
    }
  }
  const renamed = new Map<string, string>()
  const backups: OutgoingBackup[] = []
  for (const [hash, path] of pathOf) {
    const sent = input.previous.get(backupPath(hash))
    if (sent !== undefined) {
      backups.push({ hash, path, oid: sent.oid, bytes: sent.size ?? 0, content: null })
      continue
    }
    let content: Buffer
    try {
      content = input.blobs.read(hash)
    } catch (error) {
      if (!(error instanceof BlobMissingError)) throw error
      missingBackups++
      continue
    }
    const masked = maskBackup(content, `backup of ${path}`, redactions)
    if (masked !== null) renamed.set(hash, masked.hash)
    const out = masked?.content ?? content
    backups.push({
      hash: masked?.hash ?? hash,
      path,
      oid: input.blobId(out),
      bytes: out.length,
      content: out
    })
  }
  const lines = records.map((record, i) => {
    const named = renameBackups(record, renamed)
    const what = (record as { type?: unknown }).type
    return JSON.stringify(
      maskRecord(
        named,
        `log line ${i + 1} (${typeof what === 'string' ? what : 'record'})`,
        redactions
      )
    )
  })
  const chunks = chunkLines(lines)
  const nodes = records.filter(isConversationNode)
  const firstPrompt = nodes.map(typedPrompt).find((p) => p !== null) ?? ''
  const meta: ShareMeta = {
    format: 1,
    sessionId: input.header.sessionId,
    title: (maskSecrets(firstPrompt.trim()).split('\n', 1)[0] ?? '').slice(0, 200),
    scope,
    sharedAt: (input.now ?? new Date()).toISOString(),
    cwd: input.header.cwd,
    code: input.code,
    counts: {
      records: records.length,
      turns: nodes.filter(isPrompt).length,
      files: new Set(changes.map((c) => c.path)).size,
      backups: backups.length,
      bytes:
        chunks.reduce((sum, chunk) => sum + chunk.length, 0) +
        backups.reduce((sum, backup) => sum + backup.bytes, 0),
      masked: redactions.count
    }
  }
  return { meta, chunks, backups, missingBackups, redactions }
}

/** The records a push shares, in file order (see the module's header). */
export function sharedRecords(tree: SessionTree, scope: ShareScope): unknown[] {
  if (scope.kind === 'all') return [...tree.records]
  const path = tree.pathTo(scope.leafUuid)
  const onPath = new Set(path.map((node) => node.uuid))
  const prompts = new Set(path.filter(isPrompt).map((node) => node.uuid))
  return tree.records.filter((record, index) => {
    if (index === 0) return true
    const r = record as {
      type?: unknown
      uuid?: unknown
      checkpointUuid?: unknown
      targetUuid?: unknown
    }
    if (r.type === 'file_change') return prompts.has(String(r.checkpointUuid))
    if (r.type === 'label') return onPath.has(String(r.targetUuid))
    return (
      isConversationNode(record) &&
      onPath.has(String(r.uuid)) &&
      tree.get(String(r.uuid)) === record
    )
  })
}

function isFileChange(record: unknown): record is FileChangeRecord {
  const r = record as Partial<FileChangeRecord> | null
  return (
    r?.type === 'file_change' &&
    typeof r.path === 'string' &&
    (r.before === null || typeof r.before === 'string') &&
    (r.after === null || typeof r.after === 'string')
  )
}

/** A file change naming masked backups names what is sent instead. */
function renameBackups(record: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (renamed.size === 0 || !isFileChange(record)) return record
  const rename = (hash: string | null) => (hash === null ? null : (renamed.get(hash) ?? hash))
  return { ...record, before: rename(record.before), after: rename(record.after) }
}
