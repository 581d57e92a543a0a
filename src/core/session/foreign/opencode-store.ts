// OpenCode's sessions as it stores them, read into the values the reader's mapper takes
// (opencode.ts): rows of `<data>/opencode/opencode.db` (SQLite, read by sqlite-file.ts without
// SQLite), or in older versions JSON files (`storage/session/<project>/<ses>.json`,
// `storage/message/<ses>/<msg>.json`, `storage/part/<msg>/<prt>.json`). A session is named by a
// locator, `<opencode.db>#<session id>` (the JSON layout's session file names itself); its values
// are its row, each message with its parts, its revert, then each child session (a sub-agent's,
// opencode-children.ts) as one value holding its own, a child's own children among them (as far
// as subagent-nesting.ts's bounds draw them); and its stamp is what changes whenever it may have.
import { readdirSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { readOptionalText } from '../../os/read-regular-file'
import { isObject, stringOrNull, type Json } from '../json'
import { childrenByParent } from './opencode-children'
import { type SqliteRow, readTables, stampsOf } from './sqlite-file'
import { SubagentNesting } from './subagent-nesting'
import type { ParsedLines } from './types'

/** The value a session starts with, and one per message (with its parts). */
export const SESSION = 'opencode-session'
export const MESSAGE = 'opencode-message'
/** The session's revert, after its messages: where the leaf goes once they are all drawn. */
export const REVERT = 'opencode-revert'
/** A child session (a sub-agent's), after the session's values: its own values, read alike. */
export const CHILD = 'opencode-child'

const LOCATOR = /^(.+\.db)#(ses_[A-Za-z0-9]{1,64})$/
const JSON_SESSION = /[/\\]storage[/\\]session[/\\][^/\\]+[/\\](ses_[A-Za-z0-9]{1,64})\.json$/

/** The most messages and parts of one session read from JSON files. */
const MAX_FILES = 200_000

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

export function openCodeSessionStamp(file: string): string {
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
 * revert; then each child session (a sub-agent's) as one value holding its own values, its own
 * children's among them.
 */
export function readOpenCodeSession(file: string): ParsedLines {
  const at = openCodeSessionOf(file)
  if (at === null) throw new Error(`${file} names no OpenCode session`)
  const read = at.json ? readJsonSessionWithChildren(file) : readDbSession(at.store, at.sessionId)
  if (read.session === null)
    throw new Error(`OpenCode's ${at.store} holds no session ${at.sessionId}`)
  const values = valuesOf(read)
  return { values, lines: values.map((_, i) => i + 1) }
}

function valuesOf({ session, messages, children }: WithChildren): unknown[] {
  if (session === null) return []
  const revert = isObject(session.revert) ? session.revert : {}
  return [
    { type: SESSION, ...session },
    ...messages.map((m) => ({ type: MESSAGE, ...m })),
    ...(typeof revert.messageID === 'string' ? [{ ...revert, type: REVERT }] : []),
    ...children.flatMap((child) =>
      child.session === null ? [] : [{ type: CHILD, file: child.file, values: valuesOf(child) }]
    )
  ]
}

export interface StoredMessage {
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

/** A session with the child sessions its reading draws, theirs in turn. */
interface WithChildren extends StoredSession {
  children: WithChildren[]
}

function readDbSession(db: string, sessionId: string): WithChildren {
  const rows = rowsBySession(readTables(db, ['session', 'message', 'part']))
  const children = childrenByParent(rows.sessions)
  return withChildren(
    { file: openCodeLocator(db, sessionId), ...sessionIn(rows, sessionId) },
    (id) => (children.get(id) ?? []).map((row) => String(row.id)),
    (id) => ({ file: openCodeLocator(db, id), ...sessionIn(rows, id) })
  )
}

/**
 * `session` with the children its reading draws (subagent-nesting.ts: depth first, bounded, each
 * once), each read by `read` only when drawn; `childrenOf` gives a session's in the order made.
 */
function withChildren(
  session: StoredSession,
  childrenOf: (id: string) => readonly string[],
  read: (id: string) => StoredSession,
  nesting = SubagentNesting.of(stringOrNull(session.session?.id))
): WithChildren {
  const id = stringOrNull(session.session?.id)
  const children = (id === null ? [] : childrenOf(id)).flatMap((child) =>
    nesting.take(child) ? [withChildren(read(child), childrenOf, read, nesting.within(child))] : []
  )
  return { ...session, children }
}

/** The database's rows by session: each session read from it costs its own rows, not all of them. */
export interface RowsBySession {
  sessions: SqliteRow[]
  session: Map<unknown, SqliteRow>
  messages: Map<unknown, SqliteRow[]>
  parts: Map<unknown, SqliteRow[]>
}

export function rowsBySession(tables: Map<string, SqliteRow[]>): RowsBySession {
  const group = (rows: SqliteRow[]) => {
    const by = new Map<unknown, SqliteRow[]>()
    for (const row of rows) {
      const list = by.get(row.session_id)
      if (list === undefined) by.set(row.session_id, [row])
      else list.push(row)
    }
    return by
  }
  const sessions = tables.get('session') ?? []
  const session = new Map<unknown, SqliteRow>()
  for (const row of sessions) if (!session.has(row.id)) session.set(row.id, row)
  return {
    sessions,
    session,
    messages: group(tables.get('message') ?? []),
    parts: group(tables.get('part') ?? [])
  }
}

export function sessionIn(
  rows: RowsBySession,
  sessionId: string
): { session: Json | null; messages: StoredMessage[] } {
  const row = rows.session.get(sessionId)
  if (row === undefined) return { session: null, messages: [] }
  const parts = new Map<string, Json[]>()
  for (const part of [...(rows.parts.get(sessionId) ?? [])].sort(byId)) {
    const list = parts.get(String(part.message_id)) ?? []
    list.push({ id: part.id, ...parsedData(part.data) })
    parts.set(String(part.message_id), list)
  }
  const messages = [...(rows.messages.get(sessionId) ?? [])].sort(byId).map((m) => ({
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

/**
 * A JSON session, and its children: the session files beside it that name it their parent (the
 * files of its project's folder), theirs in turn.
 */
function readJsonSessionWithChildren(file: string): WithChildren {
  const session = readJsonSession(file)
  if (session.session === null) return { ...session, children: [] }
  const beside = jsonNames(dirname(file))
    .filter((name) => /^ses_[A-Za-z0-9]{1,64}\.json$/.test(name) && name !== basename(file))
    .map((name) => readJsonSession(join(dirname(file), name)))
  const byId = new Map(beside.map((read) => [read.session?.id, read]))
  const children = childrenByParent(
    beside.flatMap((read) => (read.session === null ? [] : [read.session]))
  )
  return withChildren(
    session,
    (id) => (children.get(id) ?? []).map((child) => String(child.id)),
    (id) => byId.get(id) ?? { file: id, session: null, messages: [] }
  )
}

export function readJsonSession(file: string): StoredSession {
  const info = parsedData(readOptionalText(file))
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
    .map((name) => parsedData(readOptionalText(join(dir, name))))
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
export function jsonSessionFiles(storage: string): { file: string; sessionId: string }[] {
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
