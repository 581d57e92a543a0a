// The session log's record types (format version 1). docs/session-format.md documents each one;
// this module is the single source of their shapes: zod schemas, and types inferred from them.
//
// Each record's schema is built when it first parses (z.lazy): a zod schema costs ~25 µs of CPU
// to build, the ~180 below ~15 ms at the start of every process that loads them, and a process
// appends one or two kinds of record (`summarize` a compaction; bench/summarize-process.ts).
// Readers of a log never load this module: loading checks records by hand (record-checks.ts).
import * as z from 'zod'
import { MessageContent, RewindMode } from '../../shared/messages'

export { SESSION_FORMAT_VERSION } from './format-version'

const Base = {
  uuid: z.string().min(1),
  parentUuid: z.string().min(1).nullable(),
  timestamp: z.string()
}

/** First line of every session file. Not a node of the conversation tree. */
export const SessionHeader = z.lazy(() =>
  z.looseObject({
    type: z.literal('session'),
    ...Base,
    version: z.number().int(),
    sessionId: z.string(),
    cwd: z.string(),
    /**
     * The session and node this one was forked from (fork.ts): its records up to `leafUuid` were
     * copied here under the same uuids. `file`: the origin's session file, where it was then.
     */
    forkedFrom: z
      .object({
        sessionId: z.string(),
        leafUuid: z.string().nullable(),
        file: z.string().optional()
      })
      .optional(),
    /**
     * Another tool's session this one continues (continue-foreign.ts): its file, format and id, and
     * the record continued after (null: its leaf then).
     */
    continuedFrom: z
      .object({
        file: z.string(),
        format: z.string(),
        sessionId: z.string(),
        nodeUuid: z.string().nullable()
      })
      .optional()
  })
)

export const UserRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('user'),
    ...Base,
    message: z.looseObject({ role: z.literal('user'), content: MessageContent }),
    /** Structured results of tool calls answered in this message, keyed by tool_use id. */
    toolDetails: z.record(z.string(), z.unknown()).optional(),
    /** A message the harness wrote (a reminder, a warning): never a checkpoint. */
    isMeta: z.boolean().optional(),
    /**
     * What the person typed, as the tool that wrote the record shows it, where the content wraps
     * it in that tool's tags (a foreign reader's: Claude Code's `<bash-input>` is `! cmd`, a slash
     * command `/name args`). The prompt's text wherever one is shown.
     */
    typedText: z.string().optional()
  })
)

export const AssistantRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('assistant'),
    ...Base,
    message: z.looseObject({
      role: z.literal('assistant'),
      content: MessageContent,
      model: z.string().optional(),
      stop_reason: z.string().nullable().optional(),
      usage: z.looseObject({}).optional()
    })
  })
)

/** Moves the leaf back before a checkpoint (conversation or both), or marks a code-only restore. */
export const RewindRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('rewind'),
    ...Base,
    /** The leaf after the rewind: the checkpoint prompt's parent (null: before the first). */
    leafUuid: z.string().nullable(),
    /** The prompt record of the checkpoint rewound to. */
    checkpointUuid: z.string(),
    mode: RewindMode,
    /** The restore journal holding what the rewind overwrote, for undo. */
    restoreId: z.string().optional()
  })
)

/**
 * Moves the leaf without a rewind: switching to another branch, continuing from any node, and
 * the timeline's undo and redo (docs/session-format.md, "The timeline").
 */
export const NavigateRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('navigate'),
    ...Base,
    leafUuid: z.string().nullable(),
    /**
     * 'undo-rewind' undoes any action of the timeline (its name is from when only rewinds could).
     * 'summarize': Summarize from / up to here, its summary the new leaf (an action Undo reverses).
     */
    reason: z.enum(['switch-branch', 'continue', 'undo-rewind', 'redo', 'summarize']),
    /**
     * The restore journal: the one this move wrote (switch-branch, continue, redo), or for
     * undo-rewind the one it reversed.
     */
    restoreId: z.string().optional(),
    /** For redo: the action done again (its first restoreId). */
    redoes: z.string().optional()
  })
)

export const BranchSummaryRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('branch_summary'),
    ...Base,
    /** Where the summarised branch left the tree: an entry uuid, or "root". */
    fromId: z.string(),
    summary: z.string(),
    details: z.unknown().optional()
  })
)

/**
 * The older part of a branch replaced by a summary in what the model sees: on the path, the model
 * gets this summary, then the records from `firstKeptUuid` on (context.ts). The records it
 * replaces stay in the file and in the graph. Written by automatic compaction (trigger auto, or
 * overflow after the API refused a prompt as too long), /compact and "Summarize up to here"
 * (manual).
 */
export const CompactionRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('compaction'),
    ...Base,
    summary: z.string(),
    /** The first record on the path kept verbatim after the summary; null: none is kept. */
    firstKeptUuid: z.string().nullable(),
    /** The context's size in tokens before it was compacted (API usage, or an estimate). */
    tokensBefore: z.number().int().nonnegative(),
    trigger: z.enum(['auto', 'manual', 'overflow']),
    /** Files read and modified in the part summarized, the instructions given: not sent. */
    details: z.unknown().optional()
  })
)

export const CustomMessageRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('custom_message'),
    ...Base,
    customType: z.string(),
    /** Hidden messages reach the model but are not shown in the transcript by default. */
    hidden: z.boolean(),
    content: MessageContent,
    details: z.unknown().optional()
  })
)

/**
 * What another branch brought into this one (core/merge): its conclusions (a summary, or an
 * agent exploration's retained report) and/or its code (a three-way merge of its files, or of one
 * turn's changes: a cherry-pick). A conversation node the model sees, naming where it came from;
 * its own turn for the files (its file_change records, source `merge`, name it as their
 * checkpoint), and one action of the timeline (its restore journal), which Undo reverses.
 */
const mergeFields = () => ({
  /** The record brought in: the last record of that node on its branch. */
  fromUuid: z.string(),
  /** Where the two branches part (their last common record; null: they share none). */
  baseUuid: z.string().nullable(),
  /** A cherry-pick: the prompt whose turn's changes alone were merged. */
  turnUuid: z.string().optional(),
  /** The conversation brought in; absent when only files were. */
  summary: z.string().optional(),
  /** Where the summary comes from: an exploration's retained report, or a branch summary. */
  summarySource: z.enum(['report', 'summary']).optional(),
  /** The files merged (the first MAX_MERGE_FILES; `moreFiles` counts the rest). */
  files: z.array(
    z.object({
      path: z.string(),
      change: z.enum(['added', 'deleted', 'modified', 'renamed']),
      /** A rename: the path it had where the branches part. */
      renamedFrom: z.string().optional(),
      /** This branch had renamed the file from this path: their change was merged into `path`. */
      renamedHere: z.string().optional(),
      /** clean: merged without conflict; else how its conflict was resolved. */
      resolution: z.enum(['clean', 'ours', 'theirs', 'edited'])
    })
  ),
  moreFiles: z.number().int().min(0).optional(),
  /** The restore journal of the apply (undo reverses it). */
  restoreId: z.string(),
  details: z.unknown().optional()
})

export const MergeRecord = z.lazy(() =>
  z.looseObject({ type: z.literal('merge'), ...Base, ...mergeFields() })
)

/** A merge as the rewind engine's journal holds it until it is recorded (its uuid chosen first). */
export const MergeIntent = z.lazy(() => z.object({ uuid: z.string().min(1), ...mergeFields() }))
export type MergeIntent = z.infer<typeof MergeIntent>

/** Files a merge record lists at most; the rest are counted in `moreFiles`. */
export const MAX_MERGE_FILES = 500

/** A bookmark on a node; a null label removes it. */
export const LabelRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('label'),
    ...Base,
    targetUuid: z.string(),
    label: z.string().nullable()
  })
)

/** What another tool's log says a change did to a file (FileChangeRecord.action). */
export const FileChangeAction = z.enum(['added', 'updated', 'deleted', 'moved-away', 'moved-here'])
export type FileChangeAction = z.infer<typeof FileChangeAction>

/**
 * One file's change during one checkpoint (turn): its content before the turn first touched it
 * and after the turn's last change. Hashes name blobs in the workspace's file-history store;
 * null means the file did not exist.
 */
export const FileChangeRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('file_change'),
    ...Base,
    checkpointUuid: z.string(),
    /** Workspace-relative, forward slashes. */
    path: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
    /**
     * The file's permission bits (mode & 0o7777) with `before` and with `after`, where it existed:
     * a restore that recreates the file gives it these (a blob is 0600 whatever the file's mode).
     * Absent in records from before they were kept.
     */
    beforeMode: z.number().int().optional(),
    afterMode: z.number().int().optional(),
    /**
     * The content after the change is unknown (`after` is null then, and means nothing): read from
     * another tool's log that keeps only the content before each change (Claude Code, after a
     * branch's last turn). Never written by Rewind Studio.
     */
    afterUnknown: z.literal(true).optional(),
    /**
     * The content before the change is unknown too (`before` is null then, and means nothing: never
     * "the file did not exist"): read from another tool's log that names the files it changed but
     * keeps no content of them (Codex CLI's patches). Never written by Rewind Studio.
     */
    beforeUnknown: z.literal(true).optional(),
    /**
     * What the other tool's log says it did to the file, where it keeps no content that would
     * show it (Codex CLI's patch: a file added, updated, deleted, or moved away or here).
     */
    action: FileChangeAction.optional(),
    /**
     * The folders the change made (workspace-relative, outermost first): the new folders a Write
     * put the file in, or those a command made (on its first record under each, else its first).
     * A rewind past the change removes those of them it leaves empty. Absent in records from
     * before they were kept, and where the change made none.
     */
    createdFolders: z.array(z.string()).optional(),
    /** What changed it: a tool name (Write, Edit, Bash...); see isRestoreChange for older logs. */
    source: z.string(),
    /**
     * In a fork (fork.ts): the uuid of the origin's record this one copies. The fork did not make
     * that change: it took the file's state over when it was forked (its time is the fork's), so
     * other sessions do not count it as a change of the fork's (rewind/other-sessions.ts).
     */
    copyOf: z.string().optional()
  })
)

/**
 * The git commits made in the workspace's repository during a turn (by the agent's Bash or by
 * the user), seen as HEAD before and after it (share/commit-links.ts). Does not move the leaf;
 * the tree keeps it as a record of the turn it names. At most 50 commits listed; `more` counts
 * the rest.
 */
export const CommitLinkRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('commit_link'),
    ...Base,
    checkpointUuid: z.string(),
    /** HEAD when the turn started (null: no commit yet) and when it ended. */
    headBefore: z.string().nullable(),
    headAfter: z.string(),
    /** The branch HEAD was on at the end (null: detached). */
    branch: z.string().nullable(),
    commits: z.array(
      z.object({ oid: z.string(), subject: z.string(), author: z.string(), date: z.string() })
    ),
    more: z.number().int().nonnegative()
  })
)

/**
 * What a command changed during one checkpoint that file history could not back up or record
 * (a file over the size cap, one git ignores past the budget, a path too long to look at, the
 * disk full): a rewind across that checkpoint names each as not restored. Entries are files,
 * or folders (ending in '/') for changes named by folder.
 */
export const UntrackedChangesRecord = z.lazy(() =>
  z.looseObject({
    type: z.literal('untracked_changes'),
    ...Base,
    checkpointUuid: z.string(),
    changes: z.array(z.object({ path: z.string(), reason: z.string() })),
    /** Entries left out past the first MAX_UNTRACKED_ENTRIES. */
    more: z.number().int().min(0).optional(),
    /** What changed them: a tool name (Bash). */
    source: z.string()
  })
)

/** Entries an untracked_changes record holds at most; the rest are counted in `more`. */
export const MAX_UNTRACKED_ENTRIES = 200

/** Builds no record's schema until it parses one of its kind. */
export const KnownRecord = z.discriminatedUnion('type', [
  SessionHeader,
  UserRecord,
  AssistantRecord,
  RewindRecord,
  NavigateRecord,
  BranchSummaryRecord,
  CompactionRecord,
  CustomMessageRecord,
  MergeRecord,
  LabelRecord,
  FileChangeRecord,
  UntrackedChangesRecord
])

export type SessionHeader = z.infer<typeof SessionHeader>
export type UserRecord = z.infer<typeof UserRecord>
export type AssistantRecord = z.infer<typeof AssistantRecord>
export type RewindRecord = z.infer<typeof RewindRecord>
export type NavigateRecord = z.infer<typeof NavigateRecord>
export type BranchSummaryRecord = z.infer<typeof BranchSummaryRecord>
export type CompactionRecord = z.infer<typeof CompactionRecord>
export type CustomMessageRecord = z.infer<typeof CustomMessageRecord>
export type MergeRecord = z.infer<typeof MergeRecord>
export type LabelRecord = z.infer<typeof LabelRecord>
export type FileChangeRecord = z.infer<typeof FileChangeRecord>
export type CommitLinkRecord = z.infer<typeof CommitLinkRecord>
export type UntrackedChangesRecord = z.infer<typeof UntrackedChangesRecord>
export type KnownRecord = z.infer<typeof KnownRecord>
