// Grep: lines matching a regular expression, in ripgrep's `path:line:text` form (content mode,
// so one call answers where and what). Pure JavaScript (no ripgrep binary here): JavaScript
// regex syntax, one line at a time; .gitignore honoured, .git, binary and huge files skipped.
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { describePath } from './paths'
import { resolveSearchBase } from './search-base'
import { looksBinary } from '../../files/binary-content'
import { splitLines } from './text-files'
import { ToolError } from './tool'
import type { Tool } from './tool'
import { walkFiles } from './walk'
import type { WalkedFile } from './walk'

export const MAX_GREP_LINES = 250
const MAX_LINE_CHARS = 500
/** Larger files are skipped (and counted in the answer): likely generated or data. */
const MAX_FILE_BYTES = 10 * 1024 * 1024

const GrepInput = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('JavaScript regular expression to search for in file contents'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('File or folder to search in (default: the workspace root)'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.{ts,tsx}"')
})
type GrepInput = z.infer<typeof GrepInput>

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern)
  } catch (error) {
    throw new ToolError(`Invalid regular expression: ${(error as Error).message}`)
  }
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line
}

export const grepTool: Tool<GrepInput> = {
  name: 'Grep',
  description: [
    'Searches file contents with a JavaScript regular expression, line by line.',
    'Returns matching lines as `path:line:text` (like `rg -n`), at most ' +
      `${MAX_GREP_LINES} lines; narrow with path or glob. Case-sensitive unless the pattern says otherwise ((?i) is not supported; use [Aa]).`,
    'A glob without "/" matches file names at any depth ("*.py"); with "/" it matches the path relative to path.',
    'Files ignored by .gitignore, .git folders (nested ones too), binary files and files over 10 MB are skipped.'
  ].join('\n'),
  inputSchema: GrepInput,
  permission: 'read',
  describeCall: (input) =>
    input.path === undefined ? `Grep(${input.pattern})` : `Grep(${input.pattern} in ${input.path})`,
  async execute(input, ctx) {
    const regex = compile(input.pattern)
    const base = await resolveSearchBase(ctx, input.path)
    // ripgrep's --glob: a pattern without a slash matches the file name at any depth.
    // (picomatch's own `basename` option also breaks patterns that have a slash.)
    const inGlob =
      input.glob === undefined
        ? () => true
        : picomatch(input.glob, { dot: true, basename: !input.glob.includes('/') })

    const candidates: WalkedFile[] = base.isDirectory
      ? await walkFiles(base.path.root, base.path.abs, ctx.signal)
      : [{ abs: base.path.abs, rel: basename(base.path.abs) }]

    const out: string[] = []
    let matchCount = 0
    const files = new Set<string>()
    let skippedLarge = 0
    const cancelled = () => {
      if (ctx.signal.aborted) throw new ToolError('Grep was cancelled.')
    }
    cancelled()
    for (const file of candidates) {
      cancelled()
      if (!inGlob(file.rel)) continue
      const info = await stat(file.abs).catch(() => null)
      if (info === null) continue
      if (info.size > MAX_FILE_BYTES) {
        skippedLarge += 1
        continue
      }
      const bytes = await readFile(file.abs).catch(() => null)
      if (bytes === null || looksBinary(bytes)) continue
      const shown = describePath(file.abs, ctx.cwd)
      splitLines(bytes.toString('utf8')).forEach((line, i) => {
        if (!regex.test(line)) return
        matchCount += 1
        files.add(shown)
        if (out.length < MAX_GREP_LINES) out.push(`${shown}:${i + 1}:${clip(line)}`)
      })
    }
    const notes: string[] = []
    if (matchCount > out.length) {
      notes.push(
        `(${matchCount - out.length} more matching lines not shown: narrow the pattern, path or glob.)`
      )
    }
    if (skippedLarge > 0) notes.push(`(${skippedLarge} files over 10 MB were not searched.)`)
    const body = matchCount === 0 ? 'No matches found' : out.join('\n')
    return {
      isError: false,
      content: [body, ...notes].join('\n'),
      details: { matches: matchCount, files: files.size }
    }
  }
}
