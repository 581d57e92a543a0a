// The place Glob and Grep search: `path` (default the workspace root), which must exist.
import { stat } from 'node:fs/promises'
import { resolveToolPath } from './paths'
import type { ToolPath } from './paths'
import { ToolError } from './tool'
import type { ToolContext } from './tool'

export interface SearchBase {
  path: ToolPath
  isDirectory: boolean
}

export async function resolveSearchBase(
  ctx: ToolContext,
  path: string | undefined
): Promise<SearchBase> {
  const target = resolveToolPath(ctx, path ?? '.')
  const info = await stat(target.abs).catch(() => null)
  if (info === null) throw new ToolError(`Path does not exist: ${target.display}`)
  return { path: target, isDirectory: info.isDirectory() }
}
