// Load-time checks of a record (tree.ts classifies every record it is given with them). Opening
// a session must cost about what JSON.parse costs (bench/session-open.ts), and a zod parse of
// every record does not fit that budget, so loading checks only the fields the tree reads.
// Records are fully validated by their zod schemas when appended (store.ts), so files we wrote
// pass; these checks keep a hand-edited or foreign record from breaking the tree.
import type { MessageContent } from '../../shared/messages'
import { isObject, isString, type Json } from './json'
import type { FileChangeRecord, SessionHeader } from './records'
import type { TreeRecord } from './tree'

/** What a record is to the tree. */
export type Role =
  'header' | 'node' | 'leaf-move' | 'label' | 'file-change' | 'untracked' | 'unknown'

const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string'

function isContent(v: unknown): v is MessageContent {
  if (typeof v === 'string') return true
  if (!Array.isArray(v)) return false
  for (const block of v) if (!isObject(block) || !isString(block.type)) return false
  return true
}

function baseFault(r: Json): string | null {
  if (!isString(r.uuid) || r.uuid === '') return 'no uuid'
  if (!isNullableString(r.parentUuid) || r.parentUuid === '')
    return 'parentUuid is not a uuid or null'
  if (!isString(r.timestamp)) return 'no timestamp'
  return null
}

const FAULTS: Record<string, (r: Json) => string | null> = {
  session: (r) =>
    typeof r.version === 'number' && isString(r.sessionId) && isString(r.cwd)
      ? null
      : 'a session header needs version, sessionId and cwd',
  user: (r) => messageFault(r, 'user'),
  assistant: (r) => messageFault(r, 'assistant'),
  branch_summary: (r) =>
    isString(r.fromId) && isString(r.summary) ? null : 'a branch_summary needs fromId and summary',
  compaction: (r) =>
    isString(r.summary) && isNullableString(r.firstKeptUuid)
      ? null
      : 'a compaction needs summary and firstKeptUuid',
  custom_message: (r) =>
    isString(r.customType) && typeof r.hidden === 'boolean' && isContent(r.content)
      ? null
      : 'a custom_message needs customType, hidden and content',
  merge: (r) =>
    isString(r.fromUuid) &&
    isNullableString(r.baseUuid) &&
    isString(r.restoreId) &&
    Array.isArray(r.files) &&
    r.files.every((f) => isObject(f) && isString(f.path)) &&
    (r.summary === undefined || isString(r.summary))
      ? null
      : 'a merge needs fromUuid, baseUuid, restoreId and files ({path})',
  rewind: (r) =>
    isNullableString(r.leafUuid) &&
    isString(r.checkpointUuid) &&
    (r.mode === 'both' || r.mode === 'conversation' || r.mode === 'code')
      ? null
      : 'a rewind needs leafUuid, checkpointUuid and mode',
  navigate: (r) => (isNullableString(r.leafUuid) ? null : 'a navigate record needs leafUuid'),
  label: (r) =>
    isString(r.targetUuid) && isNullableString(r.label)
      ? null
      : 'a label needs targetUuid and label',
  file_change: (r) =>
    isString(r.checkpointUuid) &&
    isString(r.path) &&
    isNullableString(r.before) &&
    isNullableString(r.after)
      ? null
      : 'a file_change needs checkpointUuid, path, before and after',
  untracked_changes: (r) =>
    isString(r.checkpointUuid) &&
    Array.isArray(r.changes) &&
    r.changes.every((c) => isObject(c) && isString(c.path) && isString(c.reason))
      ? null
      : 'an untracked_changes record needs checkpointUuid and changes ({path, reason})'
}

function messageFault(r: Json, role: 'user' | 'assistant'): string | null {
  const m = r.message
  if (!isObject(m) || m.role !== role) return `a ${role} record needs message.role "${role}"`
  return isContent(m.content) ? null : 'message.content is not text or a list of blocks'
}

/** Whether `value` is a conversation node (a node of the tree), checked as loading checks it. */
export function isConversationNode(value: unknown): value is TreeRecord {
  return classify(value, 1) === 'node'
}

/** Whether this version knows the record type (the others are kept and otherwise ignored). */
export function isKnownRecordType(type: unknown): boolean {
  return typeof type === 'string' && Object.hasOwn(FAULTS, type)
}

/** The value as a session header, checked as loading checks line 1; null when it is none. */
export function sessionHeaderOf(value: unknown): SessionHeader | null {
  return classify(value, 0) === 'header' ? (value as SessionHeader) : null
}

/** The value as a conversation node (after line 1), checked as loading checks it; else null. */
export function conversationNodeOf(value: unknown): TreeRecord | null {
  return classify(value, 1) === 'node' ? (value as TreeRecord) : null
}

/** The value as a file_change record, checked as loading checks it; else null. */
export function fileChangeOf(value: unknown): FileChangeRecord | null {
  return classify(value, 1) === 'file-change' ? (value as FileChangeRecord) : null
}

export function classify(value: unknown, index: number): Role | { invalid: string } {
  if (!isObject(value)) return { invalid: 'not a JSON object' }
  const type = value.type
  if (!isString(type)) return { invalid: 'no type' }
  const fault = FAULTS[type]
  if (fault === undefined) return 'unknown'
  const problem = baseFault(value) ?? fault(value)
  if (problem !== null) return { invalid: `${type}: ${problem}` }
  switch (type) {
    case 'session':
      return index === 0 ? 'header' : { invalid: 'a session header after the first line' }
    case 'user':
    case 'assistant':
    case 'branch_summary':
    case 'compaction':
    case 'custom_message':
    case 'merge':
      return 'node'
    case 'rewind':
    case 'navigate':
      return 'leaf-move'
    case 'label':
      return 'label'
    case 'file_change':
      return 'file-change'
    case 'untracked_changes':
      return 'untracked'
    default:
      return 'unknown'
  }
}

/**
 * The sources of the file_change records earlier versions appended for a code-only restore, its
 * undo and its redo, under the branch's latest checkpoint. Such a record is no change of that
 * turn: a restore is its own action (its journal holds what it wrote), so every reader skips it
 * when it asks what a turn changed or what files a node left (docs/file-history.md). Not written
 * any more.
 */
const RESTORE_SOURCES: ReadonlySet<string> = new Set(['rewind', 'undo', 'redo'])

/** Whether a file_change record is one an earlier version wrote for a restore (RESTORE_SOURCES). */
export function isRestoreChange(change: { source?: unknown }): boolean {
  return typeof change.source === 'string' && RESTORE_SOURCES.has(change.source)
}
