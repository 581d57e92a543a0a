// A rescue restore: a Claude Code session's files put back as Claude Code's own backups say they
// were before one of its prompts, through the one rewind engine (same preview, journal, safety
// and undo as our rewinds) with Claude Code's backup folder as the content source. The session
// file and Claude Code's folder are only read; the record of the restore, its journal and the
// backups of what it overwrote go to the companion log in our data home (companion-log.ts).
//
// Which files, and to what (claude-code-history.ts says what the snapshots hold):
// - every file the session tracked (named in any of its snapshots), and no other: files the
//   session never touched are left alone;
// - a file the snapshot before the prompt lists gets that backup; a file first tracked later
//   gets its first backup (its content before the session first changed it); a null backup
//   means the file did not exist then: it is deleted;
// - each path is relative to the session's recorded cwd (or absolute inside it) and is rebased
//   onto the folder restored into; a path that leaves it, or lies in a .git folder, refuses the
//   whole restore before anything changes, naming the path;
// - a backup missing from Claude Code's folder (cleaned up after `cleanupPeriodDays`) is named
//   and its file skipped (the preview and the result list it);
// - Claude Code keeps only the content before each change, so a restore goes to a point before
//   a prompt; the files after the last prompt's turn were never saved and cannot be rebuilt.
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'
import { sha256 } from '../files/blob-store'
import { BlobStore } from '../files/blob-store'
import { PathOutsideWorkspaceError } from '../files/workspace-paths'
import { isBackupName } from '../session/foreign/claude-code-history'
import type { ForeignBackups } from '../session/foreign/types'
import type { LoadedSession } from '../session/load'

/** What a rescue restore reads of a foreign session: its tree (header, prompts) and backups. */
export type RescuedSession = Pick<LoadedSession, 'format' | 'tree' | 'backups'>
import { encodeCwd } from '../session/paths'
import { CompanionLog } from './companion-log'
import { type ContentSource, ContentMissingError } from './content-source'
import { type ExternalTarget, type RewindPlan, RewindEngine, RewindError } from './rewind-engine'
import { checkedPath } from './workspace-files'

/**
 * Whether `file` lies in the folder where Claude Code keeps the sessions of `cwd`
 * (`<claude home>/projects/<cwd with every non-alphanumeric character as ->/`), compared through
 * realpath. Only there does a transcript's recorded cwd say where to restore: a file from
 * anywhere else says whatever its author wrote.
 */
export function isClaudeSessionFileOf(home: string, file: string, cwd: string): boolean {
  if (cwd === '') return false
  try {
    return (
      dirname(realpathSync.native(file)) ===
      realpathSync.native(join(home, 'projects', encodeCwd(cwd)))
    )
  } catch {
    return false
  }
}

/** A session id as a folder name: nothing that could climb out of file-history/. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/

/** One Claude Code session's backups (`<claude home>/file-history/<sessionId>/`), read-only. */
export class ClaudeCodeBackups implements ContentSource {
  private readonly hashes = new Map<string, string>()

  constructor(readonly dir: string) {}

  read(ref: string): Buffer {
    if (!isBackupName(ref)) {
      throw new ContentMissingError(
        `Claude Code's snapshot names ${JSON.stringify(ref)}, which is no backup file name: it is not read`
      )
    }
    let fd: number
    try {
      // No link followed, no FIFO waited on: a backup is a plain file Claude Code wrote.
      fd = openSync(
        join(this.dir, ref),
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
      )
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      throw new ContentMissingError(
        code === 'ENOENT'
          ? `its backup ${ref} is not in ${this.dir} (Claude Code deletes backups after cleanupPeriodDays)`
          : `its backup ${ref} in ${this.dir} cannot be read (${code ?? (error as Error).message})`
      )
    }
    try {
      if (!fstatSync(fd).isFile())
        throw new ContentMissingError(`its backup ${ref} in ${this.dir} is not a file`)
      return readFileSync(fd)
    } finally {
      closeSync(fd)
    }
  }

  hashOf(ref: string): string {
    let hash = this.hashes.get(ref)
    if (hash === undefined) {
      hash = sha256(this.read(ref))
      this.hashes.set(ref, hash)
    }
    return hash
  }
}

/** A rescue restore's engine over one foreign session and the folder it restores into. */
export interface RescueSpace {
  engine: RewindEngine
  log: CompanionLog
  source: ClaudeCodeBackups
  close(): void
}

export function openRescue(options: {
  /** Our data home. */
  home: string
  file: string
  loaded: RescuedSession
  /** The folder to restore into (resolved through symlinks). */
  root: string
  claudeHome: string
  /** Only to read the timeline of rescue restores: no lock taken, nothing created. */
  readOnly?: boolean
}): RescueSpace {
  const { loaded } = options
  const backups = requireBackups(loaded)
  const header = loaded.tree.header
  const log = CompanionLog.open(
    options.home,
    {
      file: options.file,
      format: loaded.format,
      sessionId: backups.sessionId,
      cwd: header?.cwd ?? ''
    },
    { readOnly: options.readOnly === true }
  )
  try {
    const engine = new RewindEngine({
      home: options.home,
      store: log,
      space: { root: options.root, paths: log.history, blobs: new BlobStore(log.history.blobs) }
    })
    const source = new ClaudeCodeBackups(
      join(options.claudeHome, 'file-history', backups.sessionId)
    )
    return { engine, log, source, close: () => log.close() }
  } catch (error) {
    log.close()
    throw error
  }
}

/**
 * The restore of every file the session tracked to how the snapshot before `promptUuid` says it
 * was (see the module header). Refused, with nothing changed, when the prompt has no snapshot or
 * a path may not be restored.
 */
export async function planRescue(
  space: RescueSpace,
  loaded: RescuedSession,
  promptUuid: string
): Promise<RewindPlan> {
  const backups = requireBackups(loaded)
  const before = backups.before(promptUuid)
  if (before === undefined) {
    throw new RewindError(
      `Claude Code recorded no file snapshot before this prompt (${promptUuid}): there is nothing to restore to. Nothing was changed.`,
      'not_found'
    )
  }
  const cwd = loaded.tree.header?.cwd ?? ''
  const root = space.engine.root
  const targets: ExternalTarget[] = []
  for (const [path, first] of backups.firstBackups()) {
    const target = before.has(path) ? (before.get(path) ?? null) : first
    targets.push({ path: rebased(path, cwd, root), target })
  }
  targets.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return space.engine.planExternalRestore(promptUuid, targets, space.source)
}

function requireBackups(loaded: RescuedSession): ForeignBackups {
  const refusal = rescueRefusal(loaded)
  if (refusal !== null) throw refusal
  // rescueRefusal refuses a session without backups.
  return loaded.backups as ForeignBackups
}

/**
 * Why no rescue restore can run on `loaded` (its tool keeps no backups, or its session id names
 * no backup folder), or null. Such a session never had one: its timeline of restores is empty.
 */
export function rescueRefusal(loaded: RescuedSession): RewindError | null {
  const backups = loaded.backups
  if (backups === null) {
    return new RewindError(
      `${loaded.format} keeps no backups of the files it changes: there is nothing to restore from. Nothing was changed.`,
      'not_found'
    )
  }
  if (!SESSION_ID.test(backups.sessionId)) {
    return new RewindError(
      `The session id ${JSON.stringify(backups.sessionId)} cannot name a backup folder. Nothing was changed.`
    )
  }
  return null
}

/**
 * A tracked path as a path in `root`: Claude Code writes it relative to the session's cwd, or
 * absolute inside it. Refused (naming it) when it leaves the workspace or may not be touched.
 */
function rebased(path: string, cwd: string, root: string): string {
  const rel = isAbsolute(path) ? relative(cwd, path).split(sep).join('/') : path
  const refuse = (reason: string) =>
    new RewindError(
      `Claude Code's snapshot names ${JSON.stringify(path)}, which a restore may not touch: ${reason}. Nothing was changed.`
    )
  if (isAbsolute(path) && (cwd === '' || rel === '' || rel.startsWith('..') || isAbsolute(rel))) {
    throw refuse(`it is outside the session's workspace ${cwd}`)
  }
  try {
    checkedPath(root, rel)
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError) throw refuse(error.message)
    throw error
  }
  return rel
}
