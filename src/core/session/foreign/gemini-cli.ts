// A read-only view of a Gemini CLI chat recording (<gemini home>/tmp/<project>/chats/session-<start>-
// <id>.jsonl) in our tree model. Read from 0.61.0's files (test/fixtures/gemini-cli: made by the
// real CLI, README.md there). The first line is a header {sessionId, projectHash, startTime,
// kind}; then message lines {id, timestamp, type: user | gemini | info | error | warning, content,
// toolCalls?} and update lines {"$set": {...}}:
// - messages chain in file order (they name no parent). A user message with text is a prompt
//   (but the `<session_context>` the CLI sends first); a gemini message is the model's answer, its
//   toolCalls tool_use blocks, the results they hold (`toolCalls[].result`, which the CLI records
//   again as a user message of functionResponse parts: that one is kept raw, but for calls only a
//   $set wrote, see resultsFor) a tool_result record under it. A line naming a message already
//   read (the same id and type: the CLI writes a message again as it completes) updates that
//   record in place;
// - `{"$set": {"messages": [...]}}` replaces the conversation (after /restore, on --resume): the
//   messages it lists become the current path, those already there in that order reused, the
//   others drawn anew under them (a copy of a prompt is no new prompt), and the leaf goes to its
//   end; what came before stays in the graph as the branch left. A compression's $set (its
//   summary, then the model's fixed reply; test/fixtures/gemini-compress) is a compaction under
//   the path instead, the tail it kept under it (see compression()). Other $set fields are raw;
// - `{"$rewindTo": id}` (/rewind) ends the path before message `id`: what followed stays in the
//   graph as the branch left, and the next prompt starts a branch beside it;
// - info, error and warning messages (the CLI's own notes) are kept raw.
// The project's folder is in `tmp/<project>/.project_root` beside the chats (the file names none).
// Gemini CLI's checkpoints (`tmp/<project>/checkpoints/*.json`, one before each edit tool call it
// asked approval for: its git commit in the shadow repository `history/<project>/.git`) are the
// session's backups: a rescue restore to before a prompt checks out the commit of that turn's
// first checkpoint, as the CLI's /restore does, for the files the session's edits named or its
// checkpoints differ in (never another file; gemini-checkpoints.ts). The CLI deletes the
// checkpoints when it starts.
// Sub-agents (invoke_agent): each a chat of its own in `chats/<session id>/`, read as a session is
// and hung under the call that started it (gemini-subagents.ts).
// Before April 2026 the CLI kept each chat as one JSON document, `session-<start>-<id>.json`
// ({sessionId, projectHash, startTime, lastUpdated, messages: [...]}), written whole after each
// message; it still loads them, and they are all an earlier user has. Such a file is read as the
// chat it is: its fields as the header, then its messages, each as a message line
// (readLegacyGeminiChat, the reader's `stored` sessions).
import { basename, dirname, join } from 'node:path'
import { statSync } from 'node:fs'
import { CodedError } from '../../../shared/coded-error'
import { readOptionalText, readRegularText } from '../../os/read-regular-file'
import { SESSION_FORMAT_VERSION } from '../format-version'
import { isObject, stringOrNull, type Json } from '../json'
import { ProblemLog } from '../problems'
import { parseJsonl } from '../jsonl'
import { GEMINI_COMPACTION_TYPE, SessionTree, conversationNodeOf, typedPrompt } from '../tree'
import { GeminiCheckpoints } from './gemini-checkpoints'
import { GeminiSubagents } from './gemini-subagents'
import { addMapped, foreignRecord } from './raw'
import type { Emit, ForeignMapper, ForeignReader, SubagentRun } from './types'

export const geminiCli: ForeignReader = {
  format: 'gemini-cli',
  detect: (values) => {
    const first = values[0]
    return (
      isObject(first) &&
      typeof first.sessionId === 'string' &&
      typeof first.projectHash === 'string' &&
      first.type === undefined
    )
  },
  mapper: (_sidecars, file) => new GeminiMapper(file),
  stored: {
    holds: (file) => isLegacyGeminiChat(file),
    read: (file) => readLegacyGeminiChat(file),
    stamp: (file) => {
      const stats = statSync(file, { throwIfNoEntry: false })
      return stats === undefined ? '-' : `${stats.size}:${stats.mtimeMs}:${stats.ino}`
    }
  },
  keeps:
    'Gemini CLI keeps a checkpoint (a snapshot of the project) before each edit it asked you to approve, until it next starts: files go back to how the first checkpoint of a turn found them.'
}

/** The name of a chat in the one-document layout (the JSONL chats end in .jsonl). */
const LEGACY_CHAT = /^session-.+\.json$/
/** Larger than any chat the CLI wrote whole after every message, within what one string holds. */
const LEGACY_CHAT_MAX_BYTES = 256 * 1024 * 1024

/** Whether `file` is named as a Gemini CLI chat of the one-document layout (before April 2026). */
export function isLegacyGeminiChat(file: string): boolean {
  return LEGACY_CHAT.test(basename(file))
}

/**
 * A one-document chat as the values a JSONL chat's lines would be: the document's fields but its
 * messages as the header, then each message. Numbered as records (the document's own lines are
 * its pretty-printing). A file that is not such a chat is refused, saying so.
 */
export function readLegacyGeminiChat(file: string): { values: unknown[]; lines: number[] } {
  const text = readRegularText(file, LEGACY_CHAT_MAX_BYTES)
  if (text === null) throw new CodedError('not_found', `${file} is not there.`)
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    throw notAChat(file, `it is not JSON (${(error as Error).message})`)
  }
  if (!isObject(document) || !Array.isArray(document.messages)) {
    throw notAChat(file, 'it holds no messages list')
  }
  const { messages, ...header } = document
  if (!geminiCli.detect([header])) throw notAChat(file, 'it names no sessionId and projectHash')
  const values = [header, ...messages]
  return { values, lines: values.map((_, i) => i + 1) }
}

function notAChat(file: string, why: string): CodedError {
  return new CodedError(
    'unavailable',
    `${file} is no Gemini CLI chat of the .json layout it used before April 2026: ${why}.`
  )
}

const SESSION_CONTEXT = /^\s*<session_context>/
/**
 * The prompt a Gemini CLI message line is, as the tree counts it, or null: the session list
 * (sources/session-summary.ts) counts by it.
 */
export function typedInGemini(v: Json): string | null {
  if (v.type !== 'user') return null
  const mapped = mapUser(v, 'gemini-message', null)
  const node = mapped === null ? null : conversationNodeOf(mapped)
  return node === null ? null : typedPrompt(node)
}

class GeminiMapper implements ForeignMapper {
  readonly problems = new ProblemLog()
  readonly backups: GeminiCheckpoints | null
  private headerSeen = false
  /** The last drawn record of the current path: where the next message goes. */
  private tip: string | null = null
  /** Where our tree's leaf is (the last drawn record, or a navigate's target). */
  private leaf: string | null = null
  /** Each message read, by `<id>:<type>`: its record and the records drawn under it for it. */
  private readonly byKey = new Map<string, { record: Json; last: string; parent: string | null }>()
  /** The prompt each drawn record's turn belongs to. */
  private readonly turnOf = new Map<string, string>()
  private copies = 0
  private readonly drawn = new Map<string, Json>()
  /**
   * The answers whose calls only a $set's Content holds (no toolCalls: no result recorded with
   * them), by uuid: the calls' ids, which a functionResponse message after them answers.
   */
  private readonly unanswered = new Map<string, Set<string>>()
  private readonly cwd: string
  private readonly subagentRuns: GeminiSubagents

  constructor(private readonly file: string | null) {
    this.subagentRuns = new GeminiSubagents(file, readChatTree)
    const project = file === null ? null : dirname(dirname(file))
    this.cwd =
      project === null ? '' : (readOptionalText(join(project, '.project_root'))?.trim() ?? '')
    this.backups =
      project === null ? null : GeminiCheckpoints.beside(project, this.cwd, this.turnOf)
  }

  add(value: unknown, line: number, emit: Emit): void {
    if (!this.headerSeen) {
      this.headerSeen = true
      const header = isObject(value) ? value : {}
      const sessionId = stringOrNull(header.sessionId) ?? ''
      this.subagentRuns.session(sessionId)
      emit(
        {
          type: 'session',
          uuid: `gemini-cli:${sessionId || 'unknown'}`,
          parentUuid: null,
          timestamp: stringOrNull(header.startTime) ?? '',
          version: SESSION_FORMAT_VERSION,
          sessionId,
          cwd: this.cwd,
          importedFrom: { format: 'gemini-cli', version: null }
        },
        line
      )
      emit(foreignRecord(null, value), line)
      return
    }
    if (!isObject(value)) return emit(foreignRecord(this.tip, value), line)
    const set = isObject(value.$set) ? value.$set : null
    if (set !== null && Array.isArray(set.messages)) this.rewrite(set.messages, line, emit)
    else if (typeof value.$rewindTo === 'string') this.rewindTo(value.$rewindTo, line, emit)
    else if (set === null) this.message(value, line, emit)
    emit(foreignRecord(this.tip, value), line)
  }

  subagents(): SubagentRun[] {
    return this.subagentRuns.runs()
  }

  /** One message line: a new record on the path, or an update of one read before. */
  private message(m: Json, line: number, emit: Emit): void {
    const id = stringOrNull(m.id)
    if (id === null || (m.type !== 'user' && m.type !== 'gemini')) return
    const known = this.byKey.get(`${id}:${String(m.type)}`)
    if (known === undefined) return this.place(m, id, line, emit, false)
    // Written again as it completed: each record takes what it says now, and results it holds
    // now are drawn under it.
    for (const record of this.mapped(m, String(known.record.uuid), known.parent, false)) {
      const drawn = this.drawn.get(String(record.uuid))
      if (drawn !== undefined) {
        Object.assign(drawn, record)
        // The calls an answer holds come with it written again (what a checkpoint matches).
        if (drawn.type === 'assistant') {
          this.backups?.noteCalls(drawn, this.turnOf.get(String(drawn.uuid)) ?? null)
        }
      } else {
        this.draw(record, line, emit)
        known.last = String(record.uuid)
      }
    }
  }

  /** A $set of the messages: they are the path now (see the module header). */
  private rewrite(messages: unknown[], line: number, emit: Emit): void {
    let at: string | null = null
    const summary = compressionAt(messages, this.byKey)
    for (const [i, m] of messages.entries()) {
      if (i === summary) {
        at = this.compression(messages, i, at, line, emit)
        continue
      }
      if (summary !== -1 && i === summary + 1) continue
      if (!isObject(m)) continue
      const id = stringOrNull(m.id)
      if (id === null || (m.type !== 'user' && m.type !== 'gemini')) continue
      const known = this.byKey.get(`${id}:${String(m.type)}`)
      if (known !== undefined && known.parent === at) {
        at = known.last
        continue
      }
      this.tip = at
      this.place(m, `gemini-copy:${line}:${++this.copies}:${id}`, line, emit, true)
      at = this.tip
    }
    this.moveLeaf(at, line, emit)
  }

  /**
   * `{"$rewindTo": id}` (the CLI's /rewind): the message `id` and every one after it leave the
   * conversation, as the CLI reads its file back; here they stay in the graph as the branch left,
   * and the path ends where it was before `id` (an id it does not know: nothing is left, as the
   * CLI reads it).
   */
  private rewindTo(id: string, line: number, emit: Emit): void {
    const known = this.byKey.get(`${id}:user`) ?? this.byKey.get(`${id}:gemini`)
    this.moveLeaf(known?.parent ?? null, line, emit)
  }

  /** The path now ends at `at`: new messages go under it, and the leaf is moved there. */
  private moveLeaf(at: string | null, line: number, emit: Emit): void {
    this.tip = at
    if (at !== this.leaf) {
      this.leaf = at
      emit(
        {
          type: 'navigate',
          uuid: `gemini-leaf:${line}`,
          parentUuid: null,
          timestamp: '',
          leafUuid: at,
          reason: 'switch-branch'
        },
        line
      )
    }
  }

  /**
   * A chat compression (`/compress`, or the CLI compressing by itself): the $set's summary and
   * the model's fixed reply become one compaction under the path as it was (what it summarised),
   * holding the messages before the summary that it kept (details.keptBefore: the session
   * context) and the reply (details.reply); the messages after them, the tail it kept (written
   * again with new ids, their tool output perhaps cut), are drawn under it as copies. Gives where
   * the next message of the $set goes.
   */
  private compression(
    messages: unknown[],
    i: number,
    at: string | null,
    line: number,
    emit: Emit
  ): string {
    const summary = messages[i] as Json
    const reply = messages[i + 1] as Json
    const keptBefore = messages.slice(0, i).flatMap((m) => {
      const known = isObject(m) ? this.byKey.get(`${String(m.id)}:${String(m.type)}`) : undefined
      return known === undefined ? [] : [known.last]
    })
    const uuid = `gemini-compaction:${line}`
    const record: Json = {
      type: 'custom_message',
      uuid,
      parentUuid: this.tip,
      timestamp: stringOrNull(summary.timestamp) ?? '',
      customType: GEMINI_COMPACTION_TYPE,
      hidden: false,
      content: textOf(summary.content),
      details: {
        keptBefore,
        reply: textOf(reply.content),
        headline: headlineOf(textOf(summary.content))
      }
    }
    this.draw(record, line, emit)
    // Listed again by a later $set (on --resume), the two are this compaction.
    this.byKey.set(`${String(summary.id)}:user`, { record, last: uuid, parent: at })
    this.byKey.set(`${String(reply.id)}:gemini`, { record, last: uuid, parent: uuid })
    return uuid
  }

  /** A new message under the tip; a copy (a $set's) is no prompt of its own. */
  private place(m: Json, uuid: string, line: number, emit: Emit, copy: boolean): void {
    const parent = this.tip
    const records = this.mapped(m, uuid, parent, copy)
    const [first] = records
    if (first === undefined) return
    for (const record of records) this.draw(record, line, emit)
    this.byKey.set(`${String(m.id)}:${String(m.type)}`, {
      record: first,
      last: this.tip ?? uuid,
      parent
    })
  }

  private draw(record: Json, line: number, emit: Emit): void {
    const uuid = String(record.uuid)
    this.drawn.set(uuid, record)
    const node = conversationNodeOf(record)
    const turn =
      node !== null && typedPrompt(node) !== null
        ? uuid
        : this.turnOf.get(String(record.parentUuid ?? ''))
    if (turn !== undefined) this.turnOf.set(uuid, turn)
    if (record.type === 'assistant') this.backups?.noteCalls(record, turn ?? null)
    emit(record, line)
    this.tip = uuid
    this.leaf = uuid
  }

  /** A message as our records: a user message, or an answer and the tool results it holds. */
  private mapped(m: Json, uuid: string, parent: string | null, copy: boolean): Json[] {
    if (m.type === 'user') {
      const record = mapUser(m, uuid, parent)
      if (record === null) return this.resultsFor(m, uuid, parent)
      if (copy && record.isMeta !== true) record.isMeta = true
      return [record]
    }
    const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : []
    // A $set holds the model's Content: its calls are functionCall parts.
    const parts = Array.isArray(m.content) ? m.content.filter(isObject) : []
    const bare = new Set<string>()
    for (const part of parts) {
      const call = isObject(part.functionCall) ? part.functionCall : null
      if (call === null || calls.some((c) => c.id === call.id)) continue
      calls.push(call)
      if (typeof call.id === 'string') bare.add(call.id)
    }
    if (bare.size > 0) this.unanswered.set(uuid, bare)
    this.subagentRuns.sawCalls(uuid, calls)
    const text = textOf(m.content)
    const content: Json[] = [
      ...(text === '' ? [] : [{ type: 'text', text }]),
      ...calls.map((call) => ({
        type: 'tool_use',
        id: stringOrNull(call.id) ?? '',
        name: stringOrNull(call.name) ?? 'tool',
        input: isObject(call.args) ? call.args : {}
      }))
    ]
    const answer: Json = {
      type: 'assistant',
      uuid,
      parentUuid: parent,
      timestamp: stringOrNull(m.timestamp) ?? '',
      message: {
        role: 'assistant',
        content,
        model: stringOrNull(m.model) ?? undefined,
        stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn'
      }
    }
    const results = calls.flatMap((call) =>
      Array.isArray(call.result) && call.result.length > 0
        ? [
            {
              type: 'tool_result',
              tool_use_id: stringOrNull(call.id) ?? '',
              content: resultText(call.result),
              is_error: call.status === 'error'
            }
          ]
        : []
    )
    if (results.length === 0) return [answer]
    return [
      answer,
      {
        type: 'user',
        uuid: `${uuid}:results`,
        parentUuid: uuid,
        timestamp: stringOrNull(m.timestamp) ?? '',
        message: { role: 'user', content: results }
      }
    ]
  }

  /**
   * A user message of functionResponse parts is kept raw (the call's toolCalls[].result, read
   * with the answer, holds the same), but for calls only a $set's Content held: a compression
   * between a tool call and its result writes the call again with no toolCalls, and this message
   * is then all the file has of the result the CLI sent (test/fixtures/gemini-compress-auto).
   */
  private resultsFor(m: Json, uuid: string, parent: string | null): Json[] {
    const waiting = parent === null ? undefined : this.unanswered.get(parent)
    if (waiting === undefined || !Array.isArray(m.content)) return []
    const results = m.content.filter(isObject).flatMap((part) => {
      const response = isObject(part.functionResponse) ? part.functionResponse : null
      const id = stringOrNull(response?.id)
      if (response === null || id === null || !waiting.has(id)) return []
      const failed = isObject(response.response) && response.response.error !== undefined
      return [
        { type: 'tool_result', tool_use_id: id, content: resultText([part]), is_error: failed }
      ]
    })
    if (results.length === 0) return []
    return [
      {
        type: 'user',
        uuid,
        parentUuid: parent,
        timestamp: stringOrNull(m.timestamp) ?? '',
        message: { role: 'user', content: results }
      }
    ]
  }
}

/** What Gemini CLI's model is made to answer a compression's summary with (its history holds it). */
const COMPRESSION_REPLY = 'Got it. Thanks for the additional context!'

/**
 * Where a $set's messages hold a compression's summary not read before: a user message followed
 * by the model's fixed reply (COMPRESSION_REPLY); -1 for none.
 */
function compressionAt(messages: unknown[], byKey: ReadonlyMap<string, unknown>): number {
  return messages.findIndex((m, i) => {
    const next = messages[i + 1]
    return (
      isObject(m) &&
      m.type === 'user' &&
      !byKey.has(`${String(m.id)}:user`) &&
      isObject(next) &&
      next.type === 'gemini' &&
      textOf(next.content).trim() === COMPRESSION_REPLY
    )
  })
}

/**
 * A summary's first line of text: the CLI asks for a `<state_snapshot>` of XML elements, whose
 * first (its overall goal) says what the conversation was for; the tags are left out.
 */
function headlineOf(summary: string): string {
  for (const line of summary.split('\n')) {
    const text = line.replace(/<[^>]*>/g, '').trim()
    if (text !== '') return text
  }
  return summary.trim()
}

/** A user message: a prompt (its text parts), or null (only functionResponse parts: raw). */
function mapUser(m: Json, uuid: string, parent: string | null): Json | null {
  const text = textOf(m.content)
  if (text.trim() === '') return null
  return {
    type: 'user',
    uuid,
    parentUuid: parent,
    timestamp: stringOrNull(m.timestamp) ?? '',
    message: { role: 'user', content: [{ type: 'text', text }] },
    ...(SESSION_CONTEXT.test(text) ? { isMeta: true } : {})
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((p): p is Json => isObject(p) && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n\n')
}

function resultText(result: unknown[]): string {
  return result
    .map((part) => {
      const response =
        isObject(part) && isObject(part.functionResponse) ? part.functionResponse.response : null
      if (isObject(response) && typeof response.output === 'string') return response.output
      if (isObject(response) && typeof response.error === 'string') return response.error
      return JSON.stringify(response ?? part)
    })
    .join('\n')
}

/**
 * A sub-agent's chat read as a session is, into a tree of its own (no file given its mapper: the
 * chat is no session of the project's, with no checkpoints of its own); null when unreadable.
 */
function readChatTree(file: string): SessionTree | null {
  const text = readOptionalText(file)
  if (text === null) return null
  const parsed = parseJsonl(text)
  const mapper = new GeminiMapper(null)
  const tree = new SessionTree()
  parsed.values.forEach((value, i) =>
    mapper.add(value, parsed.lines[i] ?? 0, (record) => addMapped(tree, record))
  )
  return tree
}
