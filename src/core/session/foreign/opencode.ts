// A read-only view of an OpenCode session in our tree model. Read from 1.18.33's database
// (test/fixtures/opencode: made by the real CLI, README.md there). OpenCode keeps no file per
// session: its sessions, messages and parts are rows of `<data>/opencode/opencode.db` (SQLite,
// read by sqlite-file.ts without SQLite: nothing locked, no -shm written), and were JSON files in
// older versions (`storage/session/<project>/<ses>.json`, `storage/message/<ses>/<msg>.json`,
// `storage/part/<msg>/<prt>.json`, the same objects as its export). So a session is named by a
// locator, `<opencode.db>#<session id>` (the JSON layout's session file names itself), and read
// by opencode-store.ts into the values the mapper takes, one per message with its parts:
// - a user message's text parts (not `synthetic` or `ignored`) are a prompt;
// - an assistant message (a step of the turn; OpenCode writes one per model call, each naming
//   the user message it answers as parentID) gives its text parts as answers and each tool part
//   as a tool_use and its result, its reasoning parts as thinking (never sent back: no signature);
//   step-start, step-finish and the rest are kept raw. A prompt's image attachments (`file`
//   parts, a data URL) are its image blocks.
//   A compaction (a user message holding a `compaction` part, then an assistant message
//   `summary: true`) is drawn as Claude Code's: the summary's text a user record
//   isCompactSummary, the tree's compaction node; what OpenCode sends after it starts there
//   (its filterCompacted), as continuing here does (continue-foreign.ts: nothing kept before).
//   Messages chain in their order, steps after one another;
// - a `patch` part names the files a step changed and the snapshot (a tree of OpenCode's
//   snapshot repository, `<data>/snapshot/<project>/<hash>/`, whose objects may be the
//   workspace's own through alternates) taken before it; the step's step-finish names the one
//   after: each file is a file_change of the turn, before and after known;
// - a session whose `revert` names a message (after /undo: `{messageID, partID?, snapshot,
//   diff}`) resumes with the messages before it and, with a partID, that message's parts before
//   the part; OpenCode keeps the rest until the next prompt's cleanup removes it (its
//   session/revert.ts). Our leaf goes there, after the last message read (a value
//   readOpenCodeSession puts at the end), and the undone part stays in the tree as a branch.
// - a sub-agent (the `task` tool) runs as a child session, whose parentID is the session's id:
//   each child is read as a session is, after the session's messages, into a run of its own,
//   hung under the task call that started it: the call whose part names the child
//   (`state.metadata.sessionId`, set when the task starts), else the unclaimed call that started
//   nearest the child's creation (the child's row is made a few ms before the part's start).
//   A child's own children (with `subagent_depth` above 1) are read with it, under its task calls
//   (bounded: subagent-nesting.ts). OpenCode's own `session list` shows no child session, nor
//   does ours (openCodeSessions) when it is drawn under a session listed (opencode-children.ts).
// A fork copies the messages it keeps (new ids, "(fork #1)" in its title): it reads as a session
// of its own. A rescue restore to before a prompt gives each file the later steps' patches name
// what the snapshot before the first of them holds (deleted when it holds none), as OpenCode's
// revert does; a file no patch names is never touched.
import { statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { SESSION_FORMAT_VERSION } from '../format-version'
import { isObject, stringOrNull, type Json } from '../json'
import { ProblemLog } from '../problems'
import { SessionTree, conversationNodeOf, typedPrompt } from '../tree'
import {
  type TaskCall,
  drawnAsSubagents,
  isSessionId,
  takeNearestCall,
  taskCall
} from './opencode-children'
import { OpenCodeSnapshots } from './opencode-snapshots'
import {
  CHILD,
  MESSAGE,
  REVERT,
  SESSION,
  type RowsBySession,
  type StoredMessage,
  jsonSessionFiles,
  openCodeLocator,
  openCodeSessionOf,
  openCodeSessionStamp,
  readJsonSession,
  readOpenCodeSession,
  rowsBySession,
  sessionIn
} from './opencode-store'
import { imageBlockOfDataUrl } from './data-url-image'
import { addMapped, foreignRecord } from './raw'
import { SubagentNesting } from './subagent-nesting'
import { readTables } from './sqlite-file'
import type { Emit, ForeignBackups, ForeignMapper, ForeignReader, SubagentRun } from './types'

export const openCode: ForeignReader = {
  format: 'opencode',
  detect: (values) => isObject(values[0]) && values[0].type === SESSION,
  mapper: (_sidecars, file) => new OpenCodeMapper(file),
  keeps:
    'OpenCode keeps a snapshot of the files before each step that changed them: files go back to how the first step after a prompt found them.',
  stored: {
    holds: (file) => openCodeSessionOf(file) !== null,
    read: (file) => readOpenCodeSession(file),
    stamp: (file) => openCodeSessionStamp(file)
  }
}

/**
 * The prompt a user message is, as the tree counts it, or null: the session list counts an
 * OpenCode session's prompts by it (sources/discovery.ts).
 */
export function typedInOpenCode(message: Json): string | null {
  const record = mapUser(message, 'opencode-message', null)
  const node = record === null ? null : conversationNodeOf(record)
  return node === null ? null : typedPrompt(node)
}

function mapUser(m: Json, uuid: string, parent: string | null): Json | null {
  const info = isObject(m.info) ? m.info : {}
  if (info.role !== 'user') return null
  const parts = Array.isArray(m.parts) ? m.parts.filter(isObject) : []
  const text = parts
    .filter((p) => p.type === 'text' && p.synthetic !== true && p.ignored !== true)
    .map((p) => String(p.text ?? ''))
    .join('\n\n')
  if (text.trim() === '') return null
  return {
    type: 'user',
    uuid,
    parentUuid: parent,
    timestamp: isoOf(isObject(info.time) ? info.time.created : info.time_created),
    message: { role: 'user', content: [{ type: 'text', text }, ...parts.flatMap(imageOf)] }
  }
}

/**
 * A picture attached to a prompt (a `file` part of an image type, its bytes in a data URL) as
 * the Messages API takes it; none for another file (OpenCode sends a text file's content as a
 * synthetic text part of its own) or an image named only by a path.
 */
function imageOf(part: Json): Json[] {
  const image =
    part.type === 'file' && typeof part.url === 'string' ? imageBlockOfDataUrl(part.url) : null
  return image === null ? [] : [image]
}

function isoOf(ms: unknown): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : ''
}

/** A child session read into a run of its own. */
interface ChildRun {
  id: string
  source: string
  createdAt: number | null
  title: string | null
  tree: SessionTree
  /** Its reading, which holds its own children (a sub-agent's sub-agents). */
  mapper: OpenCodeMapper
}

class OpenCodeMapper implements ForeignMapper {
  readonly problems = new ProblemLog()
  private snapshots: OpenCodeSnapshots | null = null
  private cwd = ''
  private previous: string | null = null
  private turn: string | null = null
  /** The session's revert (/undo), and the last record of what it keeps, found so far. */
  private revert: { messageID: string; partID: string | null } | null = null
  private revertLeaf: string | null = null
  /** In the revert's message, the last record before its part. */
  private partLeaf: string | null = null
  private changes = 0
  private readonly tasks: TaskCall[] = []
  private readonly children = new Map<string, ChildRun>()
  /** The session's id (its row's): a child naming it is a loop. */
  private sessionId: string | null = null

  constructor(private readonly file: string | null) {}

  add(value: unknown, line: number, emit: Emit): void {
    if (!isObject(value)) return emit(foreignRecord(this.previous, value), line)
    if (value.type === SESSION) return this.session(value, line, emit)
    if (value.type === REVERT) return this.resumeAtRevert(line, emit)
    if (value.type === CHILD) return this.child(value, line)
    if (value.type !== MESSAGE) return emit(foreignRecord(this.previous, value), line)
    const id = stringOrNull(value.id) ?? `opencode-line-${line}`
    const info = isObject(value.info) ? value.info : {}
    if (info.role === 'user') {
      const record = mapUser(value, id, this.previous)
      if (record !== null) {
        emit(record, line)
        this.previous = id
        this.turn = id
        this.snapshots?.turn(id)
      }
    } else this.assistant(value, id, info, line, emit)
    emit(foreignRecord(this.previous, value), line)
    // OpenCode's ids sort in the order they were made: its cleanup keeps the messages before the
    // revert's, and of that message (with a partID) the parts before it (assistant() saw them).
    const revert = this.revert
    if (revert !== null && (id < revert.messageID || (id === revert.messageID && revert.partID)))
      this.revertLeaf = this.partLeaf ?? this.previous
    this.partLeaf = null
  }

  /** The session was reverted (/undo): OpenCode resumes after what the revert keeps. */
  private resumeAtRevert(line: number, emit: Emit): void {
    if (this.revert === null) return
    emit(
      {
        type: 'navigate',
        uuid: `opencode-revert:${this.revert.messageID}:${this.revert.partID ?? ''}`,
        parentUuid: null,
        timestamp: '',
        leafUuid: this.revertLeaf,
        reason: 'switch-branch'
      },
      line
    )
  }

  /**
   * A child session's values, read as a session is (its own mapper), into its own tree. It is
   * no record of this session's tree: its records are kept raw in its own.
   */
  private child(v: Json, line: number): void {
    const values = Array.isArray(v.values) ? v.values : []
    const first = isObject(values[0]) ? values[0] : {}
    const id = stringOrNull(first.id)
    // The store gives what the bounds draw (subagent-nesting.ts), so these are bounded already.
    if (id === null || this.children.has(id)) return
    const file = stringOrNull(v.file)
    const mapper = new OpenCodeMapper(file)
    const tree = new SessionTree()
    for (const value of values) mapper.add(value, line, (record) => addMapped(tree, record))
    const createdAt = first.time_created
    this.children.set(id, {
      id,
      source: file === null ? id : basename(file),
      createdAt: typeof createdAt === 'number' && Number.isFinite(createdAt) ? createdAt : null,
      title: stringOrNull(first.title),
      tree,
      mapper
    })
  }

  /**
   * Each child session, under the task call that started it: the call naming it, else (a part
   * that names none: an older OpenCode, or a call cut short) the unclaimed call that started
   * nearest its creation, children taken in the order they were made; each followed by its own
   * children's runs.
   */
  subagents(): SubagentRun[] {
    return this.runsWithin(SubagentNesting.of(this.sessionId))
  }

  /** The runs of this session's children, `nesting` its place among the session's runs. */
  private runsWithin(nesting: SubagentNesting): SubagentRun[] {
    const named = new Map<string, TaskCall>()
    for (const call of this.tasks) {
      if (call.sessionId !== null && this.children.has(call.sessionId))
        named.set(call.sessionId, call)
    }
    const unclaimed = this.tasks.filter(
      (call) => call.sessionId === null || !this.children.has(call.sessionId)
    )
    return [...this.children.values()].flatMap((child) => {
      if (!nesting.take(child.id)) return []
      const call = named.get(child.id) ?? takeNearestCall(unclaimed, child.createdAt)
      const firstPrompt = child.tree.checkpoints()[0]?.prompt
      const run: SubagentRun = {
        id: child.id,
        toolUseId: call?.callId ?? null,
        parentUuid: call?.uuid ?? null,
        parentRunId: nesting.runId,
        title: call?.description ?? child.title ?? firstPrompt?.split('\n', 1)[0] ?? 'sub-agent',
        source: child.source,
        tree: child.tree
      }
      return [run, ...child.mapper.runsWithin(nesting.within(child.id))]
    })
  }

  get backups(): ForeignBackups | null {
    return this.snapshots
  }

  private session(v: Json, line: number, emit: Emit): void {
    const sessionId = stringOrNull(v.id) ?? ''
    this.sessionId = sessionId || null
    this.cwd = stringOrNull(v.directory) ?? ''
    const revert = isObject(v.revert) ? v.revert : {}
    const messageID = stringOrNull(revert.messageID)
    this.revert = messageID === null ? null : { messageID, partID: stringOrNull(revert.partID) }
    emit(
      {
        type: 'session',
        uuid: `opencode:${sessionId || 'unknown'}`,
        parentUuid: null,
        timestamp: isoOf(v.time_created),
        version: SESSION_FORMAT_VERSION,
        sessionId,
        cwd: this.cwd,
        importedFrom: { format: 'opencode', version: stringOrNull(v.version) },
        ...(typeof v.title === 'string' ? { title: v.title } : {})
      },
      line
    )
    emit(foreignRecord(null, v), line)
    const at = this.file === null ? null : openCodeSessionOf(this.file)
    if (at !== null) {
      const data = at.json ? dirname(dirname(dirname(dirname(at.store)))) : dirname(at.store)
      this.snapshots = OpenCodeSnapshots.of(join(data, 'snapshot', String(v.project_id ?? '')))
    }
  }

  /** One step of a turn: its text and tool parts as records, its patches as file changes. */
  private assistant(m: Json, id: string, info: Json, line: number, emit: Emit): void {
    const parts = Array.isArray(m.parts) ? m.parts.filter(isObject) : []
    const timestamp = isoOf(isObject(info.time) ? info.time.created : info.time_created)
    const model = stringOrNull(info.modelID) ?? undefined
    const after = stringOrNull(parts.find((p) => p.type === 'step-finish')?.snapshot)
    parts.forEach((part, i) => {
      const uuid = stringOrNull(part.id) ?? `${id}:${i}`
      if (this.revert !== null && this.revert.partID === part.id && this.revert.messageID === id)
        this.partLeaf = this.previous
      const draw = (record: Json) => {
        emit(record, line)
        this.previous = String(record.uuid)
      }
      const answer = (content: Json[], stopReason: 'end_turn' | 'tool_use') =>
        draw({
          type: 'assistant',
          uuid,
          parentUuid: this.previous,
          timestamp,
          message: { role: 'assistant', content, model, stop_reason: stopReason }
        })
      if (part.type === 'text' && info.summary === true && String(part.text ?? '') !== '') {
        // A compaction's summary: drawn as Claude Code's is (the tree's compaction node).
        draw({
          type: 'user',
          uuid,
          parentUuid: this.previous,
          timestamp,
          isCompactSummary: true,
          isMeta: true,
          message: { role: 'user', content: [{ type: 'text', text: String(part.text) }] }
        })
      } else if (
        part.type === 'text' &&
        part.synthetic !== true &&
        String(part.text ?? '') !== ''
      ) {
        answer([{ type: 'text', text: String(part.text) }], 'end_turn')
      } else if (part.type === 'reasoning' && String(part.text ?? '').trim() !== '') {
        // The model's reasoning as OpenCode kept it: a thinking block with no signature (shown,
        // never sent back: the API refuses it; agent/context.ts).
        answer([{ type: 'thinking', thinking: String(part.text) }], 'end_turn')
      } else if (part.type === 'tool') {
        const state = isObject(part.state) ? part.state : {}
        const callId = stringOrNull(part.callID) ?? uuid
        if (part.tool === 'task') this.tasks.push(taskCall(part, callId, uuid, info))
        answer(
          [
            {
              type: 'tool_use',
              id: callId,
              name: stringOrNull(part.tool) ?? 'tool',
              input: isObject(state.input) ? state.input : {}
            }
          ],
          'tool_use'
        )
        if (state.status === 'completed' || state.status === 'error') {
          draw({
            type: 'user',
            uuid: `${uuid}:result`,
            parentUuid: uuid,
            timestamp,
            message: {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: callId,
                  content: String(
                    state.status === 'error' ? (state.error ?? '') : (state.output ?? '')
                  ),
                  is_error: state.status === 'error'
                }
              ]
            }
          })
        }
      } else if (part.type === 'patch') {
        this.patch(part, after, timestamp, line, emit)
      }
    })
  }

  private patch(
    part: Json,
    after: string | null,
    timestamp: string,
    line: number,
    emit: Emit
  ): void {
    const before = stringOrNull(part.hash)
    const files = Array.isArray(part.files)
      ? part.files.filter((f): f is string => typeof f === 'string')
      : []
    if (before === null || this.turn === null) return
    const paths = files.map((f) => relativeTo(this.cwd, f))
    this.snapshots?.patch(this.turn, before, paths, after)
    for (const path of paths) {
      const blob = this.snapshots?.blob(before, path)
      const then = this.snapshots?.blob(after, path)
      if (blob === undefined || then === undefined) continue
      emit(
        {
          type: 'file_change',
          uuid: `opencode-file:${++this.changes}`,
          parentUuid: null,
          timestamp,
          checkpointUuid: this.turn,
          path,
          before: blob,
          after: then,
          source: 'opencode'
        },
        line
      )
    }
  }
}

function relativeTo(cwd: string, path: string): string {
  if (!isAbsolute(path) || cwd === '') return path
  const rel = relative(cwd, path)
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/')
}

/** What the session list shows of an OpenCode session (sources/discovery.ts). */
export interface OpenCodeListed {
  file: string
  sessionId: string
  cwd: string | null
  title: string | null
  createdAt: string | null
  lastActivity: string | null
  /** Its prompts, by the rule the tree counts them with (typedInOpenCode), and the first. */
  prompts: number
  firstPrompt: string | null
}

/**
 * Every session of the database at `db` (one read of it), and of the JSON files beside it; not
 * a child session its parent draws as a sub-agent (drawnAsSubagents), as OpenCode's own `session
 * list` shows none.
 */
export function openCodeSessions(db: string): {
  sessions: OpenCodeListed[]
  /** Why the database that is there could not be read (damaged, cut short), else null. */
  problem: string | null
} {
  const listed: OpenCodeListed[] = []
  let rows: RowsBySession | null = null
  let problem: string | null = null
  try {
    rows = rowsBySession(readTables(db, ['session', 'message', 'part']))
  } catch (error) {
    // No database (an older OpenCode) says nothing: its JSON files may be there. One that is
    // there but cannot be read hides every project's sessions: the list says so.
    if (statSync(db, { throwIfNoEntry: false })?.isFile() === true) {
      problem = error instanceof Error ? error.message : String(error)
    }
  }
  const drawn = drawnAsSubagents(rows?.sessions ?? [])
  for (const row of rows?.sessions ?? []) {
    if (rows === null || !isSessionId(row.id) || drawn.has(row.id)) continue
    const { session, messages } = sessionIn(rows, row.id)
    if (session !== null) listed.push(listedOf(openCodeLocator(db, row.id), session, messages))
  }
  // A JSON session's children are the session files of its project's folder (one per project).
  const read = jsonSessionFiles(join(dirname(db), 'storage', 'session')).map(({ file }) =>
    readJsonSession(file)
  )
  const byProject = new Map<string, Json[]>()
  for (const { file, session } of read) {
    const folder = byProject.get(dirname(file)) ?? []
    if (session !== null) folder.push(session)
    byProject.set(dirname(file), folder)
  }
  const drawnJson = new Map([...byProject].map(([folder, s]) => [folder, drawnAsSubagents(s)]))
  for (const { file, session, messages } of read) {
    if (session === null || drawnJson.get(dirname(file))?.has(String(session.id))) continue
    listed.push(listedOf(file, session, messages))
  }
  return { sessions: listed, problem }
}

function listedOf(file: string, session: Json, messages: StoredMessage[]): OpenCodeListed {
  const prompts = messages.flatMap((m) => {
    const typed = typedInOpenCode(m as unknown as Json)
    return typed === null ? [] : [typed]
  })
  const times = [session.time_updated, ...messages.map((m) => m.info.time_created)].filter(
    (t): t is number => typeof t === 'number'
  )
  return {
    file,
    sessionId: String(session.id),
    cwd: stringOrNull(session.directory),
    title: stringOrNull(session.title),
    createdAt: isoOf(session.time_created) || null,
    lastActivity: times.length === 0 ? null : new Date(Math.max(...times)).toISOString(),
    prompts: prompts.length,
    firstPrompt: prompts[0] ?? null
  }
}
