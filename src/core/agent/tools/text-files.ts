// Reading files as text the way the file tools need it: what exists, whether it is text, and
// the `cat -n` numbering the model sees (and quotes back in Edit).
import { readFile, stat } from 'node:fs/promises'
import { looksBinary } from '../../files/binary-content'
import { ToolError } from './tool'
import type { ToolPath } from './paths'

/**
 * The file's text, or null when nothing exists at the path (a path through a file, ENOTDIR,
 * holds nothing either: writing there fails with its reason). A directory or a binary file is
 * an error naming the path.
 */
export async function readExistingText(target: ToolPath): Promise<string | null> {
  const info = await stat(target.abs).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
    throw error
  })
  if (info === null) return null
  if (info.isDirectory()) {
    throw new ToolError(`${target.display} is a directory, not a file. Use Glob to list it.`)
  }
  const bytes = await readFile(target.abs)
  if (looksBinary(bytes)) {
    throw new ToolError(`${target.display} is a binary file; the file tools handle text only.`)
  }
  return bytes.toString('utf8')
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
