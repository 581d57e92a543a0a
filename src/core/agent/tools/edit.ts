// Edit: replaces an exact string in a file the agent has read as it is now. The string must
// occur exactly once unless replace_all is set, so the model says which place it means.
import { createTwoFilesPatch } from 'diff'
import * as z from 'zod'
import { assertSeenAsIs, guardedWrite } from './guarded-write'
import { describePath, resolveToolPath } from './paths'
import { numberLines, readExistingText, splitLines } from './text-files'
import { ToolError } from './tool'
import type { Tool, ToolContext, ToolOutput } from './tool'
import type { ToolPath } from './paths'

/** Lines of context above and below the change in the snippet the model gets back. */
const SNIPPET_CONTEXT_LINES = 4

const EditInput = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe('The file to edit: absolute, or relative to the workspace root'),
  old_string: z
    .string()
    .describe('The exact text to replace (without the line numbers Read shows)'),
  new_string: z.string().describe('The text to replace it with (must differ from old_string)'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of old_string (default false: it must occur exactly once)')
})
type EditInput = z.infer<typeof EditInput>

function countOccurrences(text: string, needle: string): number {
  let count = 0
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count += 1
  }
  return count
}

/** `text`'s lines, split on \n only so a stray \r stays in sight (escaped). */
function linesOf(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines.length > 1 && lines.at(-1) === '') lines.pop()
  return lines
}

/**
 * The change as the user approves it: the lines old_string and new_string share at their start
 * and end as context, the rest as `-` then `+` lines. A model often repeats a line to anchor an
 * insertion; shown as removed and added, it reads as a change to that line. Linear in the text.
 */
function changeLines(oldString: string, newString: string): string[] {
  const a = linesOf(oldString)
  const b = linesOf(newString)
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++
  const marked = (mark: string, lines: string[]) => lines.map((line) => `${mark}${line}`)
  return [
    ...marked('  ', a.slice(0, head)),
    ...marked('- ', a.slice(head, a.length - tail)),
    ...marked('+ ', b.slice(head, b.length - tail)),
    ...marked('  ', a.slice(a.length - tail))
  ]
}

/** Numbered lines around the first replacement, as they are after the edit. */
function snippetAround(newText: string, changeStart: number, newString: string): string {
  const lines = splitLines(newText)
  const firstLine = newText.slice(0, changeStart).split('\n').length
  const lastLine = firstLine + Math.max(0, splitLines(newString).length - 1)
  const from = Math.max(1, firstLine - SNIPPET_CONTEXT_LINES)
  const to = Math.min(lines.length, lastLine + SNIPPET_CONTEXT_LINES)
  return numberLines(lines.slice(from - 1, to), from)
}

async function writeEdited(
  ctx: ToolContext,
  target: ToolPath,
  before: string,
  after: string,
  summary: string
): Promise<ToolOutput> {
  const warning = await guardedWrite(ctx, target, 'Edit', after)
  return {
    isError: false,
    content: warning === null ? summary : `${summary}\n${warning}`,
    details: {
      path: target.display,
      patch: createTwoFilesPatch(target.display, target.display, before, after)
    }
  }
}

export const editTool: Tool<EditInput> = {
  name: 'Edit',
  description: [
    'Replaces exact text in a file. The file must have been read first (Read) and not changed since.',
    'old_string must match the file exactly, indentation included, without the line-number prefix Read adds.',
    'It must occur exactly once, unless replace_all is true; give more surrounding lines to make it unique.',
    'With an empty old_string, Edit creates a file that does not exist yet, with new_string as its content.'
  ].join('\n'),
  inputSchema: EditInput,
  permission: 'edit',
  describeCall: (input, cwd) => `Edit(${describePath(input.file_path, cwd)})`,
  approvalDetail: (input) => ({
    label: input.replace_all === true ? 'Change (every occurrence)' : 'Change',
    text: changeLines(input.old_string, input.new_string).join('\n')
  }),
  async execute(input, ctx) {
    const target = resolveToolPath(ctx, input.file_path)
    if (input.old_string === input.new_string) {
      throw new ToolError('No changes to make: old_string and new_string are exactly the same.')
    }
    const raw = readExistingText(target)
    if (raw === null) {
      if (input.old_string !== '') throw new ToolError(`File does not exist: ${target.display}`)
      return writeEdited(ctx, target, '', input.new_string, `Created ${target.display}`)
    }
    assertSeenAsIs(ctx, target, raw)
    // The model writes '\n': the file is matched and edited as LF, and written back with each
    // line ending as it was (lineEnds).
    const ends = lineEnds(raw)
    const text = ends.text
    const oldString = input.old_string.replaceAll('\r\n', '\n')
    const newString = input.new_string.replaceAll('\r\n', '\n')
    if (oldString === '') {
      if (text !== '') {
        throw new ToolError(
          `Cannot create ${target.display}: it already exists. Give the text to replace in old_string.`
        )
      }
      return writeEdited(
        ctx,
        target,
        raw,
        newString,
        `The file ${target.display} has been updated.`
      )
    }
    const count = countOccurrences(text, oldString)
    if (count === 0) {
      throw new ToolError(
        `String to replace not found in ${target.display}.\nString: ${input.old_string}`
      )
    }
    if (count > 1 && input.replace_all !== true) {
      throw new ToolError(
        `Found ${count} matches of the string to replace in ${target.display}, but replace_all is false. ` +
          'To replace all occurrences, set replace_all to true. To replace only one occurrence, ' +
          `give more context to identify the instance uniquely.\nString: ${input.old_string}`
      )
    }
    const changeStart = text.indexOf(oldString)
    // split/join, not String.replace: `$&` and friends in new_string must stay literal.
    const edited = text.split(oldString).join(newString)
    const after = replacedKeepingEnds(raw, ends, oldString, newString)
    const summary =
      `The file ${target.display} has been updated (${count} replacement${count === 1 ? '' : 's'}). Snippet:\n` +
      snippetAround(edited, changeStart, newString)
    return writeEdited(ctx, target, raw, after, summary)
  }
}

interface LineEnds {
  /** `raw` with every CRLF as LF. */
  text: string
  /** Where in `text` a LF was a CRLF. */
  crlfAt: Set<number>
}

function lineEnds(raw: string): LineEnds {
  const crlfAt = new Set<number>()
  let text = ''
  let from = 0
  for (let at = raw.indexOf('\r\n'); at !== -1; at = raw.indexOf('\r\n', at + 2)) {
    text += raw.slice(from, at)
    crlfAt.add(text.length)
    from = at + 1
  }
  return { text: text + raw.slice(from), crlfAt }
}

/**
 * `raw` with every `oldString` of its LF form replaced by `newString`, everything else byte for
 * byte as it was: a file mixing CRLF and LF keeps each line's ending (every LF became CRLF
 * before). A replacement's own line breaks take the ending of the text it replaces, or of the
 * line it sits on.
 */
function replacedKeepingEnds(
  raw: string,
  ends: LineEnds,
  oldString: string,
  newString: string
): string {
  if (ends.crlfAt.size === 0) return ends.text.split(oldString).join(newString)
  const { text, crlfAt } = ends
  const sorted = [...crlfAt].sort((a, b) => a - b)
  /** The index in `raw` of index `at` of `text`: one more for each CR before it. */
  const rawIndex = (at: number) => {
    // Binary search: how many CRs stand before `at`.
    let low = 0
    let high = sorted.length
    while (low < high) {
      const mid = (low + high) >> 1
      if ((sorted[mid] as number) < at) low = mid + 1
      else high = mid
    }
    return at + low
  }
  let out = ''
  let rawFrom = 0
  for (
    let at = text.indexOf(oldString);
    at !== -1;
    at = text.indexOf(oldString, at + oldString.length)
  ) {
    const matchEnd = at + oldString.length
    const replaced = raw.slice(rawIndex(at), rawIndex(matchEnd))
    const lineEnd = text.indexOf('\n', matchEnd)
    const crlf = replaced.includes('\n')
      ? replaced.includes('\r\n')
      : lineEnd !== -1 && crlfAt.has(lineEnd)
    out +=
      raw.slice(rawFrom, rawIndex(at)) + (crlf ? newString.replaceAll('\n', '\r\n') : newString)
    rawFrom = rawIndex(matchEnd)
  }
  return out + raw.slice(rawFrom)
}
