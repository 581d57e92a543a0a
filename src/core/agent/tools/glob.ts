// Glob: files whose path matches a glob pattern, newest first (by modification time), so the
// files the user is working on come first. Same walk as Grep: .gitignore honoured, .git skipped.
// Matching runs in a worker thread (search-run.ts): a pattern with many stars can take for ever
// on a long name, and then only the call is stopped, by Stop or by its time limit.
import * as z from 'zod'
import { describePath } from './paths'
import { resolveSearchBase } from './search-base'
import { runSearch, SEARCH_TIME_LIMIT_MS, stoppedNote } from './search-run'
import { ToolError } from './tool'
import type { Tool } from './tool'

export const MAX_GLOB_RESULTS = 100

const GlobInput = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('The glob pattern, relative to path, e.g. "**/*.ts" or "src/**/*.test.ts"'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('The folder to search in (default: the workspace root)')
})
type GlobInput = z.infer<typeof GlobInput>

export function createGlobTool(timeLimitMs = SEARCH_TIME_LIMIT_MS): Tool<GlobInput> {
  return {
    name: 'Glob',
    description: [
      'Finds files by glob pattern ("**/*.js", "src/**/*.ts", "*.md" for the top folder only).',
      `Returns matching paths, most recently modified first, at most ${MAX_GLOB_RESULTS}.`,
      'Files ignored by .gitignore and .git folders (nested ones too) are left out; symlinks are not followed.',
      `A search stops after ${timeLimitMs / 1000} s and answers with what it found by then.`
    ].join('\n'),
    inputSchema: GlobInput,
    permission: 'read',
    describeCall: (input) =>
      input.path === undefined
        ? `Glob(${input.pattern})`
        : `Glob(${input.pattern} in ${input.path})`,
    async execute(input, ctx) {
      if (input.pattern.startsWith('/')) {
        throw new ToolError('The pattern must be relative; put the folder to search in `path`.')
      }
      const base = await resolveSearchBase(ctx, input.path)
      if (!base.isDirectory) throw new ToolError(`${base.path.display} is not a folder.`)
      const found: { abs: string; mtimeMs: number }[] = []
      const { timedOut } = await runSearch(
        'Glob',
        { kind: 'glob', pattern: input.pattern, root: base.path.root, base: base.path.abs },
        ctx.signal,
        timeLimitMs,
        (result) => {
          if (result.type === 'path') found.push({ abs: result.abs, mtimeMs: result.mtimeMs })
        }
      )
      const stopped = timedOut ? `\n${stoppedNote(timeLimitMs)}` : ''
      if (found.length === 0) {
        return { isError: false, content: `No files found${stopped}`, details: { count: 0 } }
      }
      // Newest first; equal times by path, so the order is stable.
      found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0))
      const shown = found.slice(0, MAX_GLOB_RESULTS).map((f) => describePath(f.abs, ctx.cwd))
      const more =
        found.length > MAX_GLOB_RESULTS
          ? `\n(${found.length - MAX_GLOB_RESULTS} more not shown: use a more specific pattern or path.)`
          : ''
      return {
        isError: false,
        content: shown.join('\n') + more + stopped,
        details: { count: found.length, ...(timedOut ? { timedOut: true } : {}) }
      }
    }
  }
}

export const globTool = createGlobTool()
