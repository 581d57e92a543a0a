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
//   `<session>/subagents/agent-<id>.jsonl` (newer) they come in as sidecar files; 2.1.x before
//   2.1.100 also writes each sub-agent message into the session as a `progress` record
//   (`data.type: agent_progress`, `data.agentId`, `parentToolUseID` the Agent call), which is
//   the only copy in an exported transcript: those make the run of an agent no sidecar holds,
//   its messages chained in file order. Each run is its
//   own tree, linked to the Task/Agent tool call that started it (by agent id through the tool
//   result, by the sidecar's meta.json, or by its prompt), and drawn as a collapsible branch of
//   that call. A file holding only sidechain records (a sub-agent transcript) is drawn as itself.
// - Claude Code writes one record per content block of a streamed message and one per tool result,
//   each tool result under the block that called it, so parallel tool calls look like branches.
//   They are not: the records of one API message (same message.id) and their tool results are
//   chained in file order. A user-typed prompt under the same parent is a real branch and is kept.
// - The prompts (restore points) are the entries of Claude Code's own /rewind list, by its own
//   rule (typedInClaudeCode, which the session list counts with too): every user record but the
//   harness's (isMeta, isCompactSummary, isVisibleInTranscriptOnly), tool results, interrupt
//   markers and what holds a command's or bash mode's output. A slash command is one
//   (`/compact`, `/clear`: Claude Code lists them), shown as typed; bash mode
//   (`<bash-input>cmd</bash-input>`) is one, shown `! cmd`. The interrupt markers (`[Request
//   interrupted by user]`, `… for tool use]`) become our hidden turn-stopped note (the turn was
//   stopped, not failed); a command's output (a `<local-command-stdout>` user record, or from
//   2.1.197 a system record `subtype: local_command`) and bash mode's (`<bash-stdout>`) become
//   a visible note under their prompt. Each keeps its line raw beside it.
// - File history (claude-code-history.ts) becomes file_change records of the prompt whose turn
//   changed the file: `before` is the backup before the change, `after` the backup the next
//   snapshot on the branch lists. After a branch's last turn Claude Code keeps no content: such
//   records have `after: null, afterUnknown: true`.
import { BEFORE_ONLY_NOTE } from '../../../shared/backup-notes'
import { readdirSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { SESSION_FORMAT_VERSION } from '../format-version'
import { isObject, stringOrNull, type Json } from '../json'
import { ProblemLog } from '../problems'
import type { UserRecord } from '../records'
import { SessionTree, TURN_STOPPED_TYPE, promptText } from '../tree'
import { ClaudeCodeFileHistory } from './claude-code-history'
import { ParentResolver } from './parents'
import { addMapped, foreignRecord } from './raw'
import { readSidecarFile } from './sidecar-file'
import { nestedByCall } from './subagent-nesting'
import type { Emit, ForeignMapper, ForeignReader, SidecarFile, SubagentRun } from './types'

export const claudeCode: ForeignReader = {
  format: 'claude-code',
  detect: looksLikeClaudeCode,
  mapper: (sidecars, file) => new ClaudeCodeMapper(sidecars, null, file),
  sidecarDir: (file) => join(dirname(file), basename(file, '.jsonl'), 'subagents'),
  keeps: BEFORE_ONLY_NOTE
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

/**
 * Texts Claude Code writes as a user message of its own when a turn is cut off or a tool call
 * refused (its `INTERRUPT_MESSAGE`, `INTERRUPT_MESSAGE_FOR_TOOL_USE`, the two rejections and
 * "No response requested."): never an entry of its /rewind list.
 */
const NOT_TYPED = new Set([
  '[Request interrupted by user]',
  '[Request interrupted by user for tool use]',
  "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.",
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
  'No response requested.'
])
const INTERRUPTED = /^\[Request interrupted by user( for tool use)?\]$/
/** Tags of what the harness writes into a user message: a record whose last text holds one is no entry. */
const HARNESS_TAGS = [
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<bash-stdout>',
  '<bash-stderr>',
  '<task-notification>',
  '<tick>',
  '<teammate-message'
]
const OUTPUT = /^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>/
const COMMAND_NAME = /<command-name>\/?([^<\s]+)<\/command-name>/
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/
const BASH_INPUT = /<bash-input>([\s\S]*?)<\/bash-input>/
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g
// eslint-disable-next-line no-control-regex -- the colours Claude Code puts in a command's output
const TERMINAL_COLOURS = /\u001b\[[0-9;]*m/g

/** The custom_message types the notes this reader draws are made as. */
export const CLAUDE_CODE_OUTPUT_TYPE = 'claude-code:output'

/**
 * What a person typed in a Claude Code record, as Claude Code's /rewind list shows it (a command
 * as `/name args`, bash mode as `! cmd`), or null when the record is no entry of that list.
 * Claude Code's own rule (2.1's selectable-message filter, held to the /rewind screens of
 * test/fixtures/claude-code): a user record, not the harness's (isMeta; compact summaries and
 * transcript-only records are not in its list either), not a tool result, not one of NOT_TYPED,
 * and whose last content block holds none of HARNESS_TAGS. Per record, so the session list
 * (sources/session-summary.ts) counts by it too. A sub-agent's (sidechain) record is no prompt of the
 * session; `ofSidechain`: it is one of the sub-agent's own transcript.
 */
export function typedInClaudeCode(v: Json, ofSidechain = false): string | null {
  if (v.type !== 'user' || (v.isSidechain === true && !ofSidechain)) return null
  if (v.isMeta === true || v.isCompactSummary === true || v.isVisibleInTranscriptOnly === true)
    return null
  const message = isObject(v.message) ? v.message : null
  const content = message?.content
  let last: string
  if (typeof content === 'string') last = content
  else if (Array.isArray(content)) {
    const first = content[0]
    if (isObject(first) && first.type === 'tool_result') return null
    if (isObject(first) && first.type === 'text' && NOT_TYPED.has(String(first.text))) return null
    if (content.some((b) => isObject(b) && b.type === 'tool_result')) return null
    const end = content.at(-1)
    last = isObject(end) && end.type === 'text' ? String(end.text ?? '') : ''
  } else return null
  if (HARNESS_TAGS.some((tag) => last.includes(tag))) return null
  const shown = shownText(last) ?? textOf(content).replace(SYSTEM_REMINDER, '').trim()
  return shown === '' ? null : shown
}

/** A command or bash mode as Claude Code shows it; null for any other text. */
function shownText(text: string): string | null {
  const bash = BASH_INPUT.exec(text)
  if (bash !== null) return `! ${(bash[1] ?? '').trim()}`
  const name = COMMAND_NAME.exec(text)?.[1]
  if (name === undefined) return null
  const args = COMMAND_ARGS.exec(text)?.[1]?.trim() ?? ''
  return args === '' ? `/${name}` : `/${name} ${args}`
}

/** The note a record that is no prompt is drawn as, or null (it stays a message of ours). */
function noteOf(v: Json): { customType: string; hidden: boolean; content: string } | null {
  if (v.type === 'system') {
    if (v.subtype !== 'local_command' || typeof v.content !== 'string') return null
    return { customType: CLAUDE_CODE_OUTPUT_TYPE, hidden: false, content: outputText(v.content) }
  }
  if (v.type !== 'user' || !isObject(v.message)) return null
  const text = textOf(v.message.content).trim()
  if (INTERRUPTED.test(text)) return { customType: TURN_STOPPED_TYPE, hidden: true, content: text }
  if (OUTPUT.test(text))
    return { customType: CLAUDE_CODE_OUTPUT_TYPE, hidden: false, content: outputText(text) }
  return null
}

/** A command's or bash mode's output without its tags and terminal colours. */
function outputText(text: string): string {
  return text
    .replace(/<\/?(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>/g, '\n')
    .replace(TERMINAL_COLOURS, '')
    .trim()
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((b): b is Json => isObject(b) && b.type === 'text')
    .map((b) => String(b.text ?? ''))
    .join('\n\n')
}

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

/** An agent id as Claude Code makes them: safe as a part of a file name. */
const AGENT_ID = /^[A-Za-z0-9_-]{1,64}$/

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
  /** Drawn records that are prompts (typedInClaudeCode). */
  private readonly prompts = new Set<string>()
  /** Compact boundaries by uuid: the summary under each takes what it kept (noteCompaction). */
  private readonly boundaries = new Map<string, Json>()
  /** Messages whose record and snapshot are both read, and those whose turn's changes went out. */
  private readonly snapshotted = new Set<string>()
  private readonly continued = new Set<string>()
  /** First changes of a message read before its record: emitted once the record is. */
  private readonly waitingChanges = new Map<string, [string, string | null][]>()
  /** Per turn: the files its tools edited, and those first tracked in it (trackingKey). */
  private readonly editedIn = new Map<string, Set<string>>()
  private readonly firstChanged = new Map<string, Set<string>>()
  private changeCount = 0
  // Sub-agents: runs, and what links each to the tool call that started it.
  private readonly runs = new Map<string, InlineRun>()
  private readonly runOf = new Map<string, string>()
  private readonly toolUseOwner = new Map<string, string>()
  private readonly calls = new Map<string, SubagentCall>()
  private readonly agentCalls = new Map<string, string>()
  /** Agents whose transcript a sidecar holds, and the last message of each progress-made run. */
  private readonly sidecarAgents = new Set<string>()
  /** Agents looked for in the project's other sessions' folders (addRunsKeptElsewhere). */
  private readonly lookedForElsewhere = new Set<string>()
  private readonly progressTail = new Map<string, string>()

  /** `file`: the transcript's own path, where its agents' files are looked for (null: none). */
  constructor(
    sidecars: readonly SidecarFile[],
    mode: 'main' | 'sidechain' | null = null,
    private readonly file: string | null = null
  ) {
    this.mode = mode
    for (const sidecar of sidecars) this.addSidecarRun(sidecar, sidecar.name)
  }

  /** A sub-agent transcript file read as a run of its own (`source`: where it was found). */
  private addSidecarRun(file: SidecarFile, source: string): void {
    const agentId = /^agent-(.+)\.jsonl$/.exec(file.name)?.[1] ?? null
    if (agentId !== null) this.sidecarAgents.add(agentId)
    const run = this.newRun(agentId ?? file.name, agentId, source)
    run.meta = isObject(file.meta) ? file.meta : {}
    file.parsed.values.forEach((v, i) =>
      run.mapper.add(v, file.parsed.lines[i] ?? 0, (r) => addMapped(run.tree, r))
    )
  }

  /**
   * The runs of agents this session's calls name that no file or record of its own holds, from
   * the project's other sessions' folders: a `--fork-session` copy names its parent's agents,
   * whose transcripts Claude Code keeps only in the parent's (`<parent>/subagents/agent-<id>
   * .jsonl`). An agent id is a name in a path only as Claude Code makes them (letters, digits).
   */
  private addRunsKeptElsewhere(): void {
    if (this.file === null || this.mode !== 'main') return
    const held = new Set([...this.runs.values()].map((run) => run.agentId))
    const missing = [...this.agentCalls.keys()].filter(
      (id) => !held.has(id) && !this.lookedForElsewhere.has(id) && AGENT_ID.test(id)
    )
    if (missing.length === 0) return
    // Each agent is looked for once: the runs are asked for on every build of the graph, and an
    // agent whose transcript is nowhere would cost a walk of the project's folders each time.
    for (const id of missing) this.lookedForElsewhere.add(id)
    const project = dirname(this.file)
    const own = basename(this.file, '.jsonl')
    let sessions: string[]
    try {
      sessions = readdirSync(project, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name !== own)
        .map((entry) => entry.name)
        .sort()
    } catch {
      return
    }
    for (const agentId of missing) {
      for (const session of sessions) {
        const name = `agent-${agentId}.jsonl`
        let sidecar: SidecarFile
        try {
          sidecar = readSidecarFile(join(project, session, 'subagents', name))
        } catch {
          continue // not in this session's folder (or unreadable there)
        }
        this.addSidecarRun(sidecar, `${session}/subagents/${name}`)
        break
      }
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
    const note = noteOf(v)
    if (note !== null) return this.note(v, uuid, declared, note, line, emit)
    if (!message || !isObject(v.message)) {
      this.parents.skip(uuid, declared)
      if (v.subtype === 'compact_boundary') this.boundaries.set(uuid, v)
      if (v.type === 'progress' && this.mode === 'main') this.progress(v, line)
      return emit(foreignRecord(declared, v, uuid), line)
    }

    const group = messageGroup(v, declared, this.groupOf)
    const parentUuid = group === null ? declared : (this.tailOf.get(group) ?? declared)
    if (group !== null) {
      this.groupOf.set(uuid, group)
      this.tailOf.set(group, uuid)
    }
    this.parents.node(uuid, parentUuid)
    this.lastDrawn = uuid
    // Read before the record is mapped in place (a run's records are its own prompts).
    const typed = typedInClaudeCode(v, true)
    // Mapped in place (the parsed line is ours, and a copy per message was most of the cost of
    // opening a long transcript); the parent the file named is kept beside the one drawn.
    const record = v
    if (v.parentUuid !== parentUuid) {
      record.loggedParentUuid = v.parentUuid
      record.parentUuid = parentUuid
    }
    if (typeof v.timestamp !== 'string') record.timestamp = ''
    if (v.isCompactSummary === true) this.noteCompaction(record)
    if (v.type === 'assistant') this.noteToolCalls(record, uuid)
    else this.noteUserRecord(record, uuid, typed)
    emit(record, line)
    if (v.type !== 'user') return
    this.messageRead(uuid, line, emit)
    const edited = editedPath(record)
    if (edited !== null) this.edited(uuid, this.trackingKey(edited), line, emit)
  }

  subagents(): SubagentRun[] {
    this.addRunsKeptElsewhere()
    const byPrompt = new Map<string, string[]>()
    for (const [toolUseId, call] of this.calls) {
      if (call.prompt === null) continue
      const list = byPrompt.get(call.prompt) ?? []
      list.push(toolUseId)
      byPrompt.set(call.prompt, list)
    }
    const runs = [...this.runs.values()].map((run): SubagentRun => {
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
        parentRunId: null,
        title,
        source: run.source,
        tree: run.tree
      }
    })
    // In 2.1.197 a sub-agent starts its own: its file is beside the others, its meta's
    // toolUseId the Agent call in the transcript of the run that started it.
    return nestedByCall(runs, stringOrNull(this.header?.sessionId), (toolUseId) => {
      for (const run of this.runs.values()) {
        const uuid = run.mapper.toolUseOwner.get(toolUseId)
        const title = run.mapper.calls.get(toolUseId)?.description ?? null
        if (uuid !== undefined) return { runId: run.id, uuid, title }
      }
      return null
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

  /**
   * A user record: a prompt when Claude Code lists it (typed, shown as Claude Code shows it),
   * else the harness's, whatever the file says. A tool result stays one (the tree knows it).
   */
  private noteUserRecord(record: Json, uuid: string, typed: string | null): void {
    const content = (record.message as Json).content
    const result = isObject(record.toolUseResult) ? record.toolUseResult : null
    const agentId = result === null ? null : stringOrNull(result.agentId)
    if (agentId !== null && Array.isArray(content)) {
      const answered = content.find((b) => isObject(b) && b.type === 'tool_result')
      if (isObject(answered) && typeof answered.tool_use_id === 'string')
        this.agentCalls.set(agentId, answered.tool_use_id)
    }
    if (typed === null) {
      const results =
        Array.isArray(content) && content.some((b) => isObject(b) && b.type === 'tool_result')
      if (!results) record.isMeta = true
      return
    }
    if (typed !== promptText(record as UserRecord)) record.typedText = typed
    this.prompts.add(uuid)
  }

  /** A record drawn as a note of ours (see noteOf), its line kept raw beside it. */
  private note(
    v: Json,
    uuid: string,
    parentUuid: string | null,
    note: NonNullable<ReturnType<typeof noteOf>>,
    line: number,
    emit: Emit
  ): void {
    this.parents.node(uuid, parentUuid)
    this.lastDrawn = uuid
    const timestamp = stringOrNull(v.timestamp) ?? ''
    // A user record's text is what Claude Code sent its model: continued, it is sent so again.
    const sentAs = isObject(v.message) ? { details: { sentAs: v.message.content } } : {}
    emit({ type: 'custom_message', uuid, parentUuid, timestamp, ...note, ...sentAs }, line)
    emit(foreignRecord(uuid, v), line)
  }

  /**
   * An agent_progress record: a message of the sub-agent its agentId names, written into the
   * session (2.1 before 2.1.100). Its run is made of these only when no sidecar holds that agent
   * (an exported transcript): the messages name no parent, and chain in file order.
   */
  private progress(v: Json, line: number): void {
    const data = isObject(v.data) ? v.data : null
    const agentId = data === null ? null : stringOrNull(data.agentId)
    const inner = data !== null && isObject(data.message) ? data.message : null
    if (data?.type !== 'agent_progress' || agentId === null || inner === null) return
    if (this.sidecarAgents.has(agentId)) return
    const uuid = stringOrNull(inner.uuid)
    if (uuid === null || (inner.type !== 'user' && inner.type !== 'assistant')) return
    const toolUseId = stringOrNull(v.parentToolUseID)
    if (toolUseId !== null) this.agentCalls.set(agentId, toolUseId)
    const run = this.runs.get(agentId) ?? this.newRun(agentId, agentId, 'inline')
    const previous = this.progressTail.get(agentId) ?? null
    this.progressTail.set(agentId, uuid)
    run.mapper.add(
      {
        ...inner,
        parentUuid: previous,
        isSidechain: true,
        agentId,
        sessionId: v.sessionId,
        timestamp: stringOrNull(inner.timestamp) ?? stringOrNull(v.timestamp) ?? ''
      },
      line,
      (r) => addMapped(run.tree, r)
    )
  }

  /** A sidechain record in a session: it goes to its sub-agent run. */
  private sidechain(v: Json, uuid: string, line: number): void {
    const parent = stringOrNull(v.parentUuid)
    const agentId = stringOrNull(v.agentId)
    const key = agentId ?? (parent === null ? uuid : (this.runOf.get(parent) ?? uuid))
    this.runOf.set(uuid, key)
    const run = this.runs.get(key) ?? this.newRun(key, agentId, 'inline')
    run.mapper.add(v, line, (r) => addMapped(run.tree, r))
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
      // An update read before its message's snapshot (a `--fork-session` file writes every
      // snapshot first, the last turn's update before them) repeats the files that snapshot
      // lists: only those it does not list as they are were first changed in the turn.
      const first = waiting.filter(([path, ref]) => !this.backups.inBaseSnapshot(uuid, path, ref))
      if (first.length > 0) this.emitFirstChanges(uuid, first, {}, line, emit)
    }
    if (!this.backups.hasSnapshot(uuid) || this.snapshotted.has(uuid)) return
    this.snapshotted.add(uuid)
    const earlier = this.snapshottedAbove(uuid)
    if (earlier === null || this.continued.has(earlier)) return
    // The first snapshot after a turn on its branch says how the turn left the files it tracks.
    this.continued.add(earlier)
    const turn = this.turnOf(earlier)
    if (turn === null) return
    const edited = this.editedIn.get(turn)
    for (const [path, was, ref] of this.backups.changedBetween(earlier, uuid)) {
      // A file the turn's tools did not edit changed by hand (or by a command) before the next
      // prompt: no change of the turn's, as Claude Code's own list counts them.
      if (edited?.has(this.trackingKey(path)) === true)
        emit(this.fileChange(turn, path, was, ref, false, {}), line)
    }
  }

  /**
   * A tool result of the turn edited `key` (Write, Edit: Claude Code's own test of what a turn
   * changed). A file tracked already before the turn gets its change at once, its after-state
   * unknown until the next snapshot says it; a file first tracked here got it from the
   * snapshot's update (emitFirstChanges).
   */
  private edited(uuid: string, key: string, line: number, emit: Emit): void {
    const turn = this.turnOf(uuid)
    if (turn === null) return
    const edited = this.editedIn.get(turn) ?? new Set<string>()
    this.editedIn.set(turn, edited)
    if (edited.has(key)) return
    edited.add(key)
    const before = this.backups.before(turn)
    if (before === undefined) return
    for (const [path, ref] of before) {
      if (this.trackingKey(path) !== key) continue
      if (!this.firstChanged.get(turn)?.has(key))
        emit(this.fileChange(turn, path, ref, null, true, {}), line)
      return
    }
  }

  /** A path as the snapshots name it: relative to the session's cwd when inside it. */
  private trackingKey(path: string): string {
    const cwd = String(this.header?.cwd ?? '')
    if (cwd === '' || !isAbsolute(path)) return path
    const rel = relative(cwd, path)
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/')
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
    const first = this.firstChanged.get(turn) ?? new Set<string>()
    this.firstChanged.set(turn, first)
    for (const [path, ref] of changes) {
      first.add(this.trackingKey(path))
      emit(this.fileChange(turn, path, ref, null, true, v), line)
    }
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
    for (const at of this.parents.ancestors(uuid)) if (this.snapshotted.has(at)) return at
    return null
  }

  /** The prompt whose turn a record is in (itself when it is one), or null before the first. */
  private turnOf(uuid: string): string | null {
    if (this.prompts.has(uuid)) return uuid
    for (const at of this.parents.ancestors(uuid)) if (this.prompts.has(at)) return at
    return null
  }
}

/**
 * The file a tool result says its call edited (Claude Code's own test: a Write that created it,
 * or a patch), or null.
 */
function editedPath(record: Json): string | null {
  const result = isObject(record.toolUseResult) ? record.toolUseResult : null
  if (result === null || typeof result.filePath !== 'string') return null
  const patched = Array.isArray(result.structuredPatch) && result.structuredPatch.length > 0
  const created = result.type === 'create' && typeof result.content === 'string'
  return patched || created ? result.filePath : null
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
