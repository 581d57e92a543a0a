// The shapes the main process shows the renderer: projections of the session tree, the agent's
// stream, rewind previews and settings. Zod schemas first; each TypeScript type is inferred.
import * as z from 'zod'
import { SharedInfo } from './share-views'
import { CompactionThreshold, ContextWindow, SummaryOnLeave } from './summary-settings'
import { ContentBlock, MessageContent, PermissionMode, RewindMode } from './messages'
import { MAX_PERMISSION_DETAIL_CHARS } from './permission-limit'

export { CompactionThreshold, ContextWindow, SummaryOnLeave }

export const PermissionRequest = z.object({
  requestId: z.string(),
  tool: z.string(),
  /** One line saying what would happen: "Edit(config.py)", "Bash(npm test … +2 lines)". */
  summary: z.string(),
  /**
   * What the user approves, whole: every line of a Bash command, the content a Write puts in,
   * an Edit's old and new text. Shown with control characters escaped and never masked, so
   * what runs is what was read. Null when the summary says it all.
   */
  detail: z
    .object({ label: z.string(), text: z.string().max(MAX_PERMISSION_DETAIL_CHARS) })
    .nullable()
})
export type PermissionRequest = z.infer<typeof PermissionRequest>

/** How full the model's context is: tokens of the next request against the model's window. */
export const ContextUsage = z.object({
  tokens: z.number().int().nonnegative(),
  window: z.number().int().positive(),
  /** Part of `tokens` is an estimate (about 4 characters a token), not the API's count. */
  estimated: z.boolean()
})
export type ContextUsage = z.infer<typeof ContextUsage>

/** Other tools whose sessions are read (core/session/foreign/, one reader each). */
export const FOREIGN_FORMATS = [
  'claude-code',
  'pi',
  'oh-my-pi',
  'codex',
  'gemini-cli',
  'opencode'
] as const
export const ForeignFormat = z.enum(FOREIGN_FORMATS)
export type ForeignFormat = z.infer<typeof ForeignFormat>

export const AppInfo = z.object({
  version: z.string(),
  workspace: z.string(),
  sessionId: z.string(),
  sessionFile: z.string(),
  /** Set when another process holds the session: nothing can be sent or rewound. */
  readOnlyReason: z.string().nullable(),
  /** The scripted demo model is driving the agent (no API key). */
  demo: z.boolean(),
  model: z.string(),
  /** Warnings to show once (another session in this workspace, a torn session line...). */
  notices: z.array(z.string()),
  /** The agent is running a turn: a page opened mid-run shows Stop, not Send. */
  running: z.boolean(),
  /** Questions the agent asked before this page connected, still waiting for an answer. */
  pendingPermissions: z.array(PermissionRequest),
  /** The context's size now; `context_usage` agent events bring it up to date. */
  contextUsage: ContextUsage,
  /**
   * Set when the session shown is another tool's (Claude Code, pi, oh-my-pi, Codex CLI, Gemini
   * CLI, OpenCode), read-only: the
   * renderer offers "Continue in Rewind Studio" instead of the composer.
   */
  foreign: z
    .object({
      format: ForeignFormat,
      /** The session file, which Rewind Studio never writes. */
      file: z.string(),
      /** The folder the session recorded as its workspace. */
      cwd: z.string(),
      /** Whether the tool keeps backups of its files ("Restore files here" can work). */
      backups: z.boolean(),
      /** What the tool keeps of the files it changes, said where a restore is offered. */
      keeps: z.string()
    })
    .nullable(),
  /**
   * Set when the session shown was pulled from a git remote (core/share), read-only: who shared
   * it, when, on which code. Continue from here and Fork make a session of one's own from it.
   */
  shared: SharedInfo.nullable().optional()
})
export type AppInfo = z.infer<typeof AppInfo>

/**
 * `exploration`: what an agent explored between its checkpoint and its rewind, drawn under the
 * rewind report it produced (the report is the one node for the rewind). `subagent`: a
 * sub-agent's transcript, a collapsible branch of the tool call that ran it. `merge`: what another
 * branch brought into this one (its summary, its files: core/merge).
 */
export const GraphNodeKind = z.enum([
  'turn',
  'branch_summary',
  'rewind_report',
  'compaction',
  'exploration',
  'subagent',
  'merge'
])
export type GraphNodeKind = z.infer<typeof GraphNodeKind>

/**
 * How a node's turn ended, read from the records: `done` (the model ended its turn), `stopped`
 * (interrupted: cut-off text, or tool calls answered "Interrupted"), `failed` (no answer after
 * the prompt or the tool results: the model call failed, or a stop came before it said anything),
 * `running` (the agent is in it now); `queued` only on the page's node for a parallel run waiting
 * for a place. (Appended last: graph-encoding.ts sends an outcome as its index.)
 */
export const TurnOutcome = z.enum(['done', 'stopped', 'failed', 'running', 'queued'])
export type TurnOutcome = z.infer<typeof TurnOutcome>

/** One node of the branch explorer: a turn (its id is its prompt record's uuid) or a summary. */
export const GraphNode = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  kind: GraphNodeKind,
  /** First line of the prompt or of the summary. */
  title: z.string(),
  timestamp: z.string(),
  /** Files the turn changed (checkpoint badge). */
  filesChanged: z.number().int(),
  onActivePath: z.boolean(),
  /** The last record of the deepest branch through this node: where "Switch to this branch" goes. */
  branchLeafUuid: z.string(),
  label: z.string().nullable(),
  outcome: TurnOutcome
})
export type GraphNode = z.infer<typeof GraphNode>

/**
 * Where the workspace's files stand: the node whose state they hold (the conversation's marker is
 * `leafUuid`). They part after a conversation-only or code-only rewind (docs/ui.md).
 */
export const FilesAt = z.object({
  /** A graph node id; null: the state from before the first prompt. */
  nodeId: z.string().nullable(),
  /**
   * A file the session touched holds something else than that node's state: a hand edit,
   * another session, or a file a restore had to leave alone.
   */
  changedSince: z.boolean()
})
export type FilesAt = z.infer<typeof FilesAt>

/** An action of the timeline that Undo or Redo would act on. */
export const TimelineStep = z.object({
  /** The action's restore id (the timeline entry's id). */
  id: z.string(),
  /** Its name: "Rewind to before prompt 3 (code and conversation)", "Switch to branch …". */
  label: z.string()
})
export type TimelineStep = z.infer<typeof TimelineStep>

export const SessionGraph = z.object({
  sessionId: z.string(),
  /** Parents before children. */
  nodes: z.array(GraphNode),
  leafUuid: z.string().nullable(),
  /** Agent checkpoints: the turn where `checkpoint` was called → the report node it produced. */
  checkpointLinks: z.array(z.object({ from: z.string(), to: z.string() })),
  /** Summaries of a branch left: the node where that branch ended → the summary node. */
  summaryLinks: z.array(z.object({ from: z.string(), to: z.string() })),
  /** Merges: the node brought in (on another branch) → the merge node on this one. */
  mergeLinks: z.array(z.object({ from: z.string(), to: z.string() })).optional(),
  /** True while the last action of the timeline can be undone (`undo` is not null). */
  canUndo: z.boolean(),
  /** Where the files are (the second marker). */
  filesAt: FilesAt,
  /** What Undo would reverse now, or null. */
  undo: TimelineStep.nullable(),
  /** What Redo would apply again now, or null. */
  redo: TimelineStep.nullable()
})
export type SessionGraph = z.infer<typeof SessionGraph>

/** What "Search the session" looks through for one graph node (session:searchIndex). */
export const SearchEntry = z.object({
  nodeId: z.string(),
  /** The prompt's text (empty for a node that is no turn). */
  prompt: z.string(),
  /** Answers, tool names, paths and summaries, one per line. */
  text: z.string()
})
export type SearchEntry = z.infer<typeof SearchEntry>

/** One rewind, branch switch or continue of the session, oldest first (timeline:list). */
export const TimelineEntry = z.object({
  id: z.string(),
  kind: z.enum(['rewind', 'switch-branch', 'continue', 'merge', 'summary']),
  label: z.string(),
  /** The graph node it left the conversation at (clicking the entry selects it); null: the start. */
  nodeId: z.string().nullable(),
  /** When it was first done. */
  timestamp: z.string(),
  /** Undone: Redo can bring it back while nothing newer was done. */
  state: z.enum(['done', 'undone']),
  /**
   * Whether "Undo to here" / "Redo to here" can reach it: false past a step whose leaf moved
   * since (a prompt sent after an undone move, a switch made by hand).
   */
  walkable: z.boolean()
})
export type TimelineEntry = z.infer<typeof TimelineEntry>

/** A prompt of a branch, numbered from 1 along it, as the rewind picker lists them. */
export const CheckpointView = z.object({
  index: z.number().int(),
  /** The prompt record's uuid (its turn's graph node id). */
  uuid: z.string(),
  prompt: z.string(),
  filesChanged: z.number().int()
})
export type CheckpointView = z.infer<typeof CheckpointView>

export const TranscriptEntry = z.object({
  uuid: z.string(),
  /** The graph node (turn or summary) the entry belongs to. */
  nodeId: z.string(),
  role: z.enum(['user', 'assistant', 'summary', 'note']),
  isPrompt: z.boolean(),
  hidden: z.boolean(),
  content: MessageContent,
  timestamp: z.string()
})
export type TranscriptEntry = z.infer<typeof TranscriptEntry>

/** The most entries a page asks for on either side of an anchor (session:transcriptRange). */
export const MAX_TRANSCRIPT_RANGE = 500

/** Entries `start`… of a branch's transcript of `total` entries (session:transcriptRange). */
export const TranscriptWindow = z.object({
  total: z.number().int(),
  start: z.number().int(),
  entries: z.array(TranscriptEntry)
})
export type TranscriptWindow = z.infer<typeof TranscriptWindow>

export const FileDiff = z.object({
  path: z.string(),
  /** Unified diff, current → target (empty when the content is unknown or binary). */
  diff: z.string(),
  /** The file changed outside the agent since the agent last wrote it. */
  outsideChange: z.boolean(),
  /** Why there is no diff to show, when there is a reason to give (another tool kept no after-state). */
  note: z.string().optional()
})
export type FileDiff = z.infer<typeof FileDiff>

/** What a turn's requests cost, as the API reported it on each answer. */
export const TurnUsage = z.object({
  /** Answers in the turn that carry usage (one per request). */
  requests: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cacheReadTokens: z.number().int(),
  cacheCreationTokens: z.number().int(),
  /** The context of the turn's last request: its input, cache reads and writes, and answer. */
  contextTokens: z.number().int()
})
export type TurnUsage = z.infer<typeof TurnUsage>

export const NodeDetail = z.object({
  node: GraphNode,
  entries: z.array(TranscriptEntry),
  /** Files the turn changed, each with its diff (before the turn → after it). */
  files: z.array(FileDiff),
  /** Full text of a branch summary, a compaction or a rewind report. */
  summary: z
    .object({
      text: z.string(),
      startedAt: z.string().nullable(),
      rewoundAt: z.string().nullable(),
      /** Files read (and not modified) and modified in the part summarized. */
      readFiles: z.array(z.string()).optional(),
      modifiedFiles: z.array(z.string()).optional(),
      /** A compaction: the node from which the model sees the turns word for word again. */
      keptFrom: z.object({ nodeId: z.string(), title: z.string() }).nullable().optional()
    })
    .nullable(),
  /** Tokens of the turn's requests, from the API's usage (null: none reported, e.g. scripted). */
  usage: TurnUsage.nullable(),
  /**
   * The node's records as the log holds them, for a raw JSON view: its messages with every field
   * (foreign fields too) and the records of its turn that are not drawn (another tool's progress,
   * system and unknown records). `line`: the line of the file (null when not known).
   */
  raw: z.array(z.object({ line: z.number().int().nullable(), record: z.unknown() })),
  /**
   * The git commits made during the turn (its commit_link records, core/share/commit-links.ts);
   * `here`: this repository holds the commit.
   */
  commits: z
    .array(
      z.object({
        oid: z.string(),
        subject: z.string(),
        author: z.string(),
        date: z.string(),
        here: z.boolean()
      })
    )
    .optional()
})
export type NodeDetail = z.infer<typeof NodeDetail>

/**
 * A file a rewind or switch would change. Its diff comes with the preview for the first few files
 * only; null means it was left out: `rewind:fileDiff` gives it when the user opens the file.
 */
export const PreviewFile = FileDiff.extend({ diff: z.string().nullable() })
export type PreviewFile = z.infer<typeof PreviewFile>

/** One file that differs between the two sides of a compare, a → b. */
export const CompareFile = z.object({
  path: z.string(),
  change: z.enum(['added', 'deleted', 'modified']),
  /**
   * Unified diff a → b: empty when a side is binary, too big or unknown (see `note`); null when
   * this view left it out (a large compare): `compare:file` gives it.
   */
  diff: z.string().nullable(),
  /** Why a side's content is not known (its backup was pruned), else null. */
  note: z.string().nullable()
})
export type CompareFile = z.infer<typeof CompareFile>

export const CompareSide = z.object({
  /** The node id, or 'current': the files on disk now and the conversation at the leaf. */
  ref: z.string(),
  title: z.string()
})
export type CompareSide = z.infer<typeof CompareSide>

/** Two nodes (or a node and the current files): the files as each left them, both conversations. */
export const CompareView = z.object({
  a: CompareSide,
  b: CompareSide,
  files: z.array(CompareFile),
  /**
   * What the sides' files are made of when it is less than how each node left them: another
   * tool's backups, as its reader says what they hold (ForeignReader.keeps: Claude Code's are
   * taken before each change, shared/backup-notes.ts). Null for our own sessions.
   */
  caveat: z.string().nullable(),
  conversation: z.object({
    /** The graph node both conversations last share; null when they share none. */
    ancestorId: z.string().nullable(),
    /** Each side's messages after the shared part, down to the side's end. */
    a: z.array(TranscriptEntry),
    b: z.array(TranscriptEntry)
  })
})
export type CompareView = z.infer<typeof CompareView>

export const RewindPreview = z.object({
  restore: z.array(PreviewFile),
  delete: z.array(PreviewFile),
  recreate: z.array(PreviewFile),
  /** Files changed since by another session in this workspace: left alone unless confirmed. */
  conflicts: z.array(z.string()),
  /** Messages left on the branch after a conversation rewind. */
  messagesKept: z.number().int().nullable()
})
export type RewindPreview = z.infer<typeof RewindPreview>

export const RewindResult = z.object({
  restored: z.array(z.string()),
  deleted: z.array(z.string()),
  recreated: z.array(z.string()),
  /** Folders the session had made that the restore removed, left empty by it. */
  removedFolders: z.array(z.string()).optional(),
  /** Folders it made again (an undo's: those the restore it reversed removed). */
  madeFolders: z.array(z.string()).optional(),
  /** The prompt offered again after a conversation rewind. */
  prefill: z.string().nullable(),
  /** The branch_summary of the branch the move left, when one was asked for and made. */
  summaryUuid: z.string().nullable().optional()
})
export type RewindResult = z.infer<typeof RewindResult>

/** A file a rescue restore leaves as it is, and why (its backup is missing). */
export const SkippedFile = z.object({ path: z.string(), reason: z.string() })
export type SkippedFile = z.infer<typeof SkippedFile>

/**
 * A rescue restore of a foreign session's files from its tool's own backups (Claude Code's
 * file-history), previewed: as a rewind's preview, plus the files that cannot be restored.
 */
export const RescuePreview = RewindPreview.extend({
  /** The prompt the files go back to before, and its number on its branch. */
  promptUuid: z.string(),
  promptIndex: z.number().int(),
  skipped: z.array(SkippedFile)
})
export type RescuePreview = z.infer<typeof RescuePreview>

export const RescueResult = RewindResult.extend({
  /** Files left as they are (their backup is missing): the restore is partial when any is. */
  skipped: z.array(SkippedFile)
})
export type RescueResult = z.infer<typeof RescueResult>

/** The tool that wrote a session (core/sources/homes.ts says where each keeps them). */
export const SessionSource = z.enum(['rewind-studio', ...FOREIGN_FORMATS])
export type SessionSource = z.infer<typeof SessionSource>

/** Each tool by the name it goes by, for badges and messages. */
export const TOOL_NAMES: Record<SessionSource, string> = {
  'rewind-studio': 'Rewind Studio',
  'claude-code': 'Claude Code',
  pi: 'pi',
  'oh-my-pi': 'oh-my-pi',
  codex: 'Codex CLI',
  'gemini-cli': 'Gemini CLI',
  opencode: 'OpenCode'
}

export const SessionSummary = z.object({
  sessionId: z.string(),
  file: z.string(),
  source: SessionSource,
  createdAt: z.string(),
  /** The latest record's time (the file's mtime when no record has one). */
  lastActivity: z.string(),
  /** The session's title record (Claude Code's, pi's, oh-my-pi's), else its first prompt. */
  title: z.string().nullable(),
  firstPrompt: z.string().nullable(),
  /** Prompts a person typed, on every branch. */
  prompts: z.number().int(),
  current: z.boolean(),
  /** Why the file cannot be opened as a session (empty, no header); null for a session. */
  problem: z.string().nullable()
})
export type SessionSummary = z.infer<typeof SessionSummary>

/**
 * A step of the workspace's session list while session:list builds it (a cold index, built in
 * steps: core/sources/stepped-listing.ts): the sessions found since the step before, in the order
 * found, and how many of the workspace's session files are done. session:list's answer is the
 * whole list, in its order, and ends the filling.
 */
export const SessionListStep = z.object({
  workspace: z.string(),
  sessions: z.array(SessionSummary),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative()
})
export type SessionListStep = z.infer<typeof SessionListStep>

/** Instructions a user adds to a summary request. */
export const SummaryInstructions = z.string().max(10_000)

/** A move's choice for the branch it leaves: no summary, or one (with the user's instructions). */
export const LeaveChoice = z
  .object({ mode: z.enum(['none', 'summarize']), instructions: SummaryInstructions.optional() })
  .strict()
export type LeaveChoice = z.infer<typeof LeaveChoice>

/** A project found in the homes of the tools (All projects). */
export const ProjectSummary = z.object({
  cwd: z.string(),
  sessions: z.number().int(),
  lastActivity: z.string(),
  /** Each tool's folder of the project's sessions. */
  folders: z.array(
    z.object({ source: SessionSource, folder: z.string(), sessions: z.number().int() })
  )
})
export type ProjectSummary = z.infer<typeof ProjectSummary>

/** A workspace opened before (settings `recentWorkspaces`), newest first, with its session count. */
export const RecentWorkspace = z.object({
  cwd: z.string(),
  sessions: z.number().int(),
  current: z.boolean(),
  /** Why it cannot be opened now (gone, refused); null when it can. */
  problem: z.string().nullable()
})
export type RecentWorkspace = z.infer<typeof RecentWorkspace>

/** The folders under a typed path's parent whose names start as it ends (Open folder… field). */
export const FolderCompletion = z.object({
  /** The folder listed (the typed path up to its last /). */
  parent: z.string(),
  folders: z.array(z.string()),
  /** More folders matched than were listed. */
  truncated: z.boolean()
})
export type FolderCompletion = z.infer<typeof FolderCompletion>

export const Settings = z.object({
  /** The model asked for (what the settings save); AppInfo.model is the one answering. */
  model: z.string(),
  permissionMode: PermissionMode,
  checkpointEnabled: z.boolean(),
  compactionThreshold: CompactionThreshold,
  contextWindow: ContextWindow,
  summaryOnLeave: SummaryOnLeave,
  /** Bash confined to the workspace: writes only inside it, no network (setting bash.sandbox). */
  bashSandbox: z.boolean(),
  /** Why Bash cannot run sandboxed on this machine; null where it can. */
  bashSandboxUnavailable: z.string().nullable(),
  /** Where the API key comes from; the key itself never reaches the renderer. */
  apiKeySource: z.enum(['env', 'settings', 'none']),
  /** Set where the key store is weak (Linux basic_text backend) or unavailable. */
  apiKeyWarning: z.string().nullable()
})
export type Settings = z.infer<typeof Settings>

export const SettingsUpdate = z.object({
  model: z.string().min(1).max(500).optional(),
  permissionMode: PermissionMode.optional(),
  checkpointEnabled: z.boolean().optional(),
  compactionThreshold: CompactionThreshold.optional(),
  contextWindow: ContextWindow.optional(),
  summaryOnLeave: SummaryOnLeave.optional(),
  bashSandbox: z.boolean().optional(),
  /** A new key (empty string clears it). */
  apiKey: z.string().max(1000).optional()
})
export type SettingsUpdate = z.infer<typeof SettingsUpdate>

export const ExportFormat = z.enum(['md', 'html', 'json'])
export type ExportFormat = z.infer<typeof ExportFormat>

/**
 * The most an export hands the page over the contract, in bytes of UTF-8 (a bigger one is for
 * `rewind-studio export`, which writes a file of any size).
 */
export const MAX_EXPORT_BYTES = 32 * 1024 * 1024

/** A rendered export (core/export) the page saves as a file: the browser's download, Electron's. */
export const ExportedFile = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  content: z.string()
})
export type ExportedFile = z.infer<typeof ExportedFile>

/** What the agent loop streams while it runs. */
export const AgentEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), running: z.boolean() }),
  /** A message began streaming; `id` is the uuid it will have in the session. */
  z.object({
    type: z.literal('message_start'),
    id: z.string(),
    role: z.enum(['user', 'assistant'])
  }),
  z.object({
    type: z.literal('block_delta'),
    messageId: z.string(),
    index: z.number().int(),
    blockType: z.enum(['text', 'thinking', 'tool_use']),
    text: z.string()
  }),
  /** A message is complete and in the session. */
  z.object({
    type: z.literal('message_end'),
    id: z.string(),
    role: z.enum(['user', 'assistant']),
    content: z.array(ContentBlock)
  }),
  z.object({
    type: z.literal('tool_start'),
    toolUseId: z.string(),
    name: z.string(),
    input: z.unknown()
  }),
  /**
   * A running tool's output so far, as people watch it (Bash): its last lines, keys masked,
   * at most a few times a second (core/agent/tools/live-output.ts). tool_end gives the result.
   */
  z.object({
    type: z.literal('tool_output'),
    toolUseId: z.string(),
    /** When the tool started, for the elapsed time shown beside it. */
    startedAt: z.string(),
    text: z.string()
  }),
  z.object({
    type: z.literal('tool_end'),
    toolUseId: z.string(),
    isError: z.boolean(),
    text: z.string()
  }),
  z.object({
    type: z.literal('notice'),
    level: z.enum(['info', 'warning', 'error']),
    message: z.string()
  }),
  /**
   * A summary or compaction is being written: how many characters of it so far (at most a few
   * times a second). Stop (agent:stop) cancels it; status running false ends it.
   */
  z.object({ type: z.literal('summary_progress'), chars: z.number().int().nonnegative() }),
  /**
   * A restore (rewind, switch, continue, undo, redo, merge) is writing files: how many of how
   * many (at most ten times a second, the last file at once).
   */
  z.object({
    type: z.literal('restore_progress'),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative()
  }),
  /** The context's size changed: an answer came (API usage), or a compaction shrank it. */
  z.object({ type: z.literal('context_usage'), usage: ContextUsage })
])
export type AgentEvent = z.infer<typeof AgentEvent>

export { RewindMode }
