// What sharing a session through git shows (core/share, the CLI's `share`, the app's Share… and
// Shared sessions): zod schemas, the one source of these shapes for the contract. Every string
// that came from another machine (titles, names, branches) reaches the page masked and escaped.
import * as z from 'zod'

/** A shared session's id as it may appear in a ref and a folder name: nothing that climbs or splits. */
export const SHARED_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

/** A git remote's name as `git remote` lists it: never an option, never a URL. */
export const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/

export const ShareRedaction = z.object({
  /** Where the masked piece was: `log line 12 (assistant)`, `backup of config/.env`. */
  where: z.string(),
  /** The piece as it is sent: `sk-ant-…(108 chars, masked)`. */
  shown: z.string(),
  /** A little of the text around it, masked, on one line. */
  context: z.string()
})
export type ShareRedaction = z.infer<typeof ShareRedaction>

export const ShareCode = z.object({ commit: z.string(), branch: z.string().nullable() }).nullable()

/** What a push would send, before anything leaves the machine. */
export const SharePreview = z.object({
  sessionId: z.string(),
  title: z.string(),
  remote: z.string(),
  /** The repository's remotes, to choose from. */
  remotes: z.array(z.string()),
  ref: z.string(),
  scope: z.enum(['all', 'branch']),
  /** The code's commit (HEAD) and branch now. */
  code: ShareCode,
  records: z.number().int(),
  turns: z.number().int(),
  files: z.number().int(),
  backups: z.number().int(),
  /** Bytes of the log and the backups, as sent (masked). */
  bytes: z.number().int(),
  /** Backups the records name that retention pruned: not sent, not restorable elsewhere. */
  missingBackups: z.number().int(),
  /** The last push of this session (its commit), or null for a first push. */
  sharedBefore: z.string().nullable(),
  /** Objects and their bytes (uncompressed) the last push did not hold: what goes over. */
  newObjects: z.number().int(),
  newBytes: z.number().int(),
  /** Pieces masked in what is sent, the first of them listed. */
  masked: z.number().int(),
  redactions: z.array(ShareRedaction)
})
export type SharePreview = z.infer<typeof SharePreview>

export const ShareResult = SharePreview.extend({
  commit: z.string(),
  /** What git said it wrote to the remote. */
  sent: z.object({ objects: z.number().int(), bytes: z.number().int() })
})
export type ShareResult = z.infer<typeof ShareResult>

/** A session shared on a remote, as `share list` and Shared sessions show it. */
export const SharedSession = z.object({
  sessionId: z.string(),
  title: z.string(),
  /** The push's author, `Name <email>`. */
  sharedBy: z.string(),
  sharedAt: z.string(),
  code: ShareCode,
  turns: z.number().int(),
  files: z.number().int(),
  backups: z.number().int(),
  bytes: z.number().int(),
  /** A copy pulled here already (Open shows it at once). */
  pulled: z.boolean(),
  /** Pushed from this machine's session of that id. */
  ours: z.boolean()
})
export type SharedSession = z.infer<typeof SharedSession>

export const SharedList = z.object({
  remote: z.string(),
  remotes: z.array(z.string()),
  sessions: z.array(SharedSession),
  /** Refs under refs/rewind-studio/ the remote has that are no session (bad names): not listed. */
  skipped: z.number().int()
})
export type SharedList = z.infer<typeof SharedList>

/** A pulled session, shown read-only (AppInfo.shared): who shared it, when, on which code. */
export const SharedInfo = z.object({
  sessionId: z.string(),
  remote: z.string(),
  /** The share's commit (refs/rewind-studio/sessions/<id> when it was pulled). */
  commit: z.string(),
  sharedBy: z.string(),
  sharedAt: z.string(),
  code: ShareCode,
  /** Whether this repository holds the code's commit. */
  codeHere: z.boolean().optional(),
  /** The workspace it ran in, on the machine that shared it. */
  cwd: z.string(),
  pulledAt: z.string()
})
export type SharedInfo = z.infer<typeof SharedInfo>
