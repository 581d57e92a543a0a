// The one path by which Write and Edit change a file: the read-before-edit check, the backup
// hook (file history) before anything is written, an atomic write (temp file + rename, so a
// crash never leaves half a file), then the table and the after-hook.
import { randomUUID } from 'node:crypto'
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { writeAllSync } from '../../os/write-all'
import { failureReason, WriteFailedError } from '../../os/write-failure'
import type { ModelWriteTool } from '../file-state'
import { ToolError } from './tool'
import type { ToolContext } from './tool'
import type { ToolPath } from './paths'

export const NOT_READ_MESSAGE = 'File has not been read yet. Read it first before writing to it.'
export const MODIFIED_SINCE_READ_MESSAGE =
  'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.'

/**
 * Refuses a change to an existing file unless the agent saw it on this branch exactly as it is
 * on disk now (`current`). A file that does not exist yet (`current` null) needs no read.
 */
export function assertSeenAsIs(ctx: ToolContext, target: ToolPath, current: string | null): void {
  if (current === null) return
  if (!ctx.fileState.canEdit(target.abs))
    throw new ToolError(`${NOT_READ_MESSAGE} (${target.display})`)
  if (!ctx.fileState.isUnchanged(target.abs, current)) {
    throw new ToolError(`${MODIFIED_SINCE_READ_MESSAGE} (${target.display})`)
  }
}

/**
 * Synchronous, like file history's backup just before it: one file's few syscalls, each of which
 * would otherwise be a round trip through libuv's thread pool (bench/agent-turn.ts).
 */
function writeFileAtomic(abs: string, content: string): void {
  // Through a symlink (one inside the workspace: paths.ts refused the others) the link's
  // target is replaced, and the link stays a link.
  const target = realOrSelf(abs)
  const previous = statSync(target, { throwIfNoEntry: false })
  const temp = join(dirname(target), `.${basename(target)}.${randomUUID().slice(0, 8)}.tmp`)
  const fd = openSync(temp, 'wx')
  try {
    try {
      writeAllSync(fd, Buffer.from(content, 'utf8'))
      fsyncSync(fd)
      if (previous !== undefined) fchmodSync(fd, previous.mode & 0o7777)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, target)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

function realOrSelf(abs: string): string {
  try {
    return realpathSync(abs)
  } catch {
    return abs
  }
}

/**
 * Backs up through the guard, then writes. Returns a warning when the file was written but
 * file history could not record it afterwards (the write stands; rewinding it may not work).
 */
export async function guardedWrite(
  ctx: ToolContext,
  target: ToolPath,
  tool: ModelWriteTool,
  content: string
): Promise<string | null> {
  try {
    await ctx.guard.beforeWrite(target.abs, tool, content)
  } catch (error) {
    throw new ToolError(
      `could not back up ${target.display}: ${failureReason(error)}; nothing was written`
    )
  }
  // The first folder made for the file, if any: a rewind past the write removes the new ones.
  let createdFolder: string | undefined
  try {
    createdFolder = mkdirSync(dirname(target.abs), { recursive: true })
    writeFileAtomic(target.abs, content)
  } catch (error) {
    throw new WriteFailedError(target.display, error, 'the file was left as it was')
  }
  ctx.fileState.markWritten(target.abs, content)
  try {
    await ctx.guard.afterWrite(target.abs, tool, createdFolder)
    return null
  } catch (error) {
    return `Warning: file history could not record this change (${failureReason(error)}); rewinding it may not restore it.`
  }
}
