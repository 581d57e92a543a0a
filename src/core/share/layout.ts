// How a shared session is laid out in git (docs/session-format.md, "Shared through git"):
//
//   refs/rewind-studio/sessions/<id>    a commit per push, its parent the push before:
//     share.json                          what was shared, by whom it says nothing (the commit's
//                                         author does), the code commit it was made on
//     log/00000000.jsonl …                the session's records, masked, one per line, cut into
//                                         chunks of at most 256 lines or 1 MiB
//     backups/ab/abcdef…                  each backup its shared records name, one git blob by
//                                         content, named by the sha256 of that content
//   refs/rewind-studio/summaries/<id>   a commit whose tree is share.json alone: what `share
//                                         list` fetches (a few hundred bytes a session)
//
// Why this shape: a session log only grows, so every chunk but the last keeps its bytes (and so
// its object id) from one push to the next, and a backup is a blob of its content whatever else
// changed; the trees holding unchanged parts keep their ids too. git then sends only what is
// new, and deltas of the last chunk against the one the remote has.
//
// What a pull keeps of another machine's share locally: refs/rewind-studio/remotes/<remote>/…,
// as git keeps a remote's branches under refs/remotes.
import * as z from 'zod'
import { SHARED_ID } from '../../shared/share-views'

export const sessionRef = (id: string) => `refs/rewind-studio/sessions/${id}`
export const summaryRef = (id: string) => `refs/rewind-studio/summaries/${id}`
export const remoteSessionRef = (remote: string, id: string) =>
  `refs/rewind-studio/remotes/${remote}/sessions/${id}`
export const remoteSummaries = (remote: string) => `refs/rewind-studio/remotes/${remote}/summaries/`

export const SHARE_FILE = 'share.json'
export const LOG_CHUNK = /^log\/(\d{8})\.jsonl$/
export const BACKUP = /^backups\/([0-9a-f]{2})\/([0-9a-f]{64})$/

/** A chunk closes once it holds this many lines or bytes (whichever comes first). */
const CHUNK_LINES = 256
const CHUNK_BYTES = 1024 * 1024

export const logChunkPath = (n: number) => `log/${String(n).padStart(8, '0')}.jsonl`
export const backupPath = (hash: string) => `backups/${hash.slice(0, 2)}/${hash}`

/**
 * The log's lines cut into chunks. A chunk's end depends only on the lines before it, so a log
 * that grew by some lines keeps every earlier chunk as it was, byte for byte.
 */
export function chunkLines(lines: readonly string[]): Buffer[] {
  const chunks: Buffer[] = []
  let current: string[] = []
  let bytes = 0
  for (const line of lines) {
    current.push(line)
    bytes += Buffer.byteLength(line) + 1
    if (current.length >= CHUNK_LINES || bytes >= CHUNK_BYTES) {
      chunks.push(Buffer.from(current.join('\n') + '\n', 'utf8'))
      current = []
      bytes = 0
    }
  }
  if (current.length > 0) chunks.push(Buffer.from(current.join('\n') + '\n', 'utf8'))
  return chunks
}

export const ShareScope = z.union([
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('branch'), leafUuid: z.string().max(200) })
])
export type ShareScope = z.infer<typeof ShareScope>

/** share.json: read from someone else's push, so every field is checked and bounded. */
export const ShareMeta = z.object({
  format: z.literal(1),
  sessionId: z.string().regex(SHARED_ID),
  title: z.string().max(500),
  scope: ShareScope,
  sharedAt: z.string().max(40),
  /** The workspace the session ran in, on the machine that shared it. */
  cwd: z.string().max(4096),
  /** The code's commit (HEAD) and branch when it was shared; null: no commit yet. */
  code: z
    .object({
      commit: z.string().regex(/^[0-9a-f]{40,64}$/),
      branch: z.string().max(255).nullable()
    })
    .nullable(),
  counts: z.object({
    records: z.number().int().nonnegative(),
    turns: z.number().int().nonnegative(),
    files: z.number().int().nonnegative(),
    backups: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    masked: z.number().int().nonnegative()
  })
})
export type ShareMeta = z.infer<typeof ShareMeta>

/** The commit message of a push (its author says who shared it). */
export function shareMessage(meta: ShareMeta): string {
  const code =
    meta.code === null
      ? 'no commit yet'
      : `${meta.code.branch ?? 'detached HEAD'} at ${meta.code.commit.slice(0, 12)}`
  return [
    `Rewind Studio session: ${meta.title || '(no prompt)'}`,
    '',
    `${meta.counts.turns} turns, ${meta.counts.files} files, ${meta.counts.backups} backups; ${meta.counts.masked} secrets masked.`,
    `Code: ${code}.`,
    '',
    `Rewind-Session: ${meta.sessionId}`,
    ''
  ].join('\n')
}
