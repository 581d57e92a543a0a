// How the terminal shows a tool's result: a check or a cross, the tool, and the first lines.
import type { AgentEvent } from '../shared/views'

const SHOWN_LINES = 6

export function formatToolResult(
  name: string,
  event: Extract<AgentEvent, { type: 'tool_end' }>
): string {
  const lines = event.text.split('\n')
  const shown = lines.slice(0, SHOWN_LINES).join('\n       ')
  const more = lines.length > SHOWN_LINES ? `  …(+${lines.length - SHOWN_LINES} lines)` : ''
  return `${event.isError ? '✘' : '✔'} ${name} -> ${shown}${more}`
}
