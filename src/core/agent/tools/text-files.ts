// Reading files as text the way the file tools need it: what exists, whether it is text, and
// the `cat -n` numbering the model sees (and quotes back in Edit).
import { closeSync, readSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { type NotAFile, openPath, readRegularFile } from '../../os/read-regular-file'
import { looksBinary } from '../../files/binary-content'
import { ToolError } from './tool'
import type { ToolPath } from './paths'

/** The refusal for something at the path that is no regular file. */
function notAFile(target: ToolPath, what: NotAFile): ToolError {
  return new ToolError(
    what === 'folder'
      ? `${target.display} is a directory, not a file. Use Glob to list it.`
      : `${target.display} is a ${what}, not a regular file; the file tools read regular files only.`
  )
}

function binaryFile(target: ToolPath): ToolError {
  return new ToolError(`${target.display} is a binary file; the file tools handle text only.`)
}

/**
 * The file's text, or null when nothing exists at the path. A folder, a FIFO, a device or a
 * binary file is an error naming the path (a FIFO is never waited on: see readRegularFile).
 */
export function readExistingText(target: ToolPath): string | null {
  const found = readRegularFile(target.abs)
  if (found.kind === 'missing') return null
  if (found.kind === 'other') throw notAFile(target, found.what)
  if (looksBinary(found.content)) throw binaryFile(target)
  return found.content.toString('utf8')
}

/** The size of the regular file at the path (null: nothing there), refused as readExistingText refuses. */
export function existingFileSize(target: ToolPath): number | null {
  const opened = openPath(target.abs)
  if (opened.kind === 'missing') return null
  if (opened.kind === 'other') throw notAFile(target, opened.what)
  closeSync(opened.fd)
  return Number(opened.stats.size)
}

export interface LineWindow {
  /** Lines `start` to `start + lines.length - 1`, each cut after `maxChars + 1` characters. */
  lines: string[]
  /** Every line of the file, when the read reached its end; null when it stopped before. */
  totalLines: number | null
}

const CHUNK_BYTES = 64 * 1024

/**
 * Lines `start` to `start + limit - 1` of a file, read from its start and no further than the
 * last of them: memory holds the window (each line cut after `maxChars + 1` characters), not
 * the file. For files too large to read whole; binary ones are refused by their first bytes.
 */
export function readLineWindow(
  target: ToolPath,
  start: number,
  limit: number,
  maxChars: number
): LineWindow | null {
  const opened = openPath(target.abs)
  if (opened.kind === 'missing') return null
  if (opened.kind === 'other') throw notAFile(target, opened.what)
  const end = start + limit
  const lines: string[] = []
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
  const decoder = new StringDecoder('utf8')
  let lineNumber = 1
  let line = ''
  /** Whether the line being read holds anything yet (a last line without a newline counts). */
  let inLine = false
  let first = true
  try {
    for (;;) {
      const read = readSync(opened.fd, buffer, 0, CHUNK_BYTES, null)
      if (first && looksBinary(buffer.subarray(0, read))) throw binaryFile(target)
      first = false
      const text = read === 0 ? decoder.end() : decoder.write(buffer.subarray(0, read))
      let at = 0
      while (lineNumber < end) {
        const newline = text.indexOf('\n', at)
        const piece = text.slice(at, newline === -1 ? text.length : newline)
        if (piece !== '') inLine = true
        if (lineNumber >= start && line.length <= maxChars) line += piece.slice(0, maxChars + 1)
        if (newline === -1) break
        if (lineNumber >= start) lines.push(line.replace(/\r$/, ''))
        line = ''
        inLine = false
        lineNumber++
        at = newline + 1
      }
      if (lineNumber >= end) return { lines, totalLines: null }
      // The window's last line, cut already: the rest of it changes nothing shown.
      if (lineNumber === end - 1 && line.length > maxChars) {
        return { lines: [...lines, line], totalLines: null }
      }
      if (read === 0) {
        if (inLine && lineNumber >= start) lines.push(line.replace(/\r$/, ''))
        return { lines, totalLines: lineNumber - (inLine ? 0 : 1) }
      }
    }
  } finally {
    closeSync(opened.fd)
  }
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
