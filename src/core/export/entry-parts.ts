// A transcript entry as the Markdown and HTML exports show it: its text, thinking, tool calls
// (in the words the transcript uses: "Edit(config.py)") and tool results, in order.
import type { TranscriptEntry } from '../../shared/views'
import { builtinTools } from '../agent/tools'
import { describeToolCall } from '../agent/tools/tool'

export type EntryPart =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool_use'; call: string; input: unknown }
  | { kind: 'tool_result'; text: string; isError: boolean }
  /** A block an export does not show (an image, redacted thinking): named by its type. */
  | { kind: 'other'; type: string }

const tools = new Map(builtinTools().map((tool) => [tool.name, tool]))

export function entryParts(entry: TranscriptEntry, cwd: string): EntryPart[] {
  const content = entry.content
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }]
  return content.map((block): EntryPart => {
    const b = block as Record<string, unknown>
    switch (block.type) {
      case 'text':
        return { kind: 'text', text: String(b.text ?? '') }
      case 'thinking':
        return { kind: 'thinking', text: String(b.thinking ?? '') }
      case 'tool_use': {
        const name = String(b.name ?? 'tool')
        return {
          kind: 'tool_use',
          call: describeToolCall(tools.get(name), name, b.input, cwd),
          input: b.input
        }
      }
      case 'tool_result':
        return { kind: 'tool_result', text: resultText(b.content), isError: b.is_error === true }
      default:
        return { kind: 'other', type: block.type }
    }
  })
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((block: { type?: unknown; text?: unknown }) =>
      block.type === 'text' ? String(block.text ?? '') : `[${String(block.type)}]`
    )
    .join('\n')
}

/** A tool call's input as lines people read: each field on its own, strings as they are. */
export function inputLines(input: unknown): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return JSON.stringify(input) ?? ''
  }
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n')
}
