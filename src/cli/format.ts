// How the terminal shows what the agent does: a tool's result (a check or a cross, the tool, the
// first lines), a permission question, and any text from outside made safe to print.
import { escapeControlChars, escapeControlCharsOneLine } from '../shared/control-chars'
import type { AgentEvent, PermissionRequest, RewindResult } from '../shared/views'

/**
 * Prints a line of text that may hold anything (a model's words, a file's content, a session
 * log's prompt): control and bidi characters are escaped (shared/control-chars.ts), so an escape
 * sequence in it cannot retitle the window, clear the screen, write the clipboard or rewrite an
 * earlier line. Every line the CLI prints goes through here or escapes the same way.
 */
export function say(text: string): void {
  console.log(escapeControlChars(text))
}

/** say, on standard error. */
export function sayError(text: string): void {
  console.error(escapeControlChars(text))
}

/**
 * The body of a permission question, printed (through say) before "Allow …? [y/n]": the whole
 * command or content with its line count, each line behind a bar so none can pass for the
 * question itself.
 */
export function formatPermissionDetail(detail: NonNullable<PermissionRequest['detail']>): string {
  const lines = detail.text.split('\n')
  const count = `${lines.length} line${lines.length === 1 ? '' : 's'}`
  return [`  ${detail.label} (${count}):`, ...lines.map((line) => `  │ ${line}`)].join('\n')
}

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

/** A path on one line, whatever its name holds (a newline in a name forged a line before). */
export const onePath = escapeControlCharsOneLine

/** What a restore did to the files, a line per file (a path is one line, whatever its name holds). */
export function restoreLines(result: RewindResult): string[] {
  const shown = onePath
  return [
    ...result.restored.map((path) => `  ⎿ restored ${shown(path)}`),
    ...result.recreated.map((path) => `  ⎿ recreated ${shown(path)}`),
    ...result.deleted.map((path) => `  ⎿ deleted (created after it) ${shown(path)}`),
    ...folderLines(result)
  ]
}

/** The folders a restore removed (made by the session, left empty) or made again, a line each. */
export function folderLines(result: RewindResult): string[] {
  return [
    ...(result.removedFolders ?? []).map((path) => `  ⎿ removed folder ${onePath(path)}/ (empty)`),
    ...(result.madeFolders ?? []).map((path) => `  ⎿ made folder ${onePath(path)}/ again`)
  ]
}
