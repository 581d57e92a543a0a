// A rescue restore: another tool's session's files put back as that tool's own backups say they
// were before one of its prompts (Claude Code's file-history, Gemini CLI's checkpoints,
// OpenCode's snapshots), through the one rewind engine (same preview, journal, safety and undo as
// our rewinds) with the tool's store as the content source. The session file and the tool's
// folders are only read; the record of the restore, its journal and the backups of what it
// overwrote go to the companion log in our data home (companion-log.ts).
//
// Which files, and to what: what the tool's own restore to that point would give each file, as
// its reader says (ForeignBackups.restoreTo: for Claude Code every file it tracked, a file first
// tracked later deleted as Claude Code deletes it; for Gemini CLI the files of the turn's first
// checkpoint; for OpenCode the files the later steps' patches name, from the snapshot before
// them), and never a file the tool did not back up:
// - each path is relative to the session's recorded cwd (or absolute inside it) and is rebased
//   onto the folder restored into; a path that leaves it, or lies in a .git folder, refuses the
//   whole restore before anything changes, naming the path;
// - a backup missing from the tool's store (Claude Code deletes them after `cleanupPeriodDays`)
//   is named and its file skipped (the preview and the result list it);
// - a file whose content now no backup of the tool holds (a hand edit, or the tool's own last
//   write, which none of them keeps) is marked in the preview (`outsideChange`): the restore
//   deletes or overwrites what only this restore's undo will hold.
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { BlobStore, sha256 } from '../files/blob-store'
import { PathOutsideWorkspaceError } from '../files/workspace-paths'
import { isBackupName } from '../session/foreign/claude-code-history'
import { GitObjectError, GitObjects, isSha } from '../session/foreign/git-objects'
import type { BackupStore, ForeignBackups } from '../session/foreign/types'
import type { LoadedSession } from '../session/load'
import { CompanionLog } from './companion-log'
import { type ContentSource, type ExternalTarget, ContentMissingError } from './content-source'
import { type RewindPlan, RewindEngine, RewindError } from './rewind-engine'
import { checkedPath } from './workspace-files'
import { TOOL_NAMES } from '../../shared/views'

/** What a rescue restore reads of a foreign session: its tree (header, prompts) and backups. */
export type RescuedSession = Pick<LoadedSession, 'format' | 'tree' | 'backups'>

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

  /**
   * Every backup of the file at `absolute` in the folder: Claude Code names a file's backups
   * `<first 16 hex of sha256(its absolute path)>@v<N>`, and a process started with --continue
   * backs a file up again at its /rewind (the hand-edited content) without naming that backup
   * in the transcript: it holds that content all the same.
   */
  versionsOf(absolute: string, refs: readonly string[]): string[] {
    const stems = new Set(refs.map(stemOf))
    stems.add(sha256(Buffer.from(absolute)).slice(0, 16))
    return this.names().filter((name) => stems.has(stemOf(name)))
  }

  private listed: string[] | null = null

  private names(): string[] {
    if (this.listed === null) {
      try {
        this.listed = readdirSync(this.dir).filter(isBackupName)
      } catch {
        this.listed = []
      }
    }
    return this.listed
  }
}

const stemOf = (ref: string) => ref.slice(0, ref.lastIndexOf('@v'))

/** A git object store's files (Gemini CLI's checkpoints, OpenCode's snapshots): a ref is a blob. */
export class GitBackups implements ContentSource {
  private readonly objects: GitObjects
  private readonly hashes = new Map<string, string>()

  constructor(readonly gitDir: string) {
    this.objects = new GitObjects(gitDir)
  }

  read(ref: string): Buffer {
    if (!isSha(ref))
      throw new ContentMissingError(`${JSON.stringify(ref)} names no file in ${this.gitDir}`)
    try {
      return this.objects.blob(ref)
    } catch (error) {
      if (error instanceof GitObjectError) throw new ContentMissingError(error.message)
      throw new ContentMissingError(
        `its snapshot in ${this.gitDir} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`
      )
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

/**
 * Where a session's refs are read: Claude Code's folder in the Claude home discovery knows
 * (never one a transcript names), or the git store the reader found beside the session.
 */
export function backupSource(store: BackupStore, claudeHome: string): ContentSource {
  switch (store.kind) {
    case 'claude-code-file-history':
      return new ClaudeCodeBackups(join(claudeHome, 'file-history', store.sessionId))
    case 'git':
      return new GitBackups(store.gitDir)
  }
}

/** A rescue restore's engine over one foreign session and the folder it restores into. */
export interface RescueSpace {
  engine: RewindEngine
  log: CompanionLog
  source: ContentSource
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
      sessionId: header?.sessionId ?? '',
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
    const source = backupSource(backups.store, options.claudeHome)
    return { engine, log, source, close: () => log.close() }
  } catch (error) {
    log.close()
    throw error
  }
}

/**
 * The restore of the session's files to how the tool's backups say they were before
 * `promptUuid` (see the module header). Refused, with nothing changed, when the tool kept no
 * restore point there or a path may not be restored.
 */
export async function planRescue(
  space: RescueSpace,
  loaded: RescuedSession,
  promptUuid: string
): Promise<RewindPlan> {
  const backups = requireBackups(loaded)
  const point = backups.restoreTo(promptUuid)
  if ('refused' in point)
    throw new RewindError(`${point.refused} Nothing was changed.`, 'not_found')
  const cwd = loaded.tree.header?.cwd ?? ''
  const root = space.engine.root
  const targets: ExternalTarget[] = []
  const tool = TOOL_NAMES[loaded.format]
  for (const [path, target] of point.files) {
    targets.push({
      path: rebased(path, cwd, root, tool),
      target,
      expected: heldLazily(() =>
        heldContent(space.source, versionsHeld(space.source, path, cwd, backups))
      )
    })
  }
  targets.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return space.engine.planExternalRestore(promptUuid, targets, space.source)
}

/**
 * What the disk may hold of a file without an outside change: a content the tool's store holds
 * (worked out when first asked: only a file the restore changes is), or no file at all.
 */
function heldLazily(held: () => ReadonlySet<string>): { has(hash: string | null): boolean } {
  let known: ReadonlySet<string> | null = null
  return { has: (hash) => hash === null || (known ??= held()).has(hash) }
}

/** The refs of a file's versions the reader found, with those its store holds beside them. */
function versionsHeld(
  source: ContentSource,
  path: string,
  cwd: string,
  backups: ForeignBackups
): readonly string[] {
  const refs = backups.versions(path)
  if (!(source instanceof ClaudeCodeBackups)) return refs
  const absolute = isAbsolute(path) ? path : join(cwd, path)
  return [...new Set([...refs, ...source.versionsOf(absolute, refs)])]
}

/** The sha256 of every version of a file the backups hold (those that can be read). */
function heldContent(source: ContentSource, refs: readonly string[]): Set<string> {
  const held = new Set<string>()
  for (const ref of refs) {
    try {
      held.add(source.hashOf(ref))
    } catch (error) {
      if (!(error instanceof ContentMissingError)) throw error
    }
  }
  return held
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
      `${TOOL_NAMES[loaded.format]} keeps no backups of the files it changes: there is nothing to restore from. Nothing was changed.`,
      'not_found'
    )
  }
  const { store } = backups
  if (store.kind === 'claude-code-file-history' && !SESSION_ID.test(store.sessionId)) {
    return new RewindError(
      `The session id ${JSON.stringify(store.sessionId)} cannot name a backup folder. Nothing was changed.`
    )
  }
  return null
}

/**
 * A tracked path as a path in `root`: the tool writes it relative to the session's cwd, or
 * absolute inside it. Refused (naming it) when it leaves the workspace or may not be touched.
 */
function rebased(path: string, cwd: string, root: string, tool: string): string {
  const rel = isAbsolute(path) ? relative(cwd, path).split(sep).join('/') : path
  const refuse = (reason: string) =>
    new RewindError(
      `${tool}'s snapshot names ${JSON.stringify(path)}, which a restore may not touch: ${reason}. Nothing was changed.`
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
