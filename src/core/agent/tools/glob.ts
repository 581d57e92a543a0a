// Glob: files whose path matches a glob pattern, newest first (by modification time), so the
// files the user is working on come first. Same walk as Grep: .gitignore honoured, .git skipped.
import { stat } from 'node:fs/promises'
import picomatch from 'picomatch'
import { z } from 'zod'
import { describePath } from './paths'
import { resolveSearchBase } from './search-base'
import { ToolError } from './tool'
import type { Tool } from './tool'
import { walkFiles } from './walk'

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

export const globTool: Tool<GlobInput> = {
  name: 'Glob',
  description: [
    'Finds files by glob pattern ("**/*.js", "src/**/*.ts", "*.md" for the top folder only).',
    `Returns matching paths, most recently modified first, at most ${MAX_GLOB_RESULTS}.`,
    'Files ignored by .gitignore and .git folders (nested ones too) are left out; symlinks are not followed.'
  ].join('\n'),
  inputSchema: GlobInput,
  permission: 'read',
  describeCall: (input) =>
    input.path === undefined ? `Glob(${input.pattern})` : `Glob(${input.pattern} in ${input.path})`,
  async execute(input, ctx) {
    if (input.pattern.startsWith('/')) {
      throw new ToolError('The pattern must be relative; put the folder to search in `path`.')
    }
    const base = await resolveSearchBase(ctx, input.path)
    if (!base.isDirectory) throw new ToolError(`${base.path.display} is not a folder.`)
    const matches = picomatch(input.pattern, { dot: true })
    const matching = (await walkFiles(base.path.root, base.path.abs, ctx.signal)).filter((file) =>
      matches(file.rel)
    )
    const stamped = await Promise.all(
      matching.map(async (file) => {
        const info = await stat(file.abs).catch(() => null)
        return info === null ? null : { abs: file.abs, mtimeMs: info.mtimeMs }
      })
    )
    const found = stamped.filter((f) => f !== null)
    if (ctx.signal.aborted) throw new ToolError('Glob was cancelled.')
    if (found.length === 0)
      return { isError: false, content: 'No files found', details: { count: 0 } }
    // Newest first; equal times by path, so the order is stable.
    found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0))
    const shown = found.slice(0, MAX_GLOB_RESULTS).map((f) => describePath(f.abs, ctx.cwd))
    const more =
      found.length > MAX_GLOB_RESULTS
        ? `\n(${found.length - MAX_GLOB_RESULTS} more not shown: use a more specific pattern or path.)`
        : ''
    return {
      isError: false,
      content: shown.join('\n') + more,
      details: { count: found.length }
    }
  }
}
