// Read: a text file as numbered lines (`cat -n`), whole or a window of it. Records what it saw
// in the read-before-edit table, so Edit and Write may then change the file.
import * as z from 'zod'
import { describePath, resolveToolPath, type ToolPath } from './paths'
import {
  existingFileSize,
  numberLines,
  readExistingText,
  readLineWindow,
  splitLines
} from './text-files'
import { ToolError } from './tool'
import type { Tool, ToolOutput } from './tool'

const DEFAULT_LINE_LIMIT = 2000
const MAX_LINE_CHARS = 2000
/** Above this a whole-file read would flood the context; offset/limit still work. */
const MAX_WHOLE_FILE_BYTES = 256 * 1024
/**
 * Above this a read with offset or limit reads only as far as its window (a 1.9 GB file read
 * for one line was read whole, 2 GB of memory); below it the file is read whole, so Edit and
 * Write may change it after.
 */
const MAX_WHOLE_WINDOWED_BYTES = 16 * 1024 * 1024

const ReadInput = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe('The file to read: absolute, or relative to the workspace root'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'The line number to start reading from (1-based). Only for files too large to read at once'
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('The number of lines to read. Only for files too large to read at once')
})
type ReadInput = z.infer<typeof ReadInput>

function clipLine(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line truncated]` : line
}

export const readTool: Tool<ReadInput> = {
  name: 'Read',
  description: [
    'Reads a text file from the workspace and returns its lines numbered like `cat -n` (line number, tab, line).',
    `By default up to ${DEFAULT_LINE_LIMIT} lines from the start; use offset and limit for long files.`,
    `Lines longer than ${MAX_LINE_CHARS} characters are truncated.`,
    'A file must be read before Edit or Write may change it. Directories and binary files are refused: use Glob to list a directory.'
  ].join('\n'),
  inputSchema: ReadInput,
  permission: 'read',
  describeCall: (input, cwd) => `Read(${describePath(input.file_path, cwd)})`,
  async execute(input, ctx) {
    const target = resolveToolPath(ctx, input.file_path)
    const windowed = input.offset !== undefined || input.limit !== undefined
    const size = existingFileSize(target)
    if (size === null) throw new ToolError(`File does not exist: ${target.display}`)
    const tooLarge = (bytes: number) =>
      new ToolError(
        `${target.display} is ${Math.ceil(bytes / 1024)} KB, over the ${MAX_WHOLE_FILE_BYTES / 1024} KB a whole read allows. ` +
          'Read part of it with offset and limit, or search it with Grep.'
      )
    if (!windowed && size > MAX_WHOLE_FILE_BYTES) throw tooLarge(size)
    if (windowed && size > MAX_WHOLE_WINDOWED_BYTES) return readWindowOnly(input, target, size)
    const text = readExistingText(target)
    if (text === null) throw new ToolError(`File does not exist: ${target.display}`)
    // A file whose size says 0 (those of /proc) is known only once read.
    const bytes = Buffer.byteLength(text, 'utf8')
    if (!windowed && bytes > MAX_WHOLE_FILE_BYTES) throw tooLarge(bytes)
    ctx.fileState.markRead(target.abs, text)
    const lines = splitLines(text)
    if (lines.length === 0) {
      return {
        isError: false,
        content: `<system-reminder>Warning: ${target.display} exists but is empty.</system-reminder>`,
        details: { path: target.display, totalLines: 0 }
      }
    }
    const start = Math.max(1, input.offset ?? 1)
    if (start > lines.length) {
      return {
        isError: false,
        content: `<system-reminder>Warning: ${target.display} has ${lines.length} lines, fewer than the offset ${start}.</system-reminder>`,
        details: { path: target.display, totalLines: lines.length }
      }
    }
    const shown = lines.slice(start - 1, start - 1 + (input.limit ?? DEFAULT_LINE_LIMIT))
    const end = start + shown.length - 1
    const rest =
      end < lines.length
        ? `\n\n(${target.display} has ${lines.length} lines; shown ${start}-${end}. Use offset to read more.)`
        : ''
    return {
      isError: false,
      content: numberLines(shown.map(clipLine), start) + rest,
      details: { path: target.display, startLine: start, endLine: end, totalLines: lines.length }
    }
  }
}

/**
 * A window of a file too large to read whole: read up to its last line only, not marked as
 * read (Edit and Write need the whole file), its line count told only when the read got to the
 * end.
 */
function readWindowOnly(input: ReadInput, target: ToolPath, size: number): ToolOutput {
  const start = Math.max(1, input.offset ?? 1)
  const window = readLineWindow(target, start, input.limit ?? DEFAULT_LINE_LIMIT, MAX_LINE_CHARS)
  if (window === null) throw new ToolError(`File does not exist: ${target.display}`)
  const { lines, totalLines } = window
  if (lines.length === 0) {
    return {
      isError: false,
      content: `<system-reminder>Warning: ${target.display} has ${totalLines ?? 0} lines, fewer than the offset ${start}.</system-reminder>`,
      details: { path: target.display, totalLines }
    }
  }
  const end = start + lines.length - 1
  const megabytes = (size / 1024 / 1024).toFixed(1)
  const rest =
    totalLines === null || end < totalLines
      ? `\n\n(${target.display} is ${megabytes} MB; shown lines ${start}-${end}${totalLines === null ? '' : ` of ${totalLines}`}. Use offset to read more. A file this large is read only as far as asked, so Edit and Write cannot change it.)`
      : `\n\n(${target.display} is ${megabytes} MB, read only as far as asked, so Edit and Write cannot change it.)`
  return {
    isError: false,
    content: numberLines(lines.map(clipLine), start) + rest,
    details: { path: target.display, startLine: start, endLine: end, totalLines }
  }
}
