// What the session list shows of one session file, built record by record so a file that grew is
// summarized by reading only its new lines (session-index.ts). No tree is built: every field is a
// first, a latest, a maximum or a count, so the summary of a file read in two parts is the summary
// of the file read at once.
//
// - title: the latest title record of the highest rank (Claude Code: custom-title > ai-title >
//   summary; pi: session_info name; oh-my-pi: its title slot, header title, title_change), else
//   null: the list then shows the first prompt.
// - prompts: the prompts a person typed, on every branch (a rewind's abandoned prompts count:
//   they were typed), by the rule the tree counts them with (each reader's: a Claude Code
//   record is one when Claude Code's /rewind list shows it, typedInClaudeCode), so the list and
//   the graph agree. Not prompts: tool results, harness messages, sub-agent records.
// - lastActivity: the latest record timestamp.
//
// Beside the summary, not in it: the paths our sessions changed (ChangedPaths), each with its
// latest change time, for the rewind's check of what other sessions changed
// (rewind/other-sessions.ts). The list never shows them and they are half an index's bytes, so
// the index keeps them in a cache of their own that only that check reads (session-index.ts).
import { maskSecrets } from '../../shared/mask-secrets'
import { isObject, stringOrNull, type Json } from '../session/json'
import { emptyFileMessage } from '../session/problems'
import {
  conversationNodeOf,
  fileChangeOf,
  isPrompt,
  promptText,
  sessionHeaderOf
} from '../session/tree'
import { typedInClaudeCode } from '../session/foreign/claude-code'
import { typedInCodex } from '../session/foreign/codex'
import { subagentParentOf } from '../session/foreign/codex-subagents'
import { typedInGemini } from '../session/foreign/gemini-cli'
import { typedInPi } from '../session/foreign/pi'
import type { SessionSource } from './homes'

export interface FileSummary {
  sessionId: string | null
  cwd: string | null
  createdAt: string | null
  lastActivity: string | null
  title: string | null
  /** Rank of the record `title` came from (higher wins; the latest of a rank wins). */
  titleRank: number
  firstPrompt: string | null
  /** Our sessions: a fork of another (its header names where it was forked from). */
  forked: boolean
  prompts: number
  /** Complete lines that are not JSON. */
  problems: number
  /** JSON values seen (the first decides the header). */
  records: number
  /** Our sessions: line 1 is our header ('ok'), something else ('bad'), or not JSON. */
  firstLine: 'ok' | 'bad' | 'malformed' | null
  /**
   * A Codex CLI fork: the thread it was forked from and the byte its history there ends at (the
   * parent's prompts before it are the fork's too: discovery counts them, codex.ts forkPrompts).
   */
  forkOf?: { thread: string; end: number }
  /**
   * A Codex CLI sub-agent's thread: the thread that spawned it (drawn under that session's call,
   * so not listed beside it, as Codex's own picker lists no sub-agent thread).
   */
  subagentOf?: string
}

/**
 * Whether a cached value is a summary (file-cache.ts reads a thousand of them on every start:
 * checked by hand, as loading checks records, rather than by a zod parse costing more than that).
 */
export function isFileSummary(v: unknown): v is FileSummary {
  if (typeof v !== 'object' || v === null) return false
  const s = v as Record<string, unknown>
  // Field by field, with no array or closure per summary: the list checks 10,000 of them.
  if (!(
    isText(s.sessionId) &&
    isText(s.cwd) &&
    isText(s.createdAt) &&
    isText(s.lastActivity) &&
    isText(s.title) &&
    isText(s.firstPrompt) &&
    Number.isInteger(s.titleRank) &&
    Number.isInteger(s.prompts) &&
    Number.isInteger(s.problems) &&
    Number.isInteger(s.records) &&
    typeof s.forked === 'boolean' &&
    (s.firstLine === null ||
      s.firstLine === 'ok' ||
      s.firstLine === 'bad' ||
      s.firstLine === 'malformed')
  )) {
    return false
  }
  const fork = s.forkOf as Record<string, unknown> | undefined
  if (fork !== undefined && (typeof fork?.thread !== 'string' || !Number.isInteger(fork.end))) {
    return false
  }
  return s.subagentOf === undefined || typeof s.subagentOf === 'string'
}

function isText(x: unknown): boolean {
  return x === null || typeof x === 'string'
}

/** Longest title or prompt kept: the list shows one line. */
const MAX_TEXT = 300

export function emptySummary(): FileSummary {
  return {
    sessionId: null,
    cwd: null,
    createdAt: null,
    lastActivity: null,
    title: null,
    titleRank: 0,
    firstPrompt: null,
    forked: false,
    prompts: 0,
    problems: 0,
    records: 0,
    firstLine: null
  }
}

/** Our sessions: each path their file_change records name, with its latest change time (ISO). */
export type ChangedPaths = Record<string, string>

/** Whether a cached value is a session's changed paths (checked by hand, as isFileSummary). */
export function isChangedPaths(v: unknown): v is ChangedPaths {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  for (const at of Object.values(v)) if (typeof at !== 'string') return false
  return true
}

/** What reading a file gives: the summary the list shows, the paths the rewind's check reads. */
export interface Summarized {
  summary: FileSummary
  changed: ChangedPaths
}

export function emptySummarized(): Summarized {
  return { summary: emptySummary(), changed: {} }
}

/** Masked before it is cut: a key cut in half would no longer look like one. */
function shortText(text: string): string {
  const masked = maskSecrets(text.trim())
  return masked.length <= MAX_TEXT ? masked : `${masked.slice(0, MAX_TEXT - 1)}…`
}

function later(known: string | null, candidate: unknown): string | null {
  return typeof candidate === 'string' && (known === null || candidate > known) ? candidate : known
}

function setTitle(s: FileSummary, title: unknown, rank: number): void {
  if (typeof title !== 'string' || title.trim() === '' || rank < s.titleRank) return
  s.title = shortText(title)
  s.titleRank = rank
}

function countPrompt(s: FileSummary, text: string): void {
  s.prompts++
  s.firstPrompt ??= shortText(text)
}

/** A line that is not JSON (line 1 of ours included: then the file is no session). */
export function addProblem(s: FileSummary, line: number): void {
  s.problems++
  if (line === 1) s.firstLine = 'malformed'
}

/** One parsed line of a file from `source`. */
export function addRecord(into: Summarized, source: SessionSource, value: unknown): void {
  const s = into.summary
  const first = s.records === 0
  s.records++
  if (!isObject(value)) return
  s.lastActivity = later(s.lastActivity, value.timestamp)
  switch (source) {
    case 'rewind-studio':
      return addOurs(into, value, first)
    case 'claude-code':
      return addClaudeCode(s, value)
    case 'pi':
    case 'oh-my-pi':
      return addPi(s, value)
    case 'codex':
      return addCodex(s, value, first)
    case 'gemini-cli':
      return addGemini(s, value, first)
    case 'opencode':
      // Its sessions are rows of a database, summarized by its reader (foreign/opencode.ts).
      return
  }
}

/** Codex CLI: the session_meta line, then response items (typedInCodex says which are prompts). */
function addCodex(s: FileSummary, v: Json, first: boolean): void {
  const payload = isObject(v.payload) ? v.payload : null
  if (first && v.type === 'session_meta' && payload !== null) {
    s.sessionId ??= stringOrNull(payload.id)
    s.cwd ??= stringOrNull(payload.cwd)
    s.createdAt ??= stringOrNull(payload.timestamp)
    const base = isObject(payload.history_base) ? payload.history_base : null
    const thread = base === null ? null : stringOrNull(base.thread_id)
    if (thread !== null && Number.isInteger(base?.end_byte_offset)) {
      s.forkOf = { thread, end: base?.end_byte_offset as number }
    }
    const spawnedBy = subagentParentOf(payload)
    if (spawnedBy !== null) s.subagentOf = spawnedBy
    return
  }
  const typed = typedInCodex(v)
  if (typed !== null) countPrompt(s, typed)
}

/**
 * Gemini CLI: a header, then messages (typedInGemini) and `$set` updates; its cwd is the
 * project's (discovery reads it beside the chats), the file names none.
 */
function addGemini(s: FileSummary, v: Json, first: boolean): void {
  if (first) {
    s.sessionId ??= stringOrNull(v.sessionId)
    s.createdAt ??= stringOrNull(v.startTime)
    s.lastActivity = later(s.lastActivity, v.lastUpdated)
    return
  }
  const set = isObject(v.$set) ? v.$set : null
  if (set !== null) {
    s.lastActivity = later(s.lastActivity, set.lastUpdated)
    return
  }
  const typed = typedInGemini(v)
  if (typed !== null) countPrompt(s, typed)
}

function addOurs({ summary: s, changed }: Summarized, v: Json, first: boolean): void {
  if (first && s.firstLine === null) {
    const header = sessionHeaderOf(v)
    s.firstLine = header === null ? 'bad' : 'ok'
    if (header !== null) {
      s.sessionId = header.sessionId
      s.cwd = header.cwd
      s.createdAt = header.timestamp
      s.forked = header.forkedFrom !== undefined
    }
    return
  }
  const change = fileChangeOf(v)
  if (change !== null) {
    // A fork's copy of a change (copyOf, session/fork.ts) is no change the fork made.
    if (change.copyOf !== undefined) return
    changed[change.path] = later(changed[change.path] ?? null, change.timestamp) as string
    return
  }
  const node = conversationNodeOf(v)
  if (node?.type === 'user' && isPrompt(node)) countPrompt(s, promptText(node))
}

function addClaudeCode(s: FileSummary, v: Json): void {
  s.sessionId ??= stringOrNull(v.sessionId)
  s.cwd ??= stringOrNull(v.cwd)
  s.createdAt ??= stringOrNull(v.timestamp)
  switch (v.type) {
    case 'custom-title':
      return setTitle(s, v.customTitle, 3)
    case 'ai-title':
      return setTitle(s, v.aiTitle, 2)
    case 'summary':
      return setTitle(s, v.summary, 1)
    case 'user': {
      // The reader's rule: what the tree draws as a prompt is what is counted here.
      const typed = typedInClaudeCode(v)
      if (typed !== null) countPrompt(s, typed)
      return
    }
  }
}

/** pi and oh-my-pi: a header `session` line (after oh-my-pi's title slot), then tree entries. */
function addPi(s: FileSummary, v: Json): void {
  switch (v.type) {
    case 'title':
      // oh-my-pi's fixed-width title slot on line 1, rewritten in place as the title changes.
      return setTitle(s, v.title, v.source === 'user' ? 3 : 2)
    case 'session':
      s.sessionId ??= stringOrNull(v.id)
      s.cwd ??= stringOrNull(v.cwd)
      s.createdAt ??= stringOrNull(v.timestamp)
      return setTitle(s, v.title, v.titleSource === 'user' ? 3 : 2)
    case 'title_change':
      return setTitle(s, v.title, v.source === 'user' ? 3 : 2)
    case 'session_info':
      return setTitle(s, v.name, 3)
    case 'message': {
      const typed = typedInPi(v)
      if (typed !== null) countPrompt(s, typed)
      return
    }
  }
}

/**
 * Why a file in our sessions folder is no session, or null. `complete` says whether every byte
 * was read as lines (a last line without its '\n' is not).
 */
export function ourSessionProblem(s: FileSummary, bytes: number, complete: boolean): string | null {
  if (s.firstLine === 'ok') return null
  if (s.firstLine === 'bad') return 'line 1 is no Rewind Studio session header'
  if (s.firstLine === 'malformed' || !complete) {
    return 'line 1 is no session header (not JSON, or cut off)'
  }
  return emptyFileMessage(bytes)
}
