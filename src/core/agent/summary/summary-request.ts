// The request that asks a model for a summary of part of a session: the part as plain text, newest
// material first into the token budget (the oldest is what gets dropped, with a line saying so),
// then the task and the structure the summary must follow (goal, constraints, progress, decisions,
// next steps), then the user's own instructions, if any. The files read and modified are not asked
// for: they are computed from the records (files-touched.ts) and added to the summary after.
import type { ContentBlock } from '../../../shared/messages'
import { contentText, isPrompt, promptText, type TreeRecord } from '../../session/tree'
import type { ModelRequest } from '../model/model-client'
import { mergeText } from '../context'
import type { FilesTouched } from './files-touched'
import { CHARS_PER_TOKEN, estimateTokens } from './tokens'

/** What the summary is of: a branch the conversation left, or the earlier part of one it keeps. */
export type SummaryKind = 'branch' | 'earlier'

export const SUMMARY_SYSTEM =
  'You summarize part of a coding session between a user and an AI coding agent. Another agent ' +
  'will continue the work with your summary in place of that part, so keep what it needs and ' +
  'nothing else: exact file paths, function names, commands, error messages and numbers.'

const TASKS: Record<SummaryKind, string> = {
  branch:
    'The user left the branch of the conversation above and went back to an earlier point. ' +
    'Summarize what happened on it, so the work can go on from that point knowing what was ' +
    'tried, what was learned and what was changed.',
  earlier:
    'The conversation above goes on after this, but only its latest messages are kept. ' +
    'Summarize it, so the work can go on with your summary in place of what it covers.'
}

const FORMAT = `Write the summary in this structure (leave out a section that would be empty):

## Goal
What the user is trying to get done.
## Constraints
Requirements, preferences and limits the user stated.
## Progress
### Done
### In progress
### Blocked
## Key decisions
What was decided, and why.
## Next steps
What should happen next, in order.

Write only the summary, no preamble.`

/** A tool result or tool input longer than this is cut in the summary's input. */
const TOOL_TEXT_CHARS = 2_000

/**
 * The part to summarize as text, newest entries first into `budgetTokens`, in reading order. Only
 * what fits is turned into text: the walk stops where the budget does, so a long branch costs
 * what its newest part costs.
 */
export function conversationText(records: readonly TreeRecord[], budgetTokens: number): string {
  let room = Math.max(0, budgetTokens) * CHARS_PER_TOKEN
  const kept: string[] = []
  // The records before this one are left out; it was partly taken when `partly`.
  let next = records.length - 1
  let partly = false
  walk: for (; next >= 0; next--) {
    const entries = entriesOf(records[next] as TreeRecord)
    for (let e = entries.length - 1; e >= 0; e--) {
      const entry = entries[e] as string
      if (entry.length + 2 <= room) {
        kept.push(entry)
        room -= entry.length + 2
        partly = true
        continue
      }
      // The newest entry that does not fit whole keeps its end (its latest words).
      if (room >= MIN_CUT_CHARS) {
        kept.push(`[…cut] ${entry.slice(entry.length - room + 10)}`)
        partly = true
      }
      break walk
    }
    partly = false
  }
  const dropped = partly ? next : next + 1
  if (dropped > 0) {
    kept.push(`[${dropped} earlier record${dropped === 1 ? '' : 's'} left out: over the budget]`)
  }
  return kept.reverse().join('\n\n')
}

/** Room below which an entry that does not fit is left out rather than cut. */
const MIN_CUT_CHARS = 200

function clip(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…[${text.length - chars} more chars]` : text
}

function entriesOf(record: TreeRecord): string[] {
  switch (record.type) {
    case 'user': {
      if (isPrompt(record)) return [`[User]\n${promptText(record)}`]
      const content = record.message.content
      if (typeof content === 'string') return [`[Harness note]\n${content}`]
      return content.flatMap((block) =>
        block.type === 'tool_result' ? [toolResultEntry(block)] : textEntry('Harness note', block)
      )
    }
    case 'assistant': {
      const content = record.message.content
      if (typeof content === 'string') return [`[Assistant]\n${content}`]
      return content.flatMap((block) =>
        block.type === 'tool_use' && 'name' in block
          ? [
              `[Assistant called ${String(block.name)}]\n${clip(JSON.stringify(block.input ?? {}), TOOL_TEXT_CHARS)}`
            ]
          : textEntry('Assistant', block)
      )
    }
    case 'branch_summary':
      return [`[Summary of a branch that was left]\n${record.summary}`]
    case 'compaction':
      return [`[Summary of the conversation before this point]\n${record.summary}`]
    case 'custom_message':
      return [`[Harness note: ${record.customType}]\n${contentText(record.content)}`]
    case 'merge':
      return [`[Brought in from another branch]\n${mergeText(record)}`]
  }
}

function textEntry(who: string, block: ContentBlock): string[] {
  const text = block.type === 'text' && 'text' in block ? String(block.text) : ''
  return text.trim() !== '' ? [`[${who}]\n${text}`] : []
}

function toolResultEntry(block: ContentBlock): string {
  const error = 'is_error' in block && block.is_error === true ? ' (error)' : ''
  const content = 'content' in block ? block.content : ''
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? contentText(content as ContentBlock[])
        : ''
  return `[Tool result${error}]\n${clip(text, TOOL_TEXT_CHARS)}`
}

export interface SummaryRequestInput {
  records: readonly TreeRecord[]
  kind: SummaryKind
  /** Tokens the conversation's text may take. */
  budgetTokens: number
  maxTokens: number
  instructions?: string | undefined
}

export function summaryRequest(input: SummaryRequestInput): ModelRequest {
  const instructions = input.instructions?.trim() ?? ''
  const tail = [
    TASKS[input.kind],
    FORMAT,
    ...(instructions !== ''
      ? [
          `The user also asks you to follow these instructions:\n<instructions>\n${instructions}\n</instructions>`
        ]
      : [])
  ].join('\n\n')
  const room = input.budgetTokens - estimateTokens(SUMMARY_SYSTEM) - estimateTokens(tail)
  const text = `<conversation>\n${conversationText(input.records, room)}\n</conversation>\n\n${tail}`
  return {
    system: SUMMARY_SYSTEM,
    tools: [],
    messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    script: { prompt: null, answered: 0 },
    summary: true,
    maxTokens: input.maxTokens
  }
}

/** The summary as stored: the model's text, then the file lists computed from the records. */
export function summaryWithFiles(text: string, files: FilesTouched): string {
  const lines = [
    ...(files.read.length > 0 ? [`Read: ${files.read.join(', ')}`] : []),
    ...(files.modified.length > 0 ? [`Modified: ${files.modified.join(', ')}`] : [])
  ]
  return lines.length === 0 ? text : `${text}\n\n## Files\n${lines.join('\n')}`
}
