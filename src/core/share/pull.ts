// `share pull ID` and the app's Shared sessions: another machine's push of a session fetched into
// our own refs (refs/rewind-studio/remotes/<remote>/sessions/<id>), then copied into the data
// home for the readers: the log as a pulled session file (pulled.ts), the backups into the
// workspace's file history. Nothing is written into the workspace: its files change only when
// the user asks for a restore (a continue or a fork with its files), through the rewind engine.
//
// A push is someone else's data. What is taken of it, and how:
//   - only the entries the layout names (share.json, log/NNNNNNNN.jsonl, backups/ab/<sha256>),
//     each a plain blob; anything else (a symlink, a submodule, another name) is skipped and
//     listed. No name in the tree ever becomes a path on disk: the file written is ours;
//   - bounded before anything is read: the log, each backup and all backups have a size limit,
//     the entries a count limit; past one the pull is refused whole, nothing written;
//   - a backup whose content does not have the sha256 its name says is not kept (its file is
//     then not restorable, as a pruned backup): a name cannot make a restore write other bytes;
//   - the log's lines are kept as they came (the header replaced by ours): every reader rule of
//     a session file holds for them (docs/security.md), and it is opened read-only.
import { closeSync, fdatasyncSync, renameSync, rmSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { dirname, join } from 'node:path'
import { BlobStore, sha256 } from '../files/blob-store'
import { historyPaths } from '../files/history-paths'
import { checkWorkspaceFolder } from '../files/workspace-root'
import { ensurePrivateDir, openPrivateFileSync } from '../os/private-files'
import { writeAllSync } from '../os/write-all'
import { WriteFailedError } from '../os/write-failure'
import { SESSION_FORMAT_VERSION } from '../session/records'
import { sessionHeaderOf } from '../session/tree'
import { SHARED_ID, type SharedInfo } from '../../shared/share-views'
import { GitRepo, ShareError, type TreeEntry } from './git'
import { BACKUP, LOG_CHUNK, SHARE_FILE, ShareMeta, remoteSessionRef, sessionRef } from './layout'
import { type SharedFrom, pulledFile } from './pulled'

/** What a pull takes at most: a push past these is refused whole. */
export const PULL_LIMITS = {
  entries: 200_000,
  shareJsonBytes: 64 * 1024,
  logBytes: 512 * 1024 * 1024,
  backupBytes: 64 * 1024 * 1024,
  allBackupsBytes: 2 * 1024 * 1024 * 1024
}

/** Bytes read from git in one cat-file run. */
const READ_BATCH_BYTES = 64 * 1024 * 1024

export interface PullOptions {
  home: string
  workspace: string
  remote?: string | undefined
  sessionId: string
  limits?: Partial<typeof PULL_LIMITS>
}

export interface PullResult {
  file: string
  info: SharedInfo
  meta: ShareMeta | null
  lines: number
  backups: number
  /** What was not taken, in words (a skipped entry, a backup whose content is not its name). */
  problems: string[]
}

export async function pullSession(options: PullOptions): Promise<PullResult> {
  const { home, workspace, sessionId: id } = options
  const limits = { ...PULL_LIMITS, ...options.limits }
  if (!SHARED_ID.test(id)) {
    throw new ShareError(
      'invalid_payload',
      `${JSON.stringify(id)} is no session id. Nothing was pulled.`
    )
  }
  checkWorkspaceFolder(workspace, home)
  const repo = await GitRepo.open(workspace)
  const remote = await repo.remote(options.remote)
  const local = remoteSessionRef(remote, id)
  const fetched = await repo.run(
    [
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-auto-gc',
      remote,
      `+${sessionRef(id)}:${local}`
    ],
    { remote: true, allowFailure: true }
  )
  if (fetched.status !== 0) {
    throw new ShareError(
      /couldn't find remote ref|no such ref/i.test(fetched.stderr) ? 'not_found' : 'unavailable',
      /couldn't find remote ref|no such ref/i.test(fetched.stderr)
        ? `${remote} has no shared session ${id} (share list shows what it has). Nothing was pulled.`
        : `git fetch from ${remote} failed: ${fetched.stderr.trim().split('\n').slice(-2).join(' ')}`
    )
  }
  const commit = (await repo.refTarget(local)) ?? ''
  const [who] = await repo.forEachRef(local, [
    '%(authorname) %(authoremail)',
    '%(authordate:iso-strict)'
  ])
  const problems: string[] = []
  const { shareJson, chunks, backups } = sortEntries(await repo.lsTree(commit), limits, problems)

  let meta: ShareMeta | null = null
  if (shareJson !== null) {
    const [text] = await repo.readBlobs([shareJson.oid], limits.shareJsonBytes)
    try {
      meta = ShareMeta.parse(JSON.parse(text?.toString('utf8') ?? ''))
    } catch {
      problems.push(`${SHARE_FILE} is not what a push writes: its summary is not shown.`)
    }
  } else problems.push(`The push holds no ${SHARE_FILE}: its summary is not shown.`)

  // The backups first: a log that names them is written only once they are in the store.
  const history = historyPaths(home, workspace)
  for (const folder of [home, dirname(history.root), history.root]) ensurePrivateDir(folder)
  const store = new BlobStore(history.blobs)
  let kept = 0
  try {
    const batch = store.openBatch()
    try {
      for (const group of readGroups(backups)) {
        const contents = await repo.readBlobs(
          group.map((entry) => entry.oid),
          READ_BATCH_BYTES
        )
        group.forEach((entry, i) => {
          const content = contents[i] ?? Buffer.alloc(0)
          const name = BACKUP.exec(entry.path)?.[2] ?? ''
          if (sha256(content) !== name) {
            problems.push(
              `${entry.path}: its content is not the one its name says; not kept (that file cannot be restored).`
            )
            return
          }
          batch.put(content)
          kept++
        })
      }
      batch.commit()
    } catch (error) {
      batch.abort()
      throw error
    }
  } finally {
    await store.close()
  }

  const from: SharedFrom = {
    remote,
    commit,
    sharedBy: who?.[0] ?? '',
    sharedAt: meta?.sharedAt ?? who?.[1] ?? '',
    code: meta?.code ?? null,
    ...(meta?.code != null ? { codeHere: await repo.hasCommit(meta.code.commit) } : {}),
    cwd: meta?.cwd ?? '',
    pulledAt: new Date().toISOString()
  }
  const file = pulledFile(home, workspace, id)
  const lines = await writePulledLog(
    repo,
    file,
    chunks,
    {
      type: 'session',
      uuid: id,
      parentUuid: null,
      timestamp: from.sharedAt || from.pulledAt,
      version: SESSION_FORMAT_VERSION,
      sessionId: id,
      cwd: workspace,
      sharedFrom: from
    },
    problems
  )
  return { file, info: { sessionId: id, ...from }, meta, lines, backups: kept, problems }
}

/** The tree's entries by what the layout says they are; the rest listed, the limits held. */
function sortEntries(
  entries: TreeEntry[],
  limits: typeof PULL_LIMITS,
  problems: string[]
): { shareJson: TreeEntry | null; chunks: TreeEntry[]; backups: TreeEntry[] } {
  if (entries.length > limits.entries) {
    throw new ShareError(
      'refused',
      `The push holds ${entries.length} entries, more than a pull takes (${limits.entries}). Nothing was pulled.`
    )
  }
  let shareJson: TreeEntry | null = null
  const chunks: TreeEntry[] = []
  const backups: TreeEntry[] = []
  let skipped = 0
  for (const entry of entries) {
    if (entry.type === 'tree' && /^(log|backups|backups\/[0-9a-f]{2})$/.test(entry.path)) continue
    const plain = entry.type === 'blob' && entry.mode === '100644' && entry.size !== null
    if (plain && entry.path === SHARE_FILE && (entry.size ?? 0) <= limits.shareJsonBytes)
      shareJson = entry
    else if (plain && LOG_CHUNK.test(entry.path)) chunks.push(entry)
    else if (plain && BACKUP.test(entry.path)) backups.push(entry)
    else if (skipped++ < 20)
      problems.push(
        `${JSON.stringify(entry.path)} (${entry.type} ${entry.mode}) is nothing a push writes: skipped.`
      )
  }
  if (skipped > 20) problems.push(`…and ${skipped - 20} more entries skipped.`)
  const total = (list: TreeEntry[]) => list.reduce((sum, e) => sum + (e.size ?? 0), 0)
  if (total(chunks) > limits.logBytes) {
    throw new ShareError(
      'refused',
      `The shared log is ${total(chunks)} bytes, more than a pull takes (${limits.logBytes}). Nothing was pulled.`
    )
  }
  const big = backups.find((b) => (b.size ?? 0) > limits.backupBytes)
  if (big !== undefined) {
    throw new ShareError(
      'refused',
      `The backup ${big.path} is ${big.size} bytes, more than a pull takes (${limits.backupBytes}). Nothing was pulled.`
    )
  }
  if (total(backups) > limits.allBackupsBytes) {
    throw new ShareError(
      'refused',
      `The backups are ${total(backups)} bytes, more than a pull takes (${limits.allBackupsBytes}). Nothing was pulled.`
    )
  }
  chunks.sort((a, b) => (a.path < b.path ? -1 : 1))
  chunks.forEach((chunk, n) => {
    if (Number(LOG_CHUNK.exec(chunk.path)?.[1]) !== n && problems.length < 100) {
      problems.push(
        `The log's chunks are not numbered 0, 1, 2…: ${chunk.path} is read as chunk ${n}.`
      )
    }
  })
  return { shareJson, chunks, backups }
}

/** Entries in groups of at most READ_BATCH_BYTES (one cat-file each). */
function* readGroups(entries: readonly TreeEntry[]): Generator<TreeEntry[]> {
  let group: TreeEntry[] = []
  let bytes = 0
  for (const entry of entries) {
    if (group.length > 0 && bytes + (entry.size ?? 0) > READ_BATCH_BYTES) {
      yield group
      group = []
      bytes = 0
    }
    group.push(entry)
    bytes += entry.size ?? 0
  }
  if (group.length > 0) yield group
}

/**
 * The pulled session file, whole or not at all (a temp file beside it, synced, renamed): our
 * header, then every line of the shared log but its own header. Returns the lines written.
 */
async function writePulledLog(
  repo: GitRepo,
  file: string,
  chunks: readonly TreeEntry[],
  header: { sessionId: string; [field: string]: unknown },
  problems: string[]
): Promise<number> {
  ensurePrivateDir(dirname(file))
  const temp = join(dirname(file), `.session.jsonl.${process.pid}-${randomUUID()}.tmp`)
  let lines = 1
  let fd: number | null = null
  try {
    fd = openPrivateFileSync(temp, 'wx')
    writeAllSync(fd, Buffer.from(JSON.stringify(header) + '\n', 'utf8'))
    let first = true
    for (const group of readGroups(chunks)) {
      const contents = await repo.readBlobs(
        group.map((c) => c.oid),
        READ_BATCH_BYTES
      )
      for (let content of contents) {
        if (first) {
          first = false
          const end = content.indexOf(10)
          const line = content.subarray(0, end === -1 ? content.length : end).toString('utf8')
          let parsed: unknown = null
          try {
            parsed = JSON.parse(line)
          } catch {
            // Not JSON: kept as a line, which the reader lists as malformed.
          }
          const shared = sessionHeaderOf(parsed)
          if (shared !== null) {
            if (shared.sessionId !== header.sessionId) {
              problems.push(
                `The shared log's header names session ${JSON.stringify(shared.sessionId)}, not the ref's: the ref's id is kept.`
              )
            }
            content = content.subarray(end === -1 ? content.length : end + 1)
          } else problems.push('The shared log does not start with a session header.')
        }
        if (content.length === 0) continue
        writeAllSync(fd, content)
        // A chunk cut mid-line must not fuse with the next one's first line.
        if (content[content.length - 1] !== 10) writeAllSync(fd, Buffer.from('\n'))
        for (let at = content.indexOf(10); at !== -1; at = content.indexOf(10, at + 1)) lines++
      }
    }
    fdatasyncSync(fd)
    closeSync(fd)
    fd = null
    renameSync(temp, file)
  } catch (error) {
    if (fd !== null) closeSync(fd)
    rmSync(temp, { force: true })
    if (error instanceof ShareError) throw error
    throw new WriteFailedError(file, error, 'nothing was pulled')
  }
  return lines
}
