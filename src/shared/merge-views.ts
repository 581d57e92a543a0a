// What a merge's preview shows (core/merge): the CLI's `merge --dry-run --json` prints it, the
// app's "Bring into this branch…" dialog draws it. Per file: what the other branch did, whether
// it merges cleanly or conflicts (and why), and for a conflict both sides to choose from.
import * as z from 'zod'

export const MergeConflictKind = z.enum([
  'content',
  'added-both',
  'deleted-here',
  'deleted-there',
  'binary',
  'too-large',
  'no-git'
])
export type MergeConflictKind = z.infer<typeof MergeConflictKind>

export const MergePreviewFile = z.object({
  path: z.string(),
  change: z.enum(['added', 'deleted', 'modified', 'renamed']),
  renamedFrom: z.string().optional(),
  /** This branch renamed the file from this path (where the branches part) to `path`. */
  renamedHere: z.string().optional(),
  /** A rename's (either side's) percent of similar content: 100 is the same content. */
  similarity: z.number().int().optional(),
  status: z.enum(['clean', 'conflict']),
  conflict: MergeConflictKind.optional(),
  /** Conflicting hunks (a text conflict). */
  hunks: z.number().int().optional(),
  /**
   * The sides as text, for the side-by-side view (conflicts only; null: no file, or binary):
   * this branch's file, the other branch's, and the merge with its conflicts marked.
   */
  ours: z.string().nullable().optional(),
  theirs: z.string().nullable().optional(),
  marked: z.string().nullable().optional()
})
export type MergePreviewFile = z.infer<typeof MergePreviewFile>

export const MergePreview = z.object({
  /** The node brought in (its last record), and where the two branches part. */
  fromUuid: z.string(),
  baseUuid: z.string().nullable(),
  /** A cherry-pick of that turn's changes. */
  turnUuid: z.string().optional(),
  files: z.array(MergePreviewFile),
  clean: z.number().int(),
  conflicts: z.number().int(),
  /** Paths whose content there is not known: left alone. */
  unmergeable: z.array(z.object({ path: z.string(), reason: z.string() })),
  /**
   * The conversation a merge would bring: an exploration's report, or a summary to make; `here`:
   * this branch holds its conclusions already (the report, or an earlier merge of that node).
   */
  conversation: z.object({
    source: z.enum(['report', 'summary', 'here']),
    report: z.string().nullable()
  })
})
export type MergePreview = z.infer<typeof MergePreview>

/** A conflict's choice as the page sends it. */
export const MergeResolution = z.discriminatedUnion('take', [
  z.object({ path: z.string(), take: z.literal('ours') }),
  z.object({ path: z.string(), take: z.literal('theirs') }),
  z.object({ path: z.string(), take: z.literal('edited'), content: z.string().max(8_000_000) })
])
export type MergeResolution = z.infer<typeof MergeResolution>
