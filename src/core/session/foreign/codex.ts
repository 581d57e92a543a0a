// A read-only view of a Codex CLI rollout (<codex home>/sessions/YYYY/MM/DD/rollout-<time>-<thread
// id>.jsonl) in our tree model. Read from 0.171.0's files (test/fixtures/codex: made by the real
// CLI, README.md there). Each line is `{timestamp, ordinal, type, payload}`:
// - `session_meta` (the first line) is our header: the thread id, its cwd and start;
// - `response_item`s are the conversation, one record of ours each, chained in file order:
//   messages (role user: a prompt, unless it is one of the harness's tagged blocks such as
//   `<environment_context>` or `<skills_instructions>`, kept raw with the developer messages;
//   role assistant), `function_call` / `custom_tool_call` / `local_shell_call` (a tool_use, the patch text of
//   apply_patch as its input) and their `*_output` (a tool_result); a prompt's `input_image`s
//   are its images; a `reasoning` item's summary is the model's thinking (shown, never sent back:
//   it has no signature); a `web_search_call` (the API's own search, whose results Codex never
//   records) an answer saying what was searched for, as Codex's screen does;
// - a `compacted` line (`/compact`, or Codex compacting by itself; test/fixtures/codex-compact,
//   and 0.58.0's, which names no replacement_history, test/fixtures/codex-compact-old) is a
//   compaction: its summary as Codex sends it, and the prompts it kept, which Codex sends before
//   the summary (see compaction()); the model's summarising answer (`metadata.compaction_output`)
//   is no answer of ours;
// - everything else (`event_msg`, `turn_context`, `world_state`, `token_usage_record`,
//   `additional_tools`) is kept raw, anchored to the record it follows.
// Lineage: `codex exec resume` / `codex resume` append to the same file. A fork (`codex fork`,
// `exec fork`) is a new rollout whose session_meta names its parent in `history_base` {thread_id,
// end_byte_offset}: the parent's lines are not copied, so its history is the parent's rollout up
// to that offset, read here first, then its own lines. A TUI backtrack starts a new segment file
// (`…-<thread id>_<segment id>.jsonl`) holding the conversation from where it went back: each
// segment is read as the session it is (what `codex resume` carries on is the newest).
// Files: an `apply_patch` call (codex-patch.ts reads the forms Codex writes it in) whose output
// says Codex applied it becomes one file_change record per file it adds, updates, moves or
// deletes, of the turn (prompt) it is in (a patch Codex refused changed nothing).
// Codex keeps no copy of the files it changes (its own backtrack says "File changes are
// unchanged"), so those records name the file and what the patch did to it (`action`), no
// content: `before` and `after` are unknown (`beforeUnknown`, `afterUnknown`), and there is
// nothing to rescue from. A file changed by a shell command is not named: only the patch says.
// Sub-agents (spawn_agent): each a rollout of its own beside this one, read as a session is and
// hung under the call that started it, a sub-agent's own under its calls (codex-subagents.ts).
import { Buffer } from 'node:buffer'
import { readdirSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { readRegularFileAt } from '../../os/read-regular-file'
import { SESSION_FORMAT_VERSION } from '../format-version'
import { isObject, stringOrNull, type Json } from '../json'
import { parseJsonl } from '../jsonl'
import { ProblemLog } from '../problems'
import { CODEX_COMPACTION_TYPE, SessionTree, conversationNodeOf, typedPrompt } from '../tree'
import { type PatchedFile, patchOfCall, patchedFiles } from './codex-patch'
import { CodexSubagents } from './codex-subagents'
import type { Transcript } from './subagent-files'
import { SubagentNesting } from './subagent-nesting'
import { imageBlockOfDataUrl } from './data-url-image'
import { addMapped, foreignRecord } from './raw'
import type { Emit, ForeignMapper, ForeignReader, SubagentRun } from './types'

export const codex: ForeignReader = {
  format: 'codex',
  detect: (values) => {
    const first = values[0]
    return isObject(first) && first.type === 'session_meta' && isObject(first.payload)
  },
  mapper: (_sidecars, file) => new CodexMapper(file),
  keeps:
    'Codex CLI keeps no backups of the files it changes (its own backtrack leaves them as they are): there is nothing to restore them from.'
}

/** A block of the harness's own (`<environment_context>…</environment_context>`): no prompt. */
const HARNESS_BLOCK = /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/

/** What apply_patch prints when it applied a patch (its summary, then `A path` / `M` / `D` lines). */
const PATCH_APPLIED = 'Success. Updated the following files:'

/** The most apply_patch calls awaiting their output (a rollout of calls never answered). */
const MAX_PENDING_PATCHES = 1024

/** A compaction's text when its line holds none (its summary kept only in a form not readable). */
const NO_SUMMARY = 'Codex compacted the conversation here; the rollout holds no summary text of it.'

/**
 * How much of the user messages before a compaction Codex keeps when its file names none, in
 * UTF-8 bytes (0.58.0's COMPACT_USER_MESSAGE_MAX_TOKENS, 20,000, at 4 bytes a token).
 */
const COMPACT_USER_MESSAGE_BYTES = 80_000

/** What 0.58.0 sends for a compaction whose summary came back empty. */
const EMPTY_SUMMARY_SENT = '(no summary available)'

/** The most prompts remembered for a compaction to keep (Codex keeps fewer). */
const MAX_PROMPTS_KEPT = 4096

/** The most a fork's parent is read of (its history up to the fork): a rollout, not a dump. */
const MAX_PARENT_BYTES = 512 * 1024 * 1024

/**
 * The prompt a Codex response_item is, as the tree counts it (a user message a person typed),
 * or null: the session list (sources/session-summary.ts) counts by it.
 */
export function typedInCodex(v: Json): string | null {
  if (v.type !== 'response_item' || !isObject(v.payload)) return null
  const mapped = mapItem(v.payload, 'codex-item', null, '')
  const node = mapped === null ? null : conversationNodeOf(mapped)
  return node === null ? null : typedPrompt(node)
}

/**
 * A user message of Codex's context: a prompt drawn (its record, the item id Codex gave it), or
 * the summary of a compaction that named no replacement history (0.58.0 holds it as a user
 * message, which later compactions keep); its text, and its size as Codex counts it.
 */
interface CodexPrompt {
  uuid: string
  id: string | null
  text: string
  bytes: number
}

class CodexMapper implements ForeignMapper {
  readonly problems = new ProblemLog()
  readonly backups = null
  private headerSeen = false
  private previous: string | null = null
  /** The prompt whose turn the items being read are in (null before the first). */
  private turn: string | null = null
  private cwd = ''
  /** The thread's id (its session_meta's): a run naming it is a loop. */
  private thread: string | null = null
  private count = 0
  private changes = 0
  /** The summary the model answered when asked to compact, until its compacted line. */
  private summarized = ''
  /** The prompts Codex's context holds now (what a compaction may keep), oldest first. */
  private readonly prompts: CodexPrompt[] = []
  /** The files of each apply_patch call whose output is not read yet, by call id. */
  private readonly pendingPatches = new Map<string, { turn: string; files: PatchedFile[] }>()
  private readonly subagentRuns = new CodexSubagents(
    (thread) => (this.file === null ? null : rolloutOf(this.file, thread)),
    readRolloutTree
  )

  constructor(private readonly file: string | null) {}

  add(value: unknown, line: number, emit: Emit): void {
    if (!this.headerSeen) {
      this.headerSeen = true
      const meta = isObject(value) && isObject(value.payload) ? value.payload : {}
      const sessionId = stringOrNull(meta.id) ?? stringOrNull(meta.session_id) ?? ''
      this.cwd = stringOrNull(meta.cwd) ?? ''
      this.thread = sessionId || null
      emit(
        {
          type: 'session',
          uuid: `codex:${sessionId || 'unknown'}`,
          parentUuid: null,
          timestamp: stringOrNull(meta.timestamp) ?? '',
          version: SESSION_FORMAT_VERSION,
          sessionId,
          cwd: stringOrNull(meta.cwd) ?? '',
          importedFrom: { format: 'codex', version: stringOrNull(meta.cli_version) }
        },
        line
      )
      emit(foreignRecord(null, value), line)
      this.readParent(meta, line, emit)
      this.readEarlierSegments(emit)
      return
    }
    this.item(value, line, emit)
  }

  subagents(): SubagentRun[] {
    return this.subagentRuns.runs(SubagentNesting.of(this.thread))
  }

  /** The runs this rollout starts when it is itself a sub-agent's, read within `nesting`. */
  runsWithin(nesting: SubagentNesting): SubagentRun[] {
    return this.subagentRuns.runs(nesting)
  }

  private item(value: unknown, line: number, emit: Emit): void {
    const v = isObject(value) ? value : null
    if (v !== null && v.type === 'compacted' && isObject(v.payload))
      return this.compaction(v, v.payload, line, emit)
    // The summary the model wrote when asked to compact: the compaction holds it, as Codex sends
    // it from then on; the answer itself is in no later context.
    const summarizing = v !== null && isObject(v.metadata) && v.metadata.compaction_output === true
    if (summarizing && isObject(v.payload)) this.summarized = textOf(v.payload.content)
    const payload =
      v !== null && v.type === 'response_item' && isObject(v.payload) && !summarizing
        ? v.payload
        : null
    const uuid = `codex:${++this.count}:${stringOrNull(payload?.id) ?? stringOrNull(payload?.call_id) ?? 'item'}`
    const mapped =
      payload === null
        ? null
        : mapItem(payload, uuid, this.previous, stringOrNull(v?.timestamp) ?? '')
    this.subagentRuns.saw(value)
    if (mapped === null) return emit(foreignRecord(this.previous, value), line)
    this.previous = uuid
    if (mapped.type === 'user' && payload?.type === 'message') {
      this.turn = uuid
      const text = textOf(payload.content)
      this.remember({ uuid, id: stringOrNull(payload.id), text, bytes: sentBytes(payload.content) })
    }
    emit(mapped, line)
    emit(foreignRecord(uuid, value), line)
    const call = toolUseOf(mapped)
    if (call !== null)
      this.subagentRuns.sawCall(uuid, String(call.id), stringOrNull(call.name), call.input)
    this.patchChanges(mapped, line, emit)
  }

  private remember(prompt: CodexPrompt): void {
    this.prompts.push(prompt)
    if (this.prompts.length > MAX_PROMPTS_KEPT) this.prompts.shift()
  }

  /**
   * A `compacted` line (`/compact`, or Codex compacting by itself): drawn as a compaction holding
   * `message`, the summary as Codex sends it, and the prompts it kept (details.keptBefore), sent
   * before the summary. Its `replacement_history` is the whole context Codex goes on with: its
   * user messages that are prompts drawn here are the ones kept (found by their item id, else
   * their text; the harness's blocks and the developer messages are no records of ours). A line
   * without one (0.58.0 and before) is rebuilt as that Codex rebuilds it, live and on resume
   * alike (test/fixtures/codex-compact-old): see recentMessages(); its summary is sent bare.
   */
  private compaction(v: Json, p: Json, line: number, emit: Emit): void {
    const uuid = `codex:${++this.count}:compacted`
    const history = Array.isArray(p.replacement_history) ? p.replacement_history : null
    const message = stringOrNull(p.message) || (history === null ? EMPTY_SUMMARY_SENT : NO_SUMMARY)
    const kept = history === null ? this.recentMessages() : this.keptPrompts(history, message)
    emit(
      {
        type: 'custom_message',
        uuid,
        parentUuid: this.previous,
        timestamp: stringOrNull(v.timestamp) ?? '',
        customType: CODEX_COMPACTION_TYPE,
        hidden: false,
        content: message,
        details: {
          keptBefore: kept.map((k) => k.uuid),
          // The model's own summary, which `message` ends with after Codex's fixed prefix.
          ...(this.summarized !== '' && message.endsWith(this.summarized)
            ? { headline: this.summarized }
            : {})
        }
      },
      line
    )
    emit(foreignRecord(uuid, v), line)
    this.previous = uuid
    this.summarized = ''
    // What a later compaction keeps is chosen from what this one left (0.58.0's: its summary too).
    this.prompts.splice(0, this.prompts.length, ...kept)
    if (history === null)
      this.remember({ uuid, id: null, text: message, bytes: Buffer.byteLength(message) })
  }

  /** The prompts a replacement history holds, as drawn records, in its order. */
  private keptPrompts(history: unknown[], summary: string): CodexPrompt[] {
    const kept: CodexPrompt[] = []
    for (const item of history) {
      if (!isObject(item) || item.type !== 'message' || item.role !== 'user') continue
      const text = textOf(item.content)
      if (text === summary || HARNESS_BLOCK.test(text)) continue
      const id = stringOrNull(item.id)
      const found =
        this.prompts.find((k) => id !== null && k.id === id) ??
        this.prompts.find((k) => k.text === text && !kept.includes(k))
      if (found !== undefined) kept.push(found)
    }
    return kept
  }

  /**
   * What 0.58.0 keeps of its context's user messages (the prompts, the summaries of earlier
   * compactions): newest first while they fit COMPACT_USER_MESSAGE_BYTES, then the one that
   * does not, whose middle Codex cuts (keeping its head and tail, with a marker counting the cut
   * by its tokenizer, which cannot be redone here: it is kept whole), in their order.
   */
  private recentMessages(): CodexPrompt[] {
    const kept: CodexPrompt[] = []
    let remaining = COMPACT_USER_MESSAGE_BYTES
    for (let i = this.prompts.length - 1; i >= 0 && remaining > 0; i--) {
      const k = this.prompts[i] as CodexPrompt
      kept.unshift(k)
      if (k.bytes > remaining) break
      remaining -= k.bytes
    }
    return kept
  }

  /**
   * An apply_patch call's files are kept until its output says Codex applied the patch ("Success.
   * Updated the following files:"), then become file_change records of the call's turn: a patch
   * Codex refused ("apply_patch verification failed: …", checked before it writes anything), or
   * a call it did not run ("unsupported call: shell"), changed no file.
   */
  private patchChanges(mapped: Json, line: number, emit: Emit): void {
    const message = isObject(mapped.message) ? mapped.message : {}
    const block = Array.isArray(message.content) ? message.content[0] : null
    if (!isObject(block)) return
    if (block.type === 'tool_use') {
      const found = this.turn === null ? null : patchOfCall(stringOrNull(block.name), block.input)
      if (found === null || this.turn === null) return
      const files = patchedFiles(found.patch, this.cwd, found.workdir)
      if (files.length === 0) return
      if (this.pendingPatches.size >= MAX_PENDING_PATCHES) this.pendingPatches.clear()
      this.pendingPatches.set(String(block.id), { turn: this.turn, files })
      return
    }
    if (block.type !== 'tool_result') return
    const pending = this.pendingPatches.get(String(block.tool_use_id))
    if (pending === undefined) return
    this.pendingPatches.delete(String(block.tool_use_id))
    if (typeof block.content !== 'string' || !block.content.includes(PATCH_APPLIED)) return
    for (const { path, action } of pending.files) {
      emit(
        {
          type: 'file_change',
          uuid: `codex-file:${++this.changes}`,
          parentUuid: null,
          timestamp: mapped.timestamp,
          checkpointUuid: pending.turn,
          path,
          before: null,
          after: null,
          beforeUnknown: true,
          afterUnknown: true,
          action,
          source: 'codex'
        },
        line
      )
    }
  }

  /**
   * A segment after a TUI backtrack: the thread's earlier segments first, each a branch from the
   * start (what the backtrack left), then this one's own lines from the start again.
   */
  private readEarlierSegments(emit: Emit): void {
    const segments = this.file === null ? [] : earlierSegments(this.file)
    for (const segment of segments) {
      const values = segmentValues(segment)
      if (values === null) continue
      this.previous = null
      this.turn = null
      this.prompts.length = 0
      values.forEach((value) => this.item(value, 0, emit))
    }
    if (segments.length > 0) {
      this.previous = null
      this.turn = null
      this.prompts.length = 0
    }
  }

  /**
   * A fork's history: its parent's rollout up to `history_base.end_byte_offset`, found by the
   * thread id in the sessions folder this file is in (never a path the file names).
   */
  private readParent(meta: Json, line: number, emit: Emit): void {
    const base = isObject(meta.history_base) ? meta.history_base : null
    const thread = base === null ? null : stringOrNull(base.thread_id)
    const end = base === null ? null : base.end_byte_offset
    if (thread === null || typeof end !== 'number' || this.file === null) return
    const history = parentHistory(this.file, thread, end)
    if ('missing' in history) {
      this.problems.add({ line, kind: 'missing-parent', message: history.missing })
      return
    }
    history.values.forEach((value) => this.item(value, 0, emit))
  }
}

/**
 * The lines of a fork's parent rollout before the fork (its own session_meta left out: it is the
 * parent's header, no point of the fork), or why they cannot be read.
 */
function parentHistory(
  file: string,
  thread: string,
  end: number
): { values: unknown[] } | { missing: string } {
  const parent = rolloutOf(file, thread)
  if (parent === null) {
    return {
      missing: `the rollout this session was forked from (thread ${thread}) is not in the sessions folder: its history before the fork is not shown`
    }
  }
  try {
    const text = readStart(parent, Math.min(end, MAX_PARENT_BYTES))
    return { values: parseJsonl(text).values.slice(1) }
  } catch (error) {
    return {
      missing: `the rollout this session was forked from (${parent}) cannot be read: ${(error as Error).message}`
    }
  }
}

/** The prompts a rollout's tree holds before its own lines, by what they were counted from. */
const inheritedSeen = new Map<string, number>()

/**
 * How many prompts a rollout's tree holds before its own lines: a fork's parent's before the
 * fork, a backtrack segment's earlier segments'. The session list adds them to the file's own,
 * so both count by one rule; read once per stamp of what they come from.
 */
export function inheritedPrompts(file: string, fork?: { thread: string; end: number }): number {
  const parent = fork === undefined ? null : rolloutOf(file, fork.thread)
  const segments = earlierSegments(file)
  const sources = [...(parent === null ? [] : [parent]), ...segments]
  if (sources.length === 0) return 0
  let key: string
  try {
    key = [
      fork?.end ?? '-',
      ...sources.map((f) => `${f}|${statSync(f).size}|${statSync(f).mtimeMs}`)
    ].join('#')
  } catch {
    return 0
  }
  const known = inheritedSeen.get(key)
  if (known !== undefined) return known
  const typed = (values: readonly unknown[]) =>
    values.filter((v) => isObject(v) && typedInCodex(v) !== null).length
  let count = 0
  if (fork !== undefined) {
    const history = parentHistory(file, fork.thread, fork.end)
    if (!('missing' in history)) count += typed(history.values)
  }
  for (const segment of segments) count += typed(segmentValues(segment) ?? [])
  if (inheritedSeen.size >= 256) inheritedSeen.clear()
  inheritedSeen.set(key, count)
  return count
}

/** A segment file's own lines but its session_meta (bounded), or null when it cannot be read. */
function segmentValues(segment: string): unknown[] | null {
  try {
    return parseJsonl(readStart(segment, MAX_PARENT_BYTES)).values.slice(1)
  } catch {
    return null
  }
}

/** A backtrack segment's name: `rollout-<time>-<thread id>_<segment id>.jsonl`. */
const SEGMENT =
  /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_[0-9a-f-]{1,64}\.jsonl$/

/** The most earlier segments of a thread read. */
const MAX_SEGMENTS = 64

/**
 * The thread's segments before `file`, a TUI backtrack's segment, oldest first (their names
 * start with the time they were begun); none for a rollout that is no later segment.
 */
export function earlierSegments(file: string): string[] {
  const thread = SEGMENT.exec(basename(file))?.[1]
  const root = thread === undefined ? null : codexRootOf(file)
  if (thread === undefined || root === null) return []
  const ofThread = (name: string) =>
    name.startsWith('rollout-') &&
    (name.endsWith(`-${thread}.jsonl`) || name.includes(`-${thread}_`)) &&
    name < basename(file)
  const found: string[] = []
  for (const folder of [join(root, 'sessions'), join(root, 'archived_sessions')]) {
    collectFiles(folder, ofThread, 3, found)
  }
  return found
    .sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0))
    .slice(-MAX_SEGMENTS)
}

function collectFiles(
  dir: string,
  wanted: (name: string) => boolean,
  depth: number,
  into: string[]
): void {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    if (entry.isFile() && wanted(entry.name)) into.push(join(dir, entry.name))
    else if (entry.isDirectory() && depth > 0)
      collectFiles(join(dir, entry.name), wanted, depth - 1, into)
  }
}

/** The tool_use block of a record mapItem made of a call, or null. */
function toolUseOf(mapped: Json): Json | null {
  const message = isObject(mapped.message) ? mapped.message : {}
  const block: unknown = Array.isArray(message.content) ? message.content[0] : null
  return isObject(block) && block.type === 'tool_use' ? block : null
}

/**
 * A sub-agent's rollout read as a session is, into a tree of its own, with the runs it starts in
 * turn; null when unreadable.
 */
function readRolloutTree(file: string): Transcript | null {
  let parsed
  try {
    parsed = parseJsonl(readStart(file, MAX_PARENT_BYTES))
  } catch {
    return null
  }
  const mapper = new CodexMapper(file)
  const tree = new SessionTree()
  parsed.values.forEach((value, i) =>
    mapper.add(value, parsed.lines[i] ?? 0, (record) => addMapped(tree, record))
  )
  return { tree, runs: (nesting) => mapper.runsWithin(nesting) }
}

/** One response item as ours, or null for what is not drawn. */
function mapItem(p: Json, uuid: string, parentUuid: string | null, timestamp: string): Json | null {
  const base = { uuid, parentUuid, timestamp }
  switch (p.type) {
    case 'message': {
      const text = textOf(p.content)
      if (p.role === 'assistant') return answer(base, [{ type: 'text', text }])
      if (p.role !== 'user' || HARNESS_BLOCK.test(text)) return null
      // A prompt's pictures (`input_image`) go with it, as the Messages API takes them.
      const images = imagesOf(p.content)
      if (text.trim() === '' && images.length === 0) return null
      const content = text.trim() === '' ? images : [{ type: 'text', text }, ...images]
      return { type: 'user', ...base, message: { role: 'user', content } }
    }
    case 'reasoning': {
      // What the model let be read of its reasoning: the summary (the rest is encrypted). A
      // thinking block with no signature: shown, never sent back (the API checks signatures).
      const summary = textsOf(p.summary).join('\n\n')
      return summary.trim() === '' ? null : answer(base, [{ type: 'thinking', thinking: summary }])
    }
    case 'web_search_call': {
      // The Responses API's own search: Codex records what it searched for, never what it found.
      const said = webSearchText(p.action)
      return said === null ? null : answer(base, [{ type: 'text', text: said }])
    }
    case 'function_call':
    case 'custom_tool_call':
      return toolUse(
        base,
        stringOrNull(p.call_id) ?? uuid,
        stringOrNull(p.name) ?? String(p.type),
        p.type === 'function_call' ? argumentsOf(p.arguments) : { input: p.input }
      )
    case 'local_shell_call':
      // The Responses API's built-in shell: its command is in `action` (exec: command, timeout,
      // folder), its output a function_call_output of the same call_id, as a function's.
      return toolUse(
        base,
        stringOrNull(p.call_id) ?? uuid,
        'local_shell',
        isObject(p.action) ? p.action : {}
      )
    case 'function_call_output':
    case 'custom_tool_call_output':
      return {
        type: 'user',
        ...base,
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: stringOrNull(p.call_id) ?? '',
              content: typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '')
            }
          ]
        }
      }
    default:
      return null
  }
}

/** An answer of the model's: its text, its reasoning, or (stop_reason tool_use) a tool call. */
function answer(
  base: { uuid: string; parentUuid: string | null; timestamp: string },
  content: Json[],
  stopReason: 'end_turn' | 'tool_use' = 'end_turn'
): Json {
  return {
    type: 'assistant',
    ...base,
    message: { role: 'assistant', content, stop_reason: stopReason }
  }
}

/**
 * A web search as Codex's own screen words it ("Searched …"), or null for none it names: the
 * query of a search, the page opened, the pattern looked for in one.
 */
function webSearchText(action: unknown): string | null {
  if (!isObject(action)) return null
  const query = stringOrNull(action.query)
  const url = stringOrNull(action.url)
  const pattern = stringOrNull(action.pattern)
  if (action.type === 'search' && query !== null) return `Searched the web: ${query}`
  if (action.type === 'open_page' && url !== null) return `Opened ${url}`
  if (action.type === 'find_in_page' && url !== null && pattern !== null) {
    return `Looked for ${pattern} in ${url}`
  }
  return null
}

/** A prompt's `input_image` parts as image blocks: a data URL's bytes, else the URL itself. */
function imagesOf(content: unknown): Json[] {
  if (!Array.isArray(content)) return []
  return content.flatMap((part): Json[] => {
    const url = isObject(part) && part.type === 'input_image' ? stringOrNull(part.image_url) : null
    if (url === null) return []
    const image = imageBlockOfDataUrl(url)
    if (image !== null) return [image]
    return /^https?:\/\//.test(url) ? [{ type: 'image', source: { type: 'url', url } }] : []
  })
}

/** An answer that is one tool call. */
function toolUse(
  base: { uuid: string; parentUuid: string | null; timestamp: string },
  id: string,
  name: string,
  input: unknown
): Json {
  return answer(base, [{ type: 'tool_use', id, name, input }], 'tool_use')
}

/** A user message's size as 0.58.0 counts it: the UTF-8 bytes of its texts, joined bare. */
function sentBytes(content: unknown): number {
  return Buffer.byteLength(textsOf(content).join(''))
}

function textOf(content: unknown): string {
  return textsOf(content).join('\n\n')
}

/** The texts of a message's content: the string itself, else its blocks' texts. */
function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content]
  if (!Array.isArray(content)) return []
  return content
    .filter((b): b is Json => isObject(b) && typeof b.text === 'string')
    .map((b) => b.text as string)
}

/** A function call's arguments (a JSON string): the object, or the text when it is none. */
function argumentsOf(args: unknown): unknown {
  if (typeof args !== 'string') return isObject(args) ? args : {}
  try {
    const parsed: unknown = JSON.parse(args)
    return isObject(parsed) ? parsed : { arguments: args }
  } catch {
    return { arguments: args }
  }
}

/** The first rollout of `thread` (not a later segment) in the sessions folder `file` is in. */
function rolloutOf(file: string, thread: string): string | null {
  const root = codexRootOf(file)
  if (root === null) return null
  const wanted = `-${thread}.jsonl`
  for (const folder of [join(root, 'sessions'), join(root, 'archived_sessions')]) {
    const found = findFile(
      folder,
      (name) => name.startsWith('rollout-') && name.endsWith(wanted),
      3
    )
    if (found !== null) return found
  }
  return null
}

/** Codex's home a rollout lies in: <home>/sessions/YYYY/MM/DD/ or <home>/archived_sessions/. */
function codexRootOf(file: string): string | null {
  for (let at = dirname(file), up = 0; up < 4; at = dirname(at), up++) {
    const name = basename(at)
    if (name === 'sessions' || name === 'archived_sessions') return dirname(at)
  }
  return null
}

function findFile(dir: string, wanted: (name: string) => boolean, depth: number): string | null {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return null
  }
  for (const entry of entries)
    if (entry.isFile() && wanted(entry.name)) return join(dir, entry.name)
  if (depth === 0) return null
  for (const entry of entries
    .filter((e) => e.isDirectory())
    .sort((a, b) => (a.name < b.name ? 1 : -1))) {
    const found = findFile(join(dir, entry.name), wanted, depth - 1)
    if (found !== null) return found
  }
  return null
}

/** The first `bytes` of a file, as text. */
function readStart(file: string, bytes: number): string {
  return readRegularFileAt(file, 0, bytes).toString('utf8')
}

/** The thread id a rollout's file name gives (`rollout-<time>-<id>[_<segment>].jsonl`), or null. */
export function codexThreadOf(file: string): string | null {
  return (
    /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(_[0-9a-f-]+)?\.jsonl$/.exec(
      basename(file)
    )?.[1] ?? null
  )
}
