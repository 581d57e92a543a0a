// How the terminal shows a tool's result: a check or a cross, the tool, and the first lines.
import type { AgentEvent } from '../shared/views'

const SHOWN_LINES = 6
/** A line longer than this (minified code, a long log line) is cut: the terminal wraps it. */
const SHOWN_LINE_CHARS = 200

function clipped(line: string): string {
  const chars = [...line]
  return chars.length > SHOWN_LINE_CHARS
    ? `${chars.slice(0, SHOWN_LINE_CHARS).join('')}…(+${chars.length - SHOWN_LINE_CHARS} chars)`
    : line
}

export function formatToolResult(
  name: string,
  event: Extract<AgentEvent, { type: 'tool_end' }>
): string {
  const lines = event.text.split('\n')
  const shown = lines.slice(0, SHOWN_LINES).map(clipped).join('\n       ')
  const more = lines.length > SHOWN_LINES ? `  …(+${lines.length - SHOWN_LINES} lines)` : ''
  return `${event.isError ? '✘' : '✔'} ${name} -> ${shown}${more}`
}
