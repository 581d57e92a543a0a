// What a conversation record says, as text: a prompt's typed text (without the reminders a
// harness adds), whether a record is one a person typed or one that opens a turn, a content's
// text blocks. The tree (tree.ts, which exports these with it) and every view read records so.
import type { ContentBlock, MessageContent } from '../../shared/messages'
import type { BranchSummaryRecord, UserRecord } from './records'
import type { TreeRecord } from './tree'

const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g

/** A message a person typed: not harness-written, not a tool result, not only system reminders. */
export function isPrompt(r: TreeRecord): boolean {
  return typedPrompt(r) !== null
}

/**
 * Whether a node opens a turn, the unit file changes are filed under: a prompt, or a merge (its
 * files are no prompt's change: core/merge).
 */
export function startsTurn(r: TreeRecord): boolean {
  return r.type === 'merge' || isPrompt(r)
}

/** The typed text of a message a person typed (isPrompt); null for any other record. */
export function typedPrompt(r: TreeRecord): string | null {
  if (r.type !== 'user' || r.isMeta === true) return null
  const content = r.message.content
  if (typeof content !== 'string' && content.some((b) => b.type === 'tool_result')) return null
  const text = promptText(r)
  return text === '' ? null : text
}

/** The typed text of a user message, without system reminders (as its tool shows it: typedText). */
export function promptText(r: UserRecord): string {
  if (typeof r.typedText === 'string') return r.typedText.trim()
  const text = contentText(r.message.content)
  // The check first: most prompts hold no reminder, and a replace copies the whole text.
  return (text.includes('<system-reminder>') ? text.replace(SYSTEM_REMINDER, '') : text).trim()
}

/**
 * The leaf of the branch a summary summarizes, for a summary of a branch left (its details'
 * fromLeafUuid); null for others (an agent's rewind report names none).
 */
export function summarizedLeafOf(record: BranchSummaryRecord): string | null {
  const from = (record.details as { fromLeafUuid?: unknown } | null | undefined)?.fromLeafUuid
  return typeof from === 'string' ? from : null
}

/** The text blocks of a content, joined by blank lines. */
export function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content
  // A loop, not filter/map/join: called per record by inspect and the views of long sessions.
  let text: string | null = null
  for (const b of content) {
    if (b.type !== 'text') continue
    // As join() would: a foreign block's missing text is empty, anything else its string.
    const value: unknown = (b as Partial<Extract<ContentBlock, { type: 'text' }>>).text
    const block = value === undefined || value === null ? '' : String(value)
    text = text === null ? block : `${text}\n\n${block}`
  }
  return text ?? ''
}
