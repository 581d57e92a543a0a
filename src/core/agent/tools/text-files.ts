// Reading files as text the way the file tools need it: what exists, whether it is text, and
// the `cat -n` numbering the model sees (and quotes back in Edit).
import { readRegularFile } from '../../os/read-regular-file'
import { looksBinary } from '../../files/binary-content'
import { ToolError } from './tool'
import type { ToolPath } from './paths'

/**
 * The file's text, or null when nothing exists at the path. A folder, a FIFO, a device or a
 * binary file is an error naming the path (a FIFO is never waited on: see readRegularFile).
 */
export function readExistingText(target: ToolPath): string | null {
  const found = readRegularFile(target.abs)
  if (found.kind === 'missing') return null
  if (found.kind === 'other') {
    throw new ToolError(
      found.what === 'folder'
        ? `${target.display} is a directory, not a file. Use Glob to list it.`
        : `${target.display} is a ${found.what}, not a regular file; the file tools read regular files only.`
    )
  }
  if (looksBinary(found.content)) {
    throw new ToolError(`${target.display} is a binary file; the file tools handle text only.`)
  }
  return found.content.toString('utf8')
}

/** Lines as the model sees them: no line-ending characters, a trailing newline ends a line. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/** `cat -n` style: the line number right-aligned in 6 columns, a tab, the line. */
export function numberLine(lineNumber: number, line: string): string {
  return `${String(lineNumber).padStart(6)}\t${line}`
}

export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, i) => numberLine(firstLineNumber + i, line)).join('\n')
}
