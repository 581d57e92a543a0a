// The model's view of a session: the records of the active branch turned into the Messages API's
// `messages`. Pure and deterministic: the same branch always gives the same bytes, which is what
// lets a request after a conversation rewind repeat the earlier prefix and hit the prompt cache.
//
// First the view (modelView): after a compaction on the branch, the model sees the compaction's
// summary, then the records from its firstKeptUuid on; the records before stay in the log.
// Mapping, record by record (root first):
//   user, assistant   → that message, blocks verbatim (a string content becomes one text block)
//   branch_summary    → a user message holding the summary (the Messages API has no summary role)
//   compaction        → a user message holding the summary of the part it replaces
//   merge             → a user message naming the branch it came from, its summary and the files
//                       merged (mergeText): the model knows the workspace changed under it
//   custom_message    → a user message holding the text inside <system-reminder> tags. This is how
//                       harness notes reach the model: the rewind-report, the checkpoint reminder and
//                       the rewind-required warning. The API has no developer/system role inside
//                       `messages`; a tagged user block is what Claude is trained to read as a note
//                       from the harness rather than words of the user. `hidden` only hides a note
//                       from the transcript; the model always gets it.
// Then the API's rules are enforced:
//   - consecutive messages of one role are merged (a tool result followed by a note, an error that
//     left a prompt unanswered followed by the next prompt);
//   - every tool_use gets its tool_result in the next message, first in that message: a call the
//     session never answered (a killed process, a branch cut) gets an "interrupted" result, so a
//     pair is never split;
//   - a tool_result whose call is not in the message just before it is dropped (its call lies on
//     another branch);
//   - empty text blocks and messages left empty are dropped.
import type { ContentBlock } from '../../shared/messages'
import type { MergeRecord } from '../session/records'
import type { TreeRecord } from '../session/tree'
import type { ApiMessage } from './model/model-client'

export const INTERRUPTED_RESULT =
  'Interrupted: the tool call did not complete, so there is no result.'

/** Tool results a stop cut short: a call answered INTERRUPTED_RESULT. */
export function isInterrupted(record: TreeRecord): boolean {
  const content = record.type === 'user' ? record.message.content : ''
  return (
    typeof content !== 'string' &&
    content.some(
      (block) =>
        block.type === 'tool_result' &&
        (block.content === INTERRUPTED_RESULT ||
          (Array.isArray(block.content) &&
            block.content.some(
              (part: unknown) =>
                typeof part === 'object' &&
                part !== null &&
                (part as { text?: unknown }).text === INTERRUPTED_RESULT
            )))
    )
  )
}

export function summaryText(summary: string): string {
  return `This conversation came back here from a branch that was left. Summary of that branch:\n<summary>\n${summary}\n</summary>`
}

export function compactionText(summary: string): string {
  return `The earlier part of this conversation was compacted to save context. Summary of it:\n<summary>\n${summary}\n</summary>`
}

/**
 * What the model reads of a merge: where it came from, what that branch concluded, and which
 * files were merged here (so it does not take them for its own edits, or miss them). For
 * `people` (the transcript, which renders it as Markdown) the same without the record ids and
 * the tags that set the summary apart for the model.
 */
export function mergeText(record: MergeRecord, audience: 'model' | 'people' = 'model'): string {
  const what = record.turnUuid === undefined ? 'another branch' : 'one turn of another branch'
  const lines = [
    audience === 'model'
      ? `This conversation brought in ${what} of the session (record ${record.fromUuid}; the branches part at ${record.baseUuid ?? 'the start'}).`
      : `Brought in ${what} of the session.`
  ]
  if (record.summary !== undefined) {
    const from =
      record.summarySource === 'report' ? 'Report of that exploration' : 'Summary of that branch'
    lines.push(
      audience === 'model'
        ? `${from}:\n<summary>\n${record.summary}\n</summary>`
        : `${from}:\n\n${record.summary}`
    )
  }
  if (record.files.length > 0) {
    const more = record.moreFiles === undefined ? '' : `\n(and ${record.moreFiles} more)`
    const files = record.files.map((f) => {
      const name = f.renamedFrom === undefined ? f.path : `${f.renamedFrom} -> ${f.path}`
      const how = f.resolution === 'clean' ? 'merged' : `conflict resolved: ${f.resolution}`
      return `- ${name} (${f.change}, ${how})`
    })
    lines.push(`Its files were merged into the workspace:\n${files.join('\n')}${more}`)
  }
  return lines.join('\n\n')
}

export function reminderText(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`
}

/**
 * A message's blocks as the API takes them back: no empty text, and no thinking without the
 * signature the API checks it by (what another tool recorded of its model's reasoning, such as
 * Codex CLI's summaries: shown in the transcript, never sent).
 */
function blocksOf(content: string | ContentBlock[]): ContentBlock[] {
  const blocks: ContentBlock[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : content
  return blocks.filter(
    (b) =>
      !(b.type === 'text' && 'text' in b && b.text === '') &&
      !(b.type === 'thinking' && !('signature' in b && typeof b.signature === 'string'))
  )
}

function textOf(content: string | ContentBlock[]): string {
  return blocksOf(content)
    .flatMap((b) =>
      b.type === 'text' && 'text' in b && typeof b.text === 'string' ? [b.text] : []
    )
    .join('\n\n')
}

/** One record as a message (before merging and pairing); null for a record the model never sees. */
export function messageOf(record: TreeRecord): ApiMessage | null {
  switch (record.type) {
    case 'user':
      return { role: 'user', content: blocksOf(record.message.content) }
    case 'assistant':
      return { role: 'assistant', content: blocksOf(record.message.content) }
    case 'branch_summary':
      return record.summary.trim() === ''
        ? null
        : { role: 'user', content: [{ type: 'text', text: summaryText(record.summary) }] }
    case 'compaction':
      return { role: 'user', content: [{ type: 'text', text: compactionText(record.summary) }] }
    case 'merge':
      return { role: 'user', content: [{ type: 'text', text: reminderText(mergeText(record)) }] }
    case 'custom_message': {
      const text = textOf(record.content)
      return text === ''
        ? null
        : { role: 'user', content: [{ type: 'text', text: reminderText(text) }] }
    }
  }
}

function merged(messages: ApiMessage[]): ApiMessage[] {
  const out: ApiMessage[] = []
  for (const m of messages) {
    if (m.content.length === 0) continue
    const last = out[out.length - 1]
    if (last !== undefined && last.role === m.role)
      out[out.length - 1] = { role: m.role, content: [...last.content, ...m.content] }
    else out.push(m)
  }
  return out
}

function toolUseIds(m: ApiMessage | undefined): string[] {
  if (m === undefined || m.role !== 'assistant') return []
  return m.content.flatMap((b) =>
    b.type === 'tool_use' && 'id' in b && typeof b.id === 'string' ? [b.id] : []
  )
}

function resultId(b: ContentBlock): string | null {
  return b.type === 'tool_result' && 'tool_use_id' in b && typeof b.tool_use_id === 'string'
    ? b.tool_use_id
    : null
}

/** Pairs every tool_use with a tool_result at the head of the next message. */
function paired(messages: ApiMessage[]): ApiMessage[] {
  const out: ApiMessage[] = []
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]
    if (m === undefined) continue
    if (m.role === 'assistant') {
      out.push(m)
      const ids = toolUseIds(m)
      const next = messages[i + 1]
      if (ids.length > 0 && (next === undefined || next.role !== 'user')) {
        // Nothing answered this call on the branch (the session ends here, or the next message is
        // the model's): answer it now so the request is valid.
        out.push({ role: 'user', content: answers(ids, []) })
      }
      continue
    }
    const calls = toolUseIds(out[out.length - 1])
    out.push({ role: 'user', content: answers(calls, m.content) })
  }
  return merged(out)
}

/** The results for `calls` (recorded, or "interrupted") first, then the other blocks of `content`. */
function answers(calls: string[], content: ContentBlock[]): ContentBlock[] {
  const results = new Map<string, ContentBlock>()
  const rest: ContentBlock[] = []
  for (const b of content) {
    const id = resultId(b)
    if (id === null) rest.push(b)
    else if (calls.includes(id) && !results.has(id)) results.set(id, b)
    // else: an orphan result (its call is on another branch) or a duplicate: the API refuses both.
  }
  const head = calls.map(
    (id): ContentBlock =>
      results.get(id) ?? {
        type: 'tool_result',
        tool_use_id: id,
        content: INTERRUPTED_RESULT,
        is_error: true
      }
  )
  return [...head, ...rest]
}

/**
 * The records of a branch (root first) the model sees: all of them; after a compaction, that
 * compaction (its summary) then the records from its firstKeptUuid on, those before it in the
 * file and those after it. An earlier compaction among the kept records is left out: the last
 * one's summary was made from what the model saw, that one's summary included.
 */
export function modelView(path: readonly TreeRecord[]): readonly TreeRecord[] {
  let at = -1
  for (let i = path.length - 1; i >= 0 && at === -1; i--) if (path[i]?.type === 'compaction') at = i
  const compaction = path[at]
  if (compaction?.type !== 'compaction') return path
  const firstKept = compaction.firstKeptUuid
  const kept = firstKept === null ? -1 : path.findIndex((r) => r.uuid === firstKept)
  // A first kept record that is not before it on this path (a hand-edited file): nothing is kept.
  const from = kept >= 0 && kept < at ? kept : at + 1
  const before = path.slice(from, at).filter((r) => r.type !== 'compaction')
  return [compaction, ...before, ...path.slice(at + 1)]
}

/** The Messages API `messages` for a branch (its records, root first). */
export function buildMessages(path: readonly TreeRecord[]): ApiMessage[] {
  return messagesOf(modelView(path))
}

/** The Messages API `messages` for records as the model sees them (modelView's output). */
export function messagesOf(view: readonly TreeRecord[]): ApiMessage[] {
  const raw = view.map(messageOf).filter((m): m is ApiMessage => m !== null)
  return paired(merged(raw))
}

/** The role of the first record from `from` on (step 1) or the last before `from` (step -1) the model sees. */
function roleNextTo(view: readonly TreeRecord[], from: number, step: 1 | -1): string | null {
  for (let i = step === 1 ? from : from - 1; i >= 0 && i < view.length; i += step) {
    const message = messageOf(view[i] as TreeRecord)
    if (message !== null && message.content.length > 0) return message.role
  }
  return null
}

/**
 * buildMessages for the agent's successive requests, built on the previous one. A request's
 * branch is most often the previous request's plus what was appended since (the reply and its
 * tool results), and records never change once in the tree; rebuilding the whole branch at each
 * of a turn's model calls cost time that grew with the session (bench/agent-turn.ts). The
 * messages of a view are kept when it ends with the user's side (a prompt, tool results): the
 * next view that repeats it and goes on with the model's side is those messages followed by the
 * new records' own, as no merging or pairing reaches across that point (see messagesOf). Any
 * other view (a rewind, a compaction, a branch switch) is built whole. Gives what buildMessages
 * gives (context.test.ts).
 */
export class MessageBuilder {
  private kept: {
    first: TreeRecord
    last: TreeRecord
    length: number
    messages: readonly ApiMessage[]
  } | null = null

  build(path: readonly TreeRecord[]): ApiMessage[] {
    const view = modelView(path)
    const kept = this.kept
    const continues =
      kept !== null &&
      view.length >= kept.length &&
      view[0] === kept.first &&
      view[kept.length - 1] === kept.last &&
      (view.length === kept.length || roleNextTo(view, kept.length, 1) === 'assistant')
    const messages = continues
      ? [...kept.messages, ...messagesOf(view.slice(kept.length))]
      : messagesOf(view)
    const [first, last] = [view[0], view[view.length - 1]]
    // Pairing can empty a last user message (results whose calls are elsewhere): then the model's
    // next reply would merge with the message before it, so such a view is not kept.
    this.kept =
      first !== undefined &&
      last !== undefined &&
      roleNextTo(view, view.length, -1) === 'user' &&
      messages.at(-1)?.role === 'user'
        ? { first, last, length: view.length, messages }
        : null
    return messages
  }
}
