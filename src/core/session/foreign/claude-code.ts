// A read-only view of a Claude Code transcript (<claude home>/projects/<cwd>/<sessionId>.jsonl) in
// our tree model. Every version we have evidence of (1.0.108 to 2.1.197, and the 2.1.220
// file-history-delta lines) is read; what is mapped, and why:
// - user / assistant records become ours, every field kept (the parent the file named, when the
//   drawn one differs, as `loggedParentUuid`). Progress, system, attachment and
//   other records are not drawn but stay links of the chain (ParentResolver); they, the records
//   without a uuid (mode, last-prompt, summary, ai-title, ...) and any record type we do not know
//   are kept as FOREIGN_RECORD wrappers anchored to the drawn record they follow, so the
//   inspector can show them raw. Nothing in the file is fatal.
// - A compaction (system/compact_boundary: parentUuid null, logicalParentUuid the last record
//   before it) hangs from its logical parent, so the conversation before it stays reachable. A
//   logical parent missing from the file (a second /compact can orphan it) attaches it to the
//   record before it in file order, and is listed as a problem. The summary after it (a user
//   record, isCompactSummary) is drawn as the compaction node; it is given `keptMessages`
//   {from, to}, the drawn records the compaction kept verbatim (its preservedSegment).
// - Sub-agents: records with isSidechain true are sub-agent transcripts. Written inline (older
//   versions) they are grouped into runs (by agentId, else by their root); kept in
//   `<session>/subagents/agent-<id>.jsonl` (newer) they come in as sidecar files. Each run is its
//   own tree, linked to the Task/Agent tool call that started it (by agent id through the tool
//   result, by the sidecar's meta.json, or by its prompt), and drawn as a collapsible branch of
//   that call. A file holding only sidechain records (a sub-agent transcript) is drawn as itself.
// - Claude Code writes one record per content block of a streamed message and one per tool result,
//   each tool result under the block that called it, so parallel tool calls look like branches.
//   They are not: the records of one API message (same message.id) and their tool results are
//   chained in file order. A user-typed prompt under the same parent is a real branch and is kept.
// - isMeta, isCompactSummary and isVisibleInTranscriptOnly user records are not prompts; nor is a
//   built-in slash command (`<command-name>/compact</command-name>`), once the
//   `<local-command-stdout>` under it shows it ran locally (a custom command expands into a
//   prompt to the model and stays one).
// - File history (claude-code-history.ts) becomes file_change records of the prompt whose turn
//   changed the file: `before` is the backup before the change, `after` the backup the next
//   snapshot on the branch lists. After a branch's last turn Claude Code keeps no content: such
//   records have `after: null, afterUnknown: true`.
import { basename, dirname, join } from 'node:path'
import { SESSION_FORMAT_VERSION } from '../format-version'
import { isObject, stringOrNull, type Json } from '../json'
import { ProblemLog } from '../problems'
import { SessionTree, isPrompt, type TreeRecord } from '../tree'
import { ClaudeCodeFileHistory } from './claude-code-history'
import { ParentResolver } from './parents'
import { foreignRecord } from './raw'
import type { Emit, ForeignMapper, ForeignReader, SidecarFile, SubagentRun } from './types'

export const claudeCode: ForeignReader = {
  format: 'claude-code',
  detect: looksLikeClaudeCode,
  mapper: (sidecars) => new ClaudeCodeMapper(sidecars),
  sidecarDir: (file) => join(dirname(file), basename(file, '.jsonl'), 'subagents')
}

export function looksLikeClaudeCode(values: readonly unknown[]): boolean {
  return values
    .slice(0, 50)
    .some(
      (v) =>
        isObject(v) &&
        (v.type === 'file-history-snapshot' ||
          (typeof v.uuid === 'string' && typeof v.sessionId === 'string'))
    )
}

/** The tool Claude Code runs a sub-agent with: Task, renamed Agent in 2.1. */
const SUBAGENT_TOOLS = new Set(['Task', 'Agent'])
const COMMAND = /<command-name>/
const LOCAL_COMMAND_OUTPUT = /^\s*<local-command-stdout>/

interface InlineRun {
  id: string
  agentId: string | null
  mapper: ClaudeCodeMapper
  tree: SessionTree
  source: string
  meta: Json
}

interface SubagentCall {
  toolUseId: string
  description: string | null
  prompt: string | null
}

class ClaudeCodeMapper implements ForeignMapper {
  readonly problems = new ProblemLog()
  readonly backups = new ClaudeCodeFileHistory()
  private header: Json | null = null
  /** 'main' for a session, 'sidechain' for a sub-agent's transcript; null until a message says. */
  private mode: 'main' | 'sidechain' | null
  private readonly parents = new ParentResolver()
  /** API message id of each drawn record of a streamed message (and of its tool results). */
  private readonly groupOf = new Map<string, string>()
  /** The last record chained into each message group. */
  private readonly tailOf = new Map<string, string>()
  /** The last drawn record in file order: where an orphaned compaction and raw records go. */
  private lastDrawn: string | null = null
  /** Drawn records that are prompts (a slash command stops being one when it ran locally). */
  private readonly prompts = new Set<string>()
  private readonly commands = new Map<string, Json>()
  /** Compact boundaries by uuid: the summary under each takes what it kept (noteCompaction). */
  private readonly boundaries = new Map<string, Json>()
  /** Messages whose record and snapshot are both read, and those whose turn's changes went out. */
  private readonly snapshotted = new Set<string>()
  private readonly continued = new Set<string>()
  /** First changes of a message read before its record: emitted once the record is. */
  private readonly waitingChanges = new Map<string, [string, string | null][]>()
  private changeCount = 0
  // Sub-agents: runs, and what links each to the tool call that started it.
  private readonly runs = new Map<string, InlineRun>()
  private readonly runOf = new Map<string, string>()
  private readonly toolUseOwner = new Map<string, string>()
  private readonly calls = new Map<string, SubagentCall>()
  private readonly agentCalls = new Map<string, string>()

  constructor(sidecars: readonly SidecarFile[], mode: 'main' | 'sidechain' | null = null) {
    this.mode = mode
    for (const file of sidecars) {
      const agentId = /^agent-(.+)\.jsonl$/.exec(file.name)?.[1] ?? null
      const run = this.newRun(agentId ?? file.name, agentId, file.name)
      run.meta = isObject(file.meta) ? file.meta : {}
      file.parsed.values.forEach((v, i) =>
        run.mapper.add(v, file.parsed.lines[i] ?? 0, (r) => run.tree.addRecord(r))
      )
    }
  }

  add(value: unknown, line: number, emit: Emit): void {
    this.fillHeader(value, line, emit)
    if (!isObject(value)) return emit(foreignRecord(this.lastDrawn, value), line)
    const v = value
    if (v.type === 'file-history-snapshot' || v.type === 'file-history-delta') {
      emit(foreignRecord(this.lastDrawn, v), line)
      return this.fileHistory(v, line, emit)
    }
    const uuid = stringOrNull(v.uuid)
    if (uuid === null) return emit(foreignRecord(this.lastDrawn, v), line)
    const message = v.type === 'user' || v.type === 'assistant'
    if (message && this.mode === null) this.mode = v.isSidechain === true ? 'sidechain' : 'main'
    if ((v.isSidechain === true) !== (this.mode === 'sidechain')) {
      if (this.mode === 'main') return this.sidechain(v, uuid, line)
      return emit(foreignRecord(this.lastDrawn, v), line)
    }
    const declared = this.parentOf(v, line)
    if (!message || !isObject(v.message)) {
      this.parents.skip(uuid, declared)
      if (v.subtype === 'compact_boundary') this.boundaries.set(uuid, v)
      return emit(foreignRecord(declared, v), line)
    }

    const group = messageGroup(v, declared, this.groupOf)
    const parentUuid = group === null ? declared : (this.tailOf.get(group) ?? declared)
    if (group !== null) {
      this.groupOf.set(uuid, group)
      this.tailOf.set(group, uuid)
    }
    this.parents.node(uuid, parentUuid)
    this.lastDrawn = uuid
    const notTyped =
      v.isMeta === true || v.isCompactSummary === true || v.isVisibleInTranscriptOnly === true
    // Mapped in place (the parsed line is ours, and a copy per message was most of the cost of
    // opening a long transcript); the parent the file named is kept beside the one drawn.
    const record = v
    if (v.parentUuid !== parentUuid) {
      record.loggedParentUuid = v.parentUuid
      record.parentUuid = parentUuid
    }
    if (typeof v.timestamp !== 'string') record.timestamp = ''
    if (v.type === 'user' && notTyped) record.isMeta = true
    if (v.isCompactSummary === true) this.noteCompaction(record)
    if (v.type === 'assistant') this.noteToolCalls(record, uuid)
    else this.noteUserRecord(record, uuid, parentUuid)
    emit(record, line)
    if (v.type === 'user') this.messageRead(uuid, line, emit)
  }

  subagents(): SubagentRun[] {
    const byPrompt = new Map<string, string[]>()
    for (const [toolUseId, call] of this.calls) {
      if (call.prompt === null) continue
      const list = byPrompt.get(call.prompt) ?? []
      list.push(toolUseId)
      byPrompt.set(call.prompt, list)
    }
    return [...this.runs.values()].map((run) => {
      const firstPrompt = run.tree.checkpoints(run.tree.pathTo(run.tree.leafUuid))[0]?.prompt
      const metaToolUse = stringOrNull(run.meta.toolUseId)
      // Older inline sidechains name no agent: the call is the first unclaimed one whose prompt
      // is the run's first prompt.
      const toolUseId =
        metaToolUse ??
        (run.agentId !== null ? this.agentCalls.get(run.agentId) : undefined) ??
        (firstPrompt !== undefined ? byPrompt.get(firstPrompt)?.shift() : undefined) ??
        null
      const call = toolUseId === null ? undefined : this.calls.get(toolUseId)
      const title =
        call?.description ??
        stringOrNull(run.meta.description) ??
        firstPrompt?.split('\n', 1)[0] ??
        'sub-agent'
      return {
        id: run.id,
        toolUseId,
        parentUuid: toolUseId === null ? null : (this.toolUseOwner.get(toolUseId) ?? null),
        title,
        source: run.source,
        tree: run.tree
      }
    })
  }

  /** Our header first; its fields are filled from the first records that carry them. */
  private fillHeader(value: unknown, line: number, emit: Emit): void {
    const v = isObject(value) ? value : {}
    if (this.header === null) {
      const sessionId = stringOrNull(v.sessionId) ?? ''
      this.header = {
        type: 'session',
        uuid: `claude-code:${sessionId || 'unknown'}`,
        parentUuid: null,
        timestamp: '',
        version: SESSION_FORMAT_VERSION,
        sessionId,
        cwd: '',
        importedFrom: { format: 'claude-code', version: null }
      }
      emit(this.header, line)
    }
    const header = this.header
    if (header.sessionId === '' && typeof v.sessionId === 'string') header.sessionId = v.sessionId
    if (this.backups.sessionId === '') this.backups.sessionId = String(header.sessionId)
    if (header.cwd === '' && typeof v.cwd === 'string') header.cwd = v.cwd
    if (header.timestamp === '' && typeof v.timestamp === 'string') header.timestamp = v.timestamp
    const from = header.importedFrom as Json
    if (from.version === null && typeof v.version === 'string') from.version = v.version
  }

  /**
   * The drawn record a record hangs from. A compaction's parentUuid is null and its
   * logicalParentUuid names the record before it; when that record is not in the file, the
   * compaction follows the record before it in file order (so what came before stays reachable).
   */
  private parentOf(v: Json, line: number): string | null {
    const parent = stringOrNull(v.parentUuid)
    const logical = parent === null ? stringOrNull(v.logicalParentUuid) : null
    if (logical === null || this.parents.known(logical))
      return this.parents.resolve(parent ?? logical)
    this.problems.add({
      line,
      kind: 'missing-parent',
      message: `the logical parent ${logical} of compaction ${String(v.uuid)} is not in the file: ${this.lastDrawn === null ? 'shown as a root' : `attached after ${this.lastDrawn}, the record before it in the file`}`
    })
    return this.lastDrawn
  }

  /**
   * A compaction's summary gets the messages the compaction kept verbatim after it (its
   * boundary's preservedSegment) as drawn records: `keptMessages` {from, to}, for continuing the
   * conversation as Claude Code would have sent it (continue-foreign.ts).
   */
  private noteCompaction(record: Json): void {
    const logged = 'loggedParentUuid' in record ? record.loggedParentUuid : record.parentUuid
    const boundary = this.boundaries.get(stringOrNull(logged) ?? '')
    const meta =
      boundary !== undefined && isObject(boundary.compactMetadata) ? boundary.compactMetadata : {}
    const segment = isObject(meta.preservedSegment) ? meta.preservedSegment : null
    if (segment === null) return
    record.keptMessages = {
      from: this.parents.resolve(stringOrNull(segment.headUuid)),
      to: this.parents.resolve(stringOrNull(segment.tailUuid))
    }
  }

  private noteToolCalls(record: Json, uuid: string): void {
    const content = (record.message as Json).content
    if (!Array.isArray(content)) return
    for (const block of content) {
      if (!isObject(block) || block.type !== 'tool_use' || typeof block.id !== 'string') continue
      this.toolUseOwner.set(block.id, uuid)
      if (typeof block.name === 'string' && SUBAGENT_TOOLS.has(block.name)) {
        const input = isObject(block.input) ? block.input : {}
        this.calls.set(block.id, {
          toolUseId: block.id,
          description: stringOrNull(input.description),
          prompt: stringOrNull(input.prompt)
        })
      }
    }
  }

  private noteUserRecord(record: Json, uuid: string, parentUuid: string | null): void {
    const content = (record.message as Json).content
    const text = typeof content === 'string' ? content : firstText(content)
    const result = isObject(record.toolUseResult) ? record.toolUseResult : null
    const agentId = result === null ? null : stringOrNull(result.agentId)
    if (agentId !== null && Array.isArray(content)) {
      const answered = content.find((b) => isObject(b) && b.type === 'tool_result')
      if (isObject(answered) && typeof answered.tool_use_id === 'string')
        this.agentCalls.set(agentId, answered.tool_use_id)
    }
    if (text !== null && COMMAND.test(text)) this.commands.set(uuid, record)
    if (text !== null && LOCAL_COMMAND_OUTPUT.test(text)) {
      // A built-in command ran here, not in the model: neither it nor its output is a prompt.
      record.isMeta = true
      const command = parentUuid === null ? undefined : this.commands.get(parentUuid)
      if (command !== undefined && parentUuid !== null) {
        command.isMeta = true
        this.prompts.delete(parentUuid)
      }
    }
    if (isPrompt(record as TreeRecord)) this.prompts.add(uuid)
  }

  /** A sidechain record in a session: it goes to its sub-agent run. */
  private sidechain(v: Json, uuid: string, line: number): void {
    const parent = stringOrNull(v.parentUuid)
    const agentId = stringOrNull(v.agentId)
    const key = agentId ?? (parent === null ? uuid : (this.runOf.get(parent) ?? uuid))
    this.runOf.set(uuid, key)
    const run = this.runs.get(key) ?? this.newRun(key, agentId, 'inline')
    run.mapper.add(v, line, (r) => run.tree.addRecord(r))
  }

  private newRun(id: string, agentId: string | null, source: string): InlineRun {
    const run: InlineRun = {
      id,
      agentId,
      mapper: new ClaudeCodeMapper([], 'sidechain'),
      tree: new SessionTree(),
      source,
      meta: {}
    }
    this.runs.set(id, run)
    return run
  }

  // ---- file history -----------------------------------------------------------------------------

  private fileHistory(v: Json, line: number, emit: Emit): void {
    const read = this.backups.add(v)
    if (read === null) return
    const { messageId, firstChanges } = read
    if (firstChanges.length > 0) {
      if (this.parents.isNode(messageId))
        this.emitFirstChanges(messageId, firstChanges, v, line, emit)
      else
        this.waitingChanges.set(messageId, [
          ...(this.waitingChanges.get(messageId) ?? []),
          ...firstChanges
        ])
    }
    if (this.parents.isNode(messageId)) this.messageRead(messageId, line, emit)
  }

  /** A user record is drawn, or a snapshot of one came: emit what that makes known. */
  private messageRead(uuid: string, line: number, emit: Emit): void {
    const waiting = this.waitingChanges.get(uuid)
    if (waiting !== undefined) {
      this.waitingChanges.delete(uuid)
      this.emitFirstChanges(uuid, waiting, {}, line, emit)
    }
    if (!this.backups.hasSnapshot(uuid) || this.snapshotted.has(uuid)) return
    this.snapshotted.add(uuid)
    const earlier = this.snapshottedAbove(uuid)
    if (earlier === null || this.continued.has(earlier)) return
    // The first snapshot after a turn on its branch says how the turn left the files it tracks.
    this.continued.add(earlier)
    const turn = this.turnOf(earlier)
    if (turn === null) return
    for (const [path, was, ref] of this.backups.changedBetween(earlier, uuid)) {
      emit(this.fileChange(turn, path, was, ref, false, {}), line)
    }
  }

  private emitFirstChanges(
    messageId: string,
    changes: [string, string | null][],
    v: Json,
    line: number,
    emit: Emit
  ): void {
    const turn = this.turnOf(messageId)
    if (turn === null) return
    for (const [path, ref] of changes) emit(this.fileChange(turn, path, ref, null, true, v), line)
  }

  private fileChange(
    turn: string,
    path: string,
    before: string | null,
    after: string | null,
    afterUnknown: boolean,
    v: Json
  ): Json {
    return {
      type: 'file_change',
      uuid: `claude-code-file:${++this.changeCount}`,
      parentUuid: null,
      timestamp: stringOrNull(v.timestamp) ?? '',
      checkpointUuid: turn,
      path,
      before,
      after,
      ...(afterUnknown ? { afterUnknown: true } : {}),
      source: 'claude-code'
    }
  }

  /** The nearest record above `uuid` whose snapshot was read. */
  private snapshottedAbove(uuid: string): string | null {
    for (let at = this.parents.parentOf(uuid); at !== null && at !== undefined;) {
      if (this.snapshotted.has(at)) return at
      at = this.parents.parentOf(at)
    }
    return null
  }

  /** The prompt whose turn a record is in (itself when it is one), or null before the first. */
  private turnOf(uuid: string): string | null {
    for (let at: string | null | undefined = uuid; at !== null && at !== undefined;) {
      if (this.prompts.has(at)) return at
      at = this.parents.parentOf(at)
    }
    return null
  }
}

/**
 * The streamed-message group a record joins: an assistant block record joins its message.id's
 * group; a user record holding only tool results joins the group of the record it answers.
 */
function messageGroup(v: Json, parent: string | null, groupOf: Map<string, string>): string | null {
  const message = v.message as Json
  if (v.type === 'assistant') return stringOrNull(message.id) ?? stringOrNull(v.requestId)
  const content = message.content
  const onlyResults =
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((b) => isObject(b) && b.type === 'tool_result')
  return onlyResults && parent !== null ? (groupOf.get(parent) ?? null) : null
}

function firstText(content: unknown): string | null {
  if (!Array.isArray(content)) return null
  const block = content.find((b) => isObject(b) && b.type === 'text')
  return isObject(block) ? stringOrNull(block.text) : null
}
