// A read-only view of an OpenCode session in our tree model. Read from 1.18.33's database
// (test/fixtures/opencode: made by the real CLI, README.md there). OpenCode keeps no file per
// session: its sessions, messages and parts are rows of `<data>/opencode/opencode.db` (SQLite,
// read by sqlite-file.ts without SQLite: nothing locked, no -shm written), and were JSON files in
// older versions (`storage/session/<project>/<ses>.json`, `storage/message/<ses>/<msg>.json`,
// `storage/part/<msg>/<prt>.json`, the same objects as its export). So a session is named by a
// locator, `<opencode.db>#<session id>` (the JSON layout's session file names itself), and read
// here into the values the mapper takes, one per message with its parts:
// - a user message's text parts (not `synthetic` or `ignored`) are a prompt;
// - an assistant message (a step of the turn; OpenCode writes one per model call, each naming
//   the user message it answers as parentID) gives its text parts as answers and each tool part
//   as a tool_use and its result; step-start, step-finish, reasoning and the rest are kept raw.
//   A compaction (a user message holding a `compaction` part, then an assistant message
//   `summary: true`) is drawn as Claude Code's: the summary's text a user record
//   isCompactSummary, the tree's compaction node; what OpenCode sends after it starts there
//   (its filterCompacted), as continuing here does (continue-foreign.ts: nothing kept before);
//   Messages chain in their order, steps after one another;
// - a `patch` part names the files a step changed and the snapshot (a tree of OpenCode's
//   snapshot repository, `<data>/snapshot/<project>/<hash>/`, whose objects may be the
//   workspace's own through alternates) taken before it; the step's step-finish names the one
//   after: each file is a file_change of the turn, before and after known;
// - a session whose `revert` names a message (after /undo: `{messageID, partID?, snapshot,
//   diff}`) resumes with the messages before it and, with a partID, that message's parts before
//   the part; OpenCode keeps the rest until the next prompt's cleanup removes it (its
//   session/revert.ts). Our leaf goes there, after the last message read (a value readSession
//   puts at the end), and the undone part stays in the tree as a branch.
// - a sub-agent (the `task` tool) runs as a child session, whose parentID is the session's id:
//   each child is read as a session is, after the session's messages, into a run of its own,
//   hung under the task call that started it: the call whose part names the child
//   (`state.metadata.sessionId`, set when the task starts), else the unclaimed call that started
//   nearest the child's creation (the child's row is made a few ms before the part's start).
//   OpenCode's own `session list` shows no child session, nor does ours (openCodeSessions) when
//   its parent is listed: the child is drawn there;
// A fork copies the messages it keeps (new ids, "(fork #1)" in its title): it reads as a session
// of its own. A rescue restore to before a prompt gives each file the later steps' patches name
// what the snapshot before the first of them holds (deleted when it holds none), as OpenCode's
// revert does; a file no patch names is never touched.
import { readdirSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import { readRegularText } from '../../os/read-regular-file'
import { SESSION_FORMAT_VERSION } from '../format-version'
import { isObject, stringOrNull, type Json } from '../json'
import { ProblemLog } from '../problems'
import { SessionTree, conversationNodeOf, typedPrompt } from '../tree'
import {
  MAX_CHILDREN,
  type TaskCall,
  childrenByParent,
  drawnAsSubagents,
  drawnChildren,
  isSessionId,
  takeNearestCall,
  taskCall
} from './opencode-children'
import { OpenCodeSnapshots } from './opencode-snapshots'
import { addMapped, foreignRecord } from './raw'
import { type SqliteRow, readTables, stampsOf } from './sqlite-file'
import type {
  Emit,
  ForeignBackups,
  ForeignMapper,
  ForeignReader,
  ParsedLines,
  SubagentRun
} from './types'

/** The value a session starts with, and one per message (with its parts). */
const SESSION = 'opencode-session'
const MESSAGE = 'opencode-message'
/** The session's revert, after its messages: where the leaf goes once they are all drawn. */
const REVERT = 'opencode-revert'
/** A child session (a sub-agent's), after the session's values: its own values, read alike. */
const CHILD = 'opencode-child'

const LOCATOR = /^(.+\.db)#(ses_[A-Za-z0-9]{1,64})$/
const JSON_SESSION = /[/\\]storage[/\\]session[/\\][^/\\]+[/\\](ses_[A-Za-z0-9]{1,64})\.json$/

/** The most messages and parts of one session read from JSON files. */
const MAX_FILES = 200_000

export const openCode: ForeignReader = {
  format: 'opencode',
  detect: (values) => isObject(values[0]) && values[0].type === SESSION,
  mapper: (_sidecars, file) => new OpenCodeMapper(file),
  keeps:
    'OpenCode keeps a snapshot of the files before each step that changed them: files go back to how the first step after a prompt found them.',
  stored: {
    holds: (file) => LOCATOR.test(file) || JSON_SESSION.test(file),
    read: (file) => readSession(file),
    stamp: (file) => stampOf(file)
  }
}

/** The locator of a session of the database at `db`. */
export function openCodeLocator(db: string, sessionId: string): string {
  return `${db}#${sessionId}`
}

/** The database (or JSON session file) a locator names, and the session id. */
export function openCodeSessionOf(
  file: string
): { store: string; sessionId: string; json: boolean } | null {
  const db = LOCATOR.exec(file)
  if (db !== null) return { store: db[1] ?? '', sessionId: db[2] ?? '', json: false }
  const json = JSON_SESSION.exec(file)
  return json === null ? null : { store: file, sessionId: json[1] ?? '', json: true }
}

function stampOf(file: string): string {
  const at = openCodeSessionOf(file)
  if (at === null) return '-'
  return at.json ? jsonSessionStamp(file, at.sessionId) : stampsOf(at.store)
}

/**
 * What changes whenever a session of the JSON layout may have: its file (a new title), its
 * project's folder (a session added there: a sub-agent's), its messages' folder (a message added), and its newest message with its parts, where OpenCode is
 * writing (a part added, a tool's state or a text written again in place). Older messages and
 * their parts are left as they were.
 */
function jsonSessionStamp(file: string, sessionId: string): string {
  const storage = dirname(dirname(dirname(file)))
  const messages = join(storage, 'message', sessionId)
  const names = jsonNames(messages)
  const newest = names.at(-1)
  // Its project's folder too: a child session (a sub-agent) begun since.
  const stamps = [statStamp(file), statStamp(dirname(file)), statStamp(messages), `${names.length}`]
  if (newest !== undefined) {
    const parts = join(storage, 'part', basename(newest, '.json'))
    stamps.push(
      statStamp(join(messages, newest)),
      ...jsonNames(parts).map((name) => `${name}:${statStamp(join(parts, name))}`)
    )
  }
  return stamps.join('|')
}

function statStamp(path: string): string {
  try {
    const stats = statSync(path)
    return `${stats.size}/${stats.mtimeMs}/${stats.ino}`
  } catch {
    return '-'
  }
}

/**
 * The values of one session: its row, then each message with its parts, in their order, its
 * revert; then each child session (a sub-agent's) as one value holding its own values.
 */
function readSession(file: string): ParsedLines {
  const at = openCodeSessionOf(file)
  if (at === null) throw new Error(`${file} names no OpenCode session`)
  const { session, messages, children } = at.json
    ? readJsonSessionWithChildren(file)
    : readDbSession(at.store, at.sessionId)
  if (session === null) throw new Error(`OpenCode's ${at.store} holds no session ${at.sessionId}`)
  const values: unknown[] = [
    ...valuesOf(session, messages),
    ...children.flatMap((child) =>
      child.session === null
        ? []
        : [{ type: CHILD, file: child.file, values: valuesOf(child.session, child.messages) }]
    )
  ]
  return { values, lines: values.map((_, i) => i + 1) }
}

function valuesOf(session: Json, messages: StoredMessage[]): unknown[] {
  const revert = isObject(session.revert) ? session.revert : {}
  return [
    { type: SESSION, ...session },
    ...messages.map((m) => ({ type: MESSAGE, ...m })),
    ...(typeof revert.messageID === 'string' ? [{ ...revert, type: REVERT }] : [])
  ]
}

interface StoredMessage {
  id: string
  info: Json
  parts: Json[]
}

/** A session as stored: its row (null when there is none), its messages, where it is. */
interface StoredSession {
  file: string
  session: Json | null
  messages: StoredMessage[]
}

type WithChildren = Omit<StoredSession, 'file'> & { children: StoredSession[] }

function readDbSession(db: string, sessionId: string): WithChildren {
  const tables = readTables(db, ['session', 'message', 'part'])
  const children = drawnChildren(childrenByParent(tables.get('session') ?? []), sessionId).map(
    (row) => ({ file: openCodeLocator(db, String(row.id)), ...sessionIn(tables, String(row.id)) })
  )
  return { ...sessionIn(tables, sessionId), children }
}

function sessionIn(
  tables: Map<string, SqliteRow[]>,
  sessionId: string
): { session: Json | null; messages: StoredMessage[] } {
  const row = (tables.get('session') ?? []).find((s) => s.id === sessionId)
  if (row === undefined) return { session: null, messages: [] }
  const parts = new Map<string, Json[]>()
  for (const part of (tables.get('part') ?? [])
    .filter((p) => p.session_id === sessionId)
    .sort(byId)) {
    const list = parts.get(String(part.message_id)) ?? []
    list.push({ id: part.id, ...parsedData(part.data) })
    parts.set(String(part.message_id), list)
  }
  const messages = (tables.get('message') ?? [])
    .filter((m) => m.session_id === sessionId)
    .sort(byId)
    .map((m) => ({
      id: String(m.id),
      info: { ...parsedData(m.data), id: m.id, time_created: m.time_created },
      parts: parts.get(String(m.id)) ?? []
    }))
  return { session: sessionOf(row), messages }
}

/** OpenCode's ids sort in the order they were made (a time, then a counter). */
function byId(a: SqliteRow, b: SqliteRow): number {
  return String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0
}

function sessionOf(row: SqliteRow): Json {
  return {
    id: row.id,
    title: row.title,
    directory: row.directory,
    project_id: row.project_id,
    parent_id: row.parent_id,
    version: row.version,
    time_created: row.time_created,
    time_updated: row.time_updated,
    revert: parsedData(row.revert)
  }
}

/** A JSON session, and its children: the session files beside it that name it their parent. */
function readJsonSessionWithChildren(file: string): WithChildren {
  const { session, messages } = readJsonSession(file)
  if (session === null) return { session, messages, children: [] }
  const beside = jsonNames(dirname(file))
    .filter((name) => /^ses_[A-Za-z0-9]{1,64}\.json$/.test(name) && name !== basename(file))
    .map((name) => readJsonSession(join(dirname(file), name)))
  const byId = new Map(beside.map((read) => [read.session?.id, read]))
  const rows = beside.flatMap((read) => (read.session === null ? [] : [read.session]))
  const children = drawnChildren(childrenByParent(rows), String(session.id)).flatMap(
    (row) => byId.get(row.id) ?? []
  )
  return { session, messages, children }
}

function readJsonSession(file: string): StoredSession {
  const info = parsedData(readText(file))
  if (Object.keys(info).length === 0) return { file, session: null, messages: [] }
  const storage = dirname(dirname(dirname(file)))
  const sessionId = stringOrNull(info.id) ?? basename(file, '.json')
  const time = isObject(info.time) ? info.time : {}
  const session: Json = {
    id: sessionId,
    title: info.title,
    directory: info.directory,
    project_id: info.projectID,
    parent_id: info.parentID ?? null,
    version: info.version,
    time_created: time.created,
    time_updated: time.updated,
    revert: isObject(info.revert) ? info.revert : {}
  }
  const messages = jsonFiles(join(storage, 'message', sessionId)).map((info) => {
    const id = stringOrNull(info.id) ?? ''
    return { id, info, parts: jsonFiles(join(storage, 'part', id)) }
  })
  return {
    file,
    session,
    messages: messages.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }
}

function jsonFiles(dir: string): Json[] {
  return jsonNames(dir)
    .map((name) => parsedData(readText(join(dir, name))))
    .filter((v) => Object.keys(v).length > 0)
}

/** The `.json` files of a folder of the JSON layout, in the order OpenCode made them (bounded). */
function jsonNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .slice(0, MAX_FILES)
  } catch {
    return []
  }
}

function parsedData(data: unknown): Json {
  if (typeof data !== 'string') return {}
  try {
    const value: unknown = JSON.parse(data)
    return isObject(value) ? value : {}
  } catch {
    return {}
  }
}

function readText(file: string): string | null {
  try {
    return readRegularText(file)
  } catch {
    return null
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
    message: { role: 'user', content: [{ type: 'text', text }] }
  }
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
    if (id === null || this.children.has(id) || this.children.size >= MAX_CHILDREN) return
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
      tree
    })
  }

  /**
   * Each child session, under the task call that started it: the call naming it, else (a part
   * that names none: an older OpenCode, or a call cut short) the unclaimed call that started
   * nearest its creation, children taken in the order they were made.
   */
  subagents(): SubagentRun[] {
    const named = new Map<string, TaskCall>()
    for (const call of this.tasks) {
      if (call.sessionId !== null && this.children.has(call.sessionId))
        named.set(call.sessionId, call)
    }
    const unclaimed = this.tasks.filter(
      (call) => call.sessionId === null || !this.children.has(call.sessionId)
    )
    return [...this.children.values()].map((child) => {
      const call = named.get(child.id) ?? takeNearestCall(unclaimed, child.createdAt)
      const firstPrompt = child.tree.checkpoints()[0]?.prompt
      return {
        id: child.id,
        toolUseId: call?.callId ?? null,
        parentUuid: call?.uuid ?? null,
        title: call?.description ?? child.title ?? firstPrompt?.split('\n', 1)[0] ?? 'sub-agent',
        source: child.source,
        tree: child.tree
      }
    })
  }

  get backups(): ForeignBackups | null {
    return this.snapshots
  }

  private session(v: Json, line: number, emit: Emit): void {
    const sessionId = stringOrNull(v.id) ?? ''
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
        draw({
          type: 'assistant',
          uuid,
          parentUuid: this.previous,
          timestamp,
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: String(part.text) }],
            model,
            stop_reason: 'end_turn'
          }
        })
      } else if (part.type === 'tool') {
        const state = isObject(part.state) ? part.state : {}
        const callId = stringOrNull(part.callID) ?? uuid
        if (part.tool === 'task') this.tasks.push(taskCall(part, callId, uuid, info))
        draw({
          type: 'assistant',
          uuid,
          parentUuid: this.previous,
          timestamp,
          message: {
            role: 'assistant',
            content: [
              {
                type: 'tool_use',
                id: callId,
                name: stringOrNull(part.tool) ?? 'tool',
                input: isObject(state.input) ? state.input : {}
              }
            ],
            model,
            stop_reason: 'tool_use'
          }
        })
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

/**
 * What says the sessions of the database at `db` (and the JSON files beside it) may have changed:
 * the database's files, and each JSON session's stamp (a session begun, a message written).
 */
export function openCodeStamp(db: string): string {
  const json = jsonSessionFiles(join(dirname(db), 'storage', 'session')).map(
    ({ file, sessionId }) => `${sessionId}:${jsonSessionStamp(file, sessionId)}`
  )
  return `${stampsOf(db)}|${json.join(',')}`
}

/** The session files of the JSON layout, every project's (bounded per project). */
function jsonSessionFiles(storage: string): { file: string; sessionId: string }[] {
  let projects: string[]
  try {
    projects = readdirSync(storage).sort()
  } catch {
    return []
  }
  return projects.flatMap((project) =>
    jsonNames(join(storage, project))
      .filter((name) => /^ses_[A-Za-z0-9]{1,64}\.json$/.test(name))
      .map((name) => ({ file: join(storage, project, name), sessionId: basename(name, '.json') }))
  )
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
export function openCodeSessions(db: string): OpenCodeListed[] {
  const listed: OpenCodeListed[] = []
  let tables: Map<string, SqliteRow[]> | null = null
  try {
    tables = readTables(db, ['session', 'message', 'part'])
  } catch {
    // No database (an older OpenCode), or none readable now: its JSON files may be there.
  }
  const rows = tables?.get('session') ?? []
  const drawn = drawnAsSubagents(rows)
  for (const row of rows) {
    if (!isSessionId(row.id) || drawn.has(row.id)) continue
    const { session, messages } = sessionIn(tables as Map<string, SqliteRow[]>, row.id)
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
  return listed
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
