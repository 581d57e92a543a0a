// Grep: lines matching a regular expression, in ripgrep's `path:line:text` form (content mode,
// so one call answers where and what). Pure JavaScript (no ripgrep binary here): JavaScript
// regex syntax, one line at a time; .gitignore honoured, .git, binary and huge files skipped.
// The search runs in a worker thread (search-run.ts), so a pattern that backtracks for ever
// freezes nothing: the call is ended by Stop at once, and by its time limit otherwise, answering
// with what was found until then.
import * as z from 'zod'
import { runSearch, SEARCH_TIME_LIMIT_MS, stoppedNote } from './search-run'
import { resolveSearchBase } from './search-base'
import { ToolError } from './tool'
import type { Tool } from './tool'

export const MAX_GREP_LINES = 250

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

/** Refuses a pattern that does not compile, before any worker starts. */
function checkPattern(pattern: string): void {
  try {
    new RegExp(pattern)
  } catch (error) {
    throw new ToolError(`Invalid regular expression: ${(error as Error).message}`)
  }
}

export function createGrepTool(timeLimitMs = SEARCH_TIME_LIMIT_MS): Tool<GrepInput> {
  return {
    name: 'Grep',
    description: [
      'Searches file contents with a JavaScript regular expression, line by line.',
      'Returns matching lines as `path:line:text` (like `rg -n`), at most ' +
        `${MAX_GREP_LINES} lines; narrow with path or glob. Case-sensitive unless the pattern says otherwise ((?i) is not supported; use [Aa]).`,
      'A glob without "/" matches file names at any depth ("*.py"); with "/" it matches the path relative to path.',
      'Files ignored by .gitignore, .git folders (nested ones too), binary files and files over 10 MB are skipped.',
      `A search stops after ${timeLimitMs / 1000} s and answers with what it found by then.`
    ].join('\n'),
    inputSchema: GrepInput,
    permission: 'read',
    describeCall: (input) =>
      input.path === undefined
        ? `Grep(${input.pattern})`
        : `Grep(${input.pattern} in ${input.path})`,
    async execute(input, ctx) {
      checkPattern(input.pattern)
      const base = await resolveSearchBase(ctx, input.path)
      const lines: string[] = []
      const files = new Set<string>()
      let matches = 0
      let skippedLarge = 0
      const { timedOut } = await runSearch(
        'Grep',
        {
          kind: 'grep',
          pattern: input.pattern,
          root: base.path.root,
          base: base.path.abs,
          baseIsDirectory: base.isDirectory,
          glob: input.glob,
          cwd: ctx.cwd,
          maxLines: MAX_GREP_LINES
        },
        ctx.signal,
        timeLimitMs,
        (result) => {
          if (result.type === 'skipped-large') skippedLarge += 1
          if (result.type !== 'lines') return
          matches += result.matches
          files.add(result.path)
          lines.push(...result.lines)
        }
      )
      const notes: string[] = []
      if (matches > lines.length) {
        notes.push(
          `(${matches - lines.length} more matching lines not shown: narrow the pattern, path or glob.)`
        )
      }
      if (skippedLarge > 0) notes.push(`(${skippedLarge} files over 10 MB were not searched.)`)
      if (timedOut) notes.push(stoppedNote(timeLimitMs))
      const body = matches === 0 ? 'No matches found' : lines.join('\n')
      return {
        isError: false,
        content: [body, ...notes].join('\n'),
        details: { matches, files: files.size, ...(timedOut ? { timedOut: true } : {}) }
      }
    }
  }
}

export const grepTool = createGrepTool()
