// Where a path from the model may point: inside the workspace, or under a root the user
// allowed. Relative paths are relative to the workspace. Refusals (escapes, symlinks leading
// out, any .git folder) come from resolveInWorkspace, applied to whichever root the path falls under.
import { relative, resolve } from 'node:path'
import {
  isInside,
  PathOutsideWorkspaceError,
  resolveInWorkspace
} from '../../files/workspace-paths'
import type { ToolContext } from './tool'

export interface ToolPath {
  abs: string
  /** What the model and the user see: relative inside the workspace, absolute elsewhere. */
  display: string
  /** The workspace or the allowed root the path lies under (gitignore rules start there). */
  root: string
}

export function resolveToolPath(
  ctx: Pick<ToolContext, 'cwd' | 'allowedOutsideRoots'>,
  requested: string
): ToolPath {
  const abs = resolve(ctx.cwd, requested)
  if (isInside(ctx.cwd, abs)) {
    const inside = resolveInWorkspace(ctx.cwd, requested)
    return { abs: inside.abs, display: inside.rel === '' ? '.' : inside.rel, root: ctx.cwd }
  }
  const root = ctx.allowedOutsideRoots.map((r) => resolve(r)).find((r) => isInside(r, abs))
  if (root === undefined) {
    throw new PathOutsideWorkspaceError(
      requested,
      `it is outside the workspace ${ctx.cwd} and the user has not allowed that folder`
    )
  }
  return { abs: resolveInWorkspace(root, abs).abs, display: abs, root }
}

/** How a path is shown in a call summary: relative when inside `cwd`, as given otherwise. */
export function describePath(filePath: string, cwd?: string): string {
  if (cwd === undefined) return filePath
  const abs = resolve(cwd, filePath)
  return isInside(cwd, abs) ? relative(cwd, abs) || '.' : filePath
}
