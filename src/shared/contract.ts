// The IPC contract: every request channel with its argument and result schemas, and every event
// main → renderer with its payload schema. Both transports (Electron IPC, WebSocket) and both
// sides (handlers in src/core/studio, the renderer's bridge) take their types from here.
import * as z from 'zod'
import { GraphUpdate } from './graph-encoding'
import { LabelText } from './label-limit'
import { RewindMode } from './messages'
import { promptSizeProblem } from './prompt-limit'
import {
  AgentEvent,
  AppInfo,
  LeaveChoice,
  CheckpointView,
  CompareView,
  ExportFormat,
  ExportedFile,
  FileDiff,
  FolderCompletion,
  NodeDetail,
  PermissionRequest,
  ProjectSummary,
  RecentWorkspace,
  RescuePreview,
  RescueResult,
  RewindPreview,
  RewindResult,
  SearchEntry,
  SessionGraph,
  SessionListStep,
  SessionSummary,
  Settings,
  SettingsUpdate,
  SummaryInstructions,
  TimelineEntry,
  TranscriptEntry,
  TranscriptWindow,
  MAX_TRANSCRIPT_RANGE
} from './views'
import { REMOTE_NAME, SHARED_ID, SharePreview, ShareResult, SharedList } from './share-views'
import { MergePreview, MergeResolution } from './merge-views'
import { MAX_CHECK_CHARS, MAX_PARALLEL_RUNS, RunsDiskUse, RunsView } from './parallel-views'

const Empty = z.object({}).strict()
const Ok = z.object({ ok: z.literal(true) })
const Uuid = z.string().min(1).max(200)
/** A side of a compare: a node, or 'current' (the files on disk, the conversation at the leaf). */
const CompareRef = z.union([z.literal('current'), Uuid])
/** A prompt: its limit is in bytes of UTF-8, not characters (prompt-limit.ts). */
const Prompt = z
  .string()
  .min(1)
  .check((ctx) => {
    const problem = promptSizeProblem(ctx.value)
    if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value })
  })

const RemoteName = z.string().regex(REMOTE_NAME)
const ShareRequest = z
  .object({
    scope: z.enum(['all', 'branch']),
    nodeId: Uuid.optional(),
    remote: RemoteName.optional()
  })
  .strict()

function channel<A extends z.ZodType, R extends z.ZodType>(args: A, result: R) {
  return { args, result }
}

export const requests = {
  'app:info': channel(Empty, AppInfo),
  /**
   * A warning app:info carries (No API key…) dismissed on a page: app:info leaves it out for every
   * page of this host from then on, until the host stops giving it.
   */
  'notice:dismiss': channel(z.object({ message: z.string().min(1).max(65_536) }).strict(), Ok),
  /** The workspace's sessions from every source (ours and every other tool's read), newest first. */
  'session:list': channel(Empty, z.array(SessionSummary)),
  /** Every project found in the homes of the tools (All projects), newest first. */
  'projects:list': channel(Empty, z.array(ProjectSummary)),
  'session:open': channel(z.object({ sessionId: Uuid }).strict(), AppInfo),
  'session:new': channel(Empty, AppInfo),
  /**
   * Shows another tool's session (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode) read-only, followed while it
   * grows. Only a file the discovery lists (in a project folder of a known home) is opened.
   */
  'session:openFile': channel(z.object({ file: z.string().min(1).max(4096) }).strict(), AppInfo),
  /** Continue in Rewind Studio: a new session of ours holding the path to a node of the shown one. */
  'session:continueForeign': channel(z.object({ nodeId: Uuid }).strict(), AppInfo),
  /** "Restore files here": the shown foreign session's files as its backups say, before a prompt. */
  'rescue:preview': channel(z.object({ nodeId: Uuid }).strict(), RescuePreview),
  'rescue:apply': channel(z.object({ nodeId: Uuid }).strict(), RescueResult),
  /** The whole graph and the whole transcript of a branch, as objects (scripts, tests). */
  'session:graph': channel(Empty, SessionGraph),
  'session:transcript': channel(
    z.object({ leafUuid: Uuid.nullable() }).strict(),
    z.array(TranscriptEntry)
  ),
  /**
   * The graph in its compact form (shared/graph-encoding.ts): a delta from version `since` when
   * the studio still knows it, else the whole graph. What the page uses.
   */
  'session:graphUpdate': channel(
    z.object({ since: z.number().int().optional() }).strict(),
    GraphUpdate
  ),
  /**
   * A window of a branch's transcript (null: the active one): up to `before` entries before the
   * anchor and `after` from it on. The anchor is an entry's index, 'end', or a node's first entry.
   */
  'session:transcriptRange': channel(
    z
      .object({
        leafUuid: Uuid.nullable(),
        anchor: z.union([
          z.number().int().min(0),
          z.literal('end'),
          z.object({ nodeId: Uuid }).strict()
        ]),
        before: z.number().int().min(0).max(MAX_TRANSCRIPT_RANGE),
        after: z.number().int().min(0).max(MAX_TRANSCRIPT_RANGE)
      })
      .strict(),
    TranscriptWindow
  ),
  'session:node': channel(z.object({ nodeId: Uuid }).strict(), NodeDetail),
  /** What "Search the session" searches, per graph node (built once per shape of the tree). */
  'session:searchIndex': channel(Empty, z.array(SearchEntry)),
  /** A bookmark on a node (a null label removes it). */
  'session:label': channel(z.object({ nodeId: Uuid, label: LabelText.nullable() }).strict(), Ok),
  /**
   * A new session holding the path to a node, opened at once (the studio switches to it). The
   * files are left as they are unless `restoreFiles`: then they are brought to that node's state
   * in the fork, as session:forkPreview showed.
   */
  'session:fork': channel(
    z.object({ nodeId: Uuid, restoreFiles: z.boolean().optional() }).strict(),
    AppInfo
  ),
  'session:forkPreview': channel(z.object({ nodeId: Uuid }).strict(), RewindPreview),
  /**
   * The session as Markdown, one HTML page or JSON (core/export), for the page to save: the
   * whole tree, or the branch through `nodeId` (the active branch without it). At most
   * MAX_EXPORT_BYTES; a bigger one is refused as unavailable (the CLI writes any size).
   */
  'session:export': channel(
    z
      .object({ format: ExportFormat, scope: z.enum(['all', 'branch']), nodeId: Uuid.optional() })
      .strict(),
    ExportedFile
  ),
  'agent:send': channel(z.object({ prompt: Prompt }).strict(), Ok),
  'agent:stop': channel(Empty, Ok),
  'agent:answerPermission': channel(z.object({ requestId: Uuid, allow: z.boolean() }).strict(), Ok),
  'rewind:preview': channel(
    z.object({ checkpointUuid: Uuid, mode: RewindMode }).strict(),
    RewindPreview
  ),
  /** `summary`: what to do with the branch a conversation rewind leaves (default: the setting). */
  'rewind:apply': channel(
    z.object({ checkpointUuid: Uuid, mode: RewindMode, summary: LeaveChoice.optional() }).strict(),
    RewindResult
  ),
  /** The same as timeline:undo (the name the first renderer used). */
  'rewind:undo': channel(Empty, RewindResult),
  'branch:preview': channel(z.object({ leafUuid: Uuid }).strict(), RewindPreview),
  /** One file's diff from the last rewind or branch preview (one the preview left out). */
  'rewind:fileDiff': channel(z.object({ path: z.string().min(1).max(4096) }).strict(), FileDiff),
  'branch:switch': channel(
    z.object({ leafUuid: Uuid, summary: LeaveChoice.optional() }).strict(),
    RewindResult
  ),
  /** The prompt and what follows it become one summary; the prompt comes back as `prefill`. */
  'summary:fromHere': channel(
    z.object({ nodeId: Uuid, instructions: SummaryInstructions.optional() }).strict(),
    z.object({ summaryUuid: z.string(), prefill: z.string() })
  ),
  /** What comes before the prompt becomes one summary (a compaction); later turns stay. */
  'summary:upToHere': channel(
    z.object({ nodeId: Uuid, instructions: SummaryInstructions.optional() }).strict(),
    z.object({ summaryUuid: z.string() })
  ),
  /** Compacts the branch now: its older part becomes one summary, its recent turns stay. */
  'summary:compact': channel(
    z.object({ instructions: SummaryInstructions.optional() }).strict(),
    z.object({ summaryUuid: z.string() })
  ),
  /** The prompts on the path to `leafUuid` (null: the active path), numbered from 1. */
  'session:checkpoints': channel(
    z.object({ leafUuid: Uuid.nullable() }).strict(),
    z.array(CheckpointView)
  ),
  /** Moving the conversation and the files to any node (a turn: its end on its branch). */
  'continue:preview': channel(z.object({ nodeId: Uuid }).strict(), RewindPreview),
  'continue:apply': channel(
    z.object({ nodeId: Uuid, summary: LeaveChoice.optional() }).strict(),
    RewindResult
  ),
  /** Every rewind, switch and continue, oldest first; Undo and Redo walk it. */
  'timeline:list': channel(Empty, z.array(TimelineEntry)),
  'timeline:undo': channel(Empty, RewindResult),
  'timeline:redo': channel(Empty, RewindResult),
  /** Undo or redo, step by step, until the timeline stands right after the action `id`. */
  'timeline:walkTo': channel(z.object({ id: z.string().min(1).max(200) }).strict(), RewindResult),
  /** The files and conversations of two nodes, or of a node and 'current'. */
  compare: channel(z.object({ a: Uuid, b: CompareRef }).strict(), CompareView),
  /** One file's diff of a compare (one the compare view left out). */
  'compare:file': channel(
    z.object({ a: Uuid, b: CompareRef, path: z.string().min(1).max(4096) }).strict(),
    FileDiff
  ),
  /**
   * Workspaces (studio/workspace-host.ts): the studio re-opens on another folder, no restart.
   * `workspace:pick` is the desktop's folder dialog (null: cancelled); the web host has none
   * (`unavailable`) and the page offers a path field completed by `fs:complete` instead.
   */
  'workspace:open': channel(z.object({ cwd: z.string().min(1).max(4096) }).strict(), AppInfo),
  'workspace:recent': channel(Empty, z.array(RecentWorkspace)),
  'workspace:pick': channel(Empty, z.object({ cwd: z.string().nullable() })),
  'fs:complete': channel(
    z.object({ path: z.string().min(1).max(4096) }).strict(),
    FolderCompletion
  ),
  /**
   * Sharing the session through the workspace's git remote (core/share): what a push would send
   * (sizes, what is new, what is masked), the push itself, the sessions the remote holds, and a
   * pulled one opened read-only. `scope` 'branch' shares the branch through `nodeId` (the active
   * one without it).
   */
  'share:preview': channel(ShareRequest, SharePreview),
  'share:push': channel(ShareRequest, ShareResult),
  'share:list': channel(z.object({ remote: RemoteName.optional() }).strict(), SharedList),
  'share:open': channel(
    z.object({ sessionId: z.string().regex(SHARED_ID), remote: RemoteName.optional() }).strict(),
    AppInfo
  ),
  'settings:get': channel(Empty, Settings),
  'settings:set': channel(SettingsUpdate.strict(), Settings),
  /**
   * "Bring into this branch…" (core/merge): what bringing a node of another branch into the
   * branch the conversation is on would do to each file (`files`; `turn`: that turn's changes
   * only, a cherry-pick) and where its conversation would come from. Nothing is written.
   */
  'merge:preview': channel(
    z.object({ nodeId: Uuid, files: z.boolean(), turn: z.boolean().optional() }).strict(),
    MergePreview
  ),
  /**
   * Applies the merge previewed last, as one action Undo reverses: its files with a choice for
   * every conflict, and/or its conversation (a summary made with `instructions`, or an
   * exploration's report). Refused with nothing changed when a conflict has no choice, or a file
   * changed since the preview.
   */
  'merge:apply': channel(
    z
      .object({
        nodeId: Uuid,
        files: z.boolean(),
        turn: z.boolean().optional(),
        conversation: z
          .object({ instructions: SummaryInstructions.optional() })
          .strict()
          .optional(),
        resolutions: z.array(MergeResolution).max(100_000)
      })
      .strict(),
    z.object({ mergeUuid: z.string(), written: z.number().int() })
  ),
  /**
   * Try in parallel… (core/parallel): one run per prompt from a node, each in a workspace of its
   * own, each a branch of that node once it ends. `check` runs in each run's workspace at its end;
   * `model` names the model the runs use (the session's without it).
   */
  'parallel:start': channel(
    z
      .object({
        nodeId: Uuid,
        prompts: z.array(Prompt).min(1).max(MAX_PARALLEL_RUNS),
        check: z.string().min(1).max(MAX_CHECK_CHARS).optional(),
        model: z.string().min(1).max(200).optional()
      })
      .strict(),
    RunsView
  ),
  /** Every run of the session, with its compare-table row. */
  'parallel:list': channel(Empty, RunsView),
  'parallel:stop': channel(z.object({ runId: Uuid }).strict(), RunsView),
  /** What adopting a run would change in the workspace (a continue to the run's end). */
  'parallel:adoptPreview': channel(z.object({ runId: Uuid }).strict(), RewindPreview),
  /**
   * Adopt this run: its files into the workspace and the conversation on at its end, one action
   * Undo takes back; with a summary asked for, the branch left and the start's other runs are
   * summarized onto it.
   */
  'parallel:adopt': channel(
    z.object({ runId: Uuid, summary: LeaveChoice.optional() }).strict(),
    RewindResult
  ),
  /** Removes a run's workspace; its branch, once joined, stays in the tree. */
  'parallel:discard': channel(z.object({ runId: Uuid }).strict(), RunsView),
  /** What the workspaces of one start's runs (its `group`) take on disk now (walked: asked for). */
  'parallel:diskUse': channel(z.object({ group: Uuid }).strict(), RunsDiskUse)
} as const

export const events = {
  /**
   * The graph changed shape, or what its marks say (a hand edit moved "files changed since"): a
   * delta from the version pushed before, or the whole graph.
   */
  'session:graphUpdate': GraphUpdate,
  /** The session list as session:list builds it, each step's sessions (cold index only). */
  'session:listStep': SessionListStep,
  'agent:event': AgentEvent,
  'agent:permission': PermissionRequest,
  /** A permission question is no longer waiting (answered in some window, or the run stopped):
   * every other window takes it down. */
  'agent:permissionResolved': z.object({ requestId: z.string() }),
  /** The host opened another workspace (in some window): every page loads it. */
  'workspace:changed': z.object({ workspace: z.string() }),
  /** A run of the session started, changed state, ended, was joined, adopted or discarded. */
  'parallel:runs': RunsView,
  /** The desktop's menu asks the page for what it does itself (src/main/menu.ts). */
  'menu:command': z.object({ command: z.enum(['open-folder', 'new-session']) })
} as const

export type RequestChannel = keyof typeof requests
export type EventChannel = keyof typeof events
export type RequestArgs<C extends RequestChannel> = z.infer<(typeof requests)[C]['args']>
export type RequestResult<C extends RequestChannel> = z.infer<(typeof requests)[C]['result']>
export type EventPayload<E extends EventChannel> = z.infer<(typeof events)[E]>

export const requestChannels = Object.keys(requests) as RequestChannel[]
export const eventChannels = Object.keys(events) as EventChannel[]

/** Errors cross the transport as data: a stable code and a message for people. */
export const ErrorCode = z.enum([
  'invalid_payload',
  'forbidden_sender',
  'unknown_channel',
  'not_found',
  /** It exists but may not be used (the home folder or / as a workspace, a path through .git). */
  'refused',
  'busy',
  'read_only',
  'conflict',
  'unavailable',
  /** The user stopped it (a summary): nothing was changed. */
  'stopped',
  'internal'
])
export type ErrorCode = z.infer<typeof ErrorCode>
export const IpcError = z.object({ code: ErrorCode, message: z.string() })
export type IpcError = z.infer<typeof IpcError>

export const Reply = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: IpcError })
])
export type Reply = z.infer<typeof Reply>

/** What a host implements: one async function per request channel. */
export type Handlers = {
  [C in RequestChannel]: (args: RequestArgs<C>) => Promise<RequestResult<C>>
}

/** The channels the host answers (which folder is open), not one studio. */
export type WorkspaceChannel =
  'workspace:open' | 'workspace:recent' | 'workspace:pick' | 'fs:complete'

/** What a host gives the core to push events to every connected renderer. */
export type EventSink = <E extends EventChannel>(event: E, payload: EventPayload<E>) => void

/** The renderer's view of the main process, whatever the transport. */
export interface Bridge {
  request<C extends RequestChannel>(channel: C, args: RequestArgs<C>): Promise<RequestResult<C>>
  on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): () => void
  /** Called once if the transport goes away for good (the web host stopped); never in Electron. */
  onDisconnect(listener: (message: string) => void): () => void
}
