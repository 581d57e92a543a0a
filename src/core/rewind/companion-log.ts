// The log Rewind Studio keeps beside a foreign session it restored files for: a foreign session
// file (Claude Code's) is never written, so the record of each rescue restore and of its undo,
// the restore journals and the backups of what a restore overwrote live in our data home:
//
//   $REWIND_STUDIO_HOME/foreign/<format>-<16 hex of sha256(real path of the session file)>/
//     companion.jsonl   header naming the origin, then one rewind / navigate record per restore
//                       and undo: the timeline of rescue restores (private, append-only)
//     blobs/ restores/  our blob store and restore journals, as for our own sessions
//
// It is the rewind engine's log for a rescue restore (RewindLog): the engine journals, writes,
// then records here, and finds here the restore an undo reverses. The records are ours (a session
// header, rewind and navigate records), so `inspect` reads the file; they name points of the
// foreign session, which is not in this file, so the leaf here is always null.
import { createHash } from 'node:crypto'
import { closeSync, constants, fdatasyncSync } from 'node:fs'
import { join } from 'node:path'
import { uuidv7 } from '../session/uuid-v7'
import { type HistoryPaths, historyPathsAt } from '../files/history-paths'
import { ensurePrivateDir, openPrivateFileSync } from '../os/private-files'
import { readRegularText } from '../os/read-regular-file'
import { writeAllSync } from '../os/write-all'
import { WriteFailedError } from '../os/write-failure'
import {
  NavigateRecord,
  RewindRecord,
  SESSION_FORMAT_VERSION,
  SessionHeader
} from '../session/records'
import { acquireWriterLock } from '../session/lock'
import { realPathOf } from '../session/paths'
import { SessionTree } from '../session/tree'
import type { RewindMode } from '../../shared/messages'
import type { RewindLog } from './rewind-engine'

export interface ForeignOrigin {
  /** The foreign session file. */
  file: string
  format: string
  sessionId: string
  /** The workspace the foreign session recorded. */
  cwd: string
}

/** The folder of a foreign session's companion files in the data home. */
export function companionDir(home: string, origin: Pick<ForeignOrigin, 'file' | 'format'>): string {
  const hash = createHash('sha256').update(realPathOf(origin.file)).digest('hex').slice(0, 16)
  return join(home, 'foreign', `${origin.format}-${hash}`)
}

export class CompanionLog implements RewindLog {
  readonly file: string
  readonly history: HistoryPaths
  readonly readOnlyReason: string | null
  private readonly treeModel: SessionTree
  private readonly release: (() => void) | null
  /** The file ends in a torn line (a crash mid-append): the next record starts a fresh line. */
  private needsNewline: boolean

  private constructor(
    readonly origin: ForeignOrigin,
    dir: string,
    tree: SessionTree,
    needsNewline: boolean,
    lock: { release: () => void } | { reason: string }
  ) {
    this.needsNewline = needsNewline
    this.file = join(dir, 'companion.jsonl')
    this.history = historyPathsAt(dir)
    this.treeModel = tree
    this.release = 'release' in lock ? lock.release : null
    this.readOnlyReason = 'reason' in lock ? lock.reason : null
  }

  /**
   * Opens (creating it the first time) the companion log of a foreign session, holding its
   * writer lock; another process holding it leaves this one read-only.
   */
  static open(
    home: string,
    origin: ForeignOrigin,
    options: { readOnly?: boolean } = {}
  ): CompanionLog {
    const dir = companionDir(home, origin)
    const file = join(dir, 'companion.jsonl')
    if (options.readOnly === true) {
      // To read the timeline only: nothing is created, no lock is taken.
      const { records } = readRecords(file)
      return new CompanionLog(origin, dir, SessionTree.fromRecords(records), false, {
        reason: 'opened read-only'
      })
    }
    try {
      for (const folder of [home, join(home, 'foreign'), dir]) ensurePrivateDir(folder)
    } catch (error) {
      throw new WriteFailedError(dir, error, 'nothing was restored')
    }
    const lock = acquireWriterLock(file)
    const { records, needsNewline } = readRecords(file)
    const fresh = lock.held && records.length === 0
    if (fresh) {
      const id = uuidv7()
      const header = SessionHeader.parse({
        type: 'session',
        uuid: id,
        parentUuid: null,
        timestamp: new Date().toISOString(),
        version: SESSION_FORMAT_VERSION,
        sessionId: id,
        cwd: origin.cwd,
        companionOf: { file: origin.file, format: origin.format, sessionId: origin.sessionId }
      })
      try {
        appendLine(file, header, needsNewline)
      } catch (error) {
        lock.release()
        throw error
      }
      records.push(header)
    }
    return new CompanionLog(
      origin,
      dir,
      SessionTree.fromRecords(records),
      needsNewline && !fresh,
      lock.held ? lock : { reason: lock.reason }
    )
  }

  /** The foreign session's id: restore journals are filed under it. */
  get sessionId(): string {
    return this.origin.sessionId
  }

  get cwd(): string {
    return this.origin.cwd
  }

  get leafUuid(): string | null {
    return null
  }

  tree(): SessionTree {
    return this.treeModel
  }

  appendRewind(r: {
    leafUuid: string | null
    checkpointUuid: string
    mode: RewindMode
    restoreId?: string
  }): RewindRecord {
    return this.append(RewindRecord.parse({ type: 'rewind', ...this.base(), ...r }))
  }

  appendNavigate(r: {
    leafUuid: string | null
    reason: NavigateRecord['reason']
    restoreId?: string
    redoes?: string
  }): NavigateRecord {
    return this.append(NavigateRecord.parse({ type: 'navigate', ...this.base(), ...r }))
  }

  close(): void {
    this.release?.()
  }

  private base() {
    return { uuid: uuidv7(), parentUuid: null, timestamp: new Date().toISOString() }
  }

  private append<T>(record: T): T {
    if (this.readOnlyReason !== null) {
      throw new WriteFailedError(this.file, new Error(this.readOnlyReason), 'nothing was appended')
    }
    appendLine(this.file, record, this.needsNewline)
    this.needsNewline = false
    this.treeModel.addRecord(record)
    return record
  }
}

function readRecords(file: string): { records: unknown[]; needsNewline: boolean } {
  // A FIFO there is refused (NotRegularFileError), never waited on.
  const text = readRegularText(file)
  if (text === null) return { records: [], needsNewline: false }
  const records = text
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as unknown]
      } catch {
        // A torn last line (a crash mid-append) names no restore: the journal still does.
        return []
      }
    })
  return { records, needsNewline: text !== '' && !text.endsWith('\n') }
}

/** One durable append of a whole line (as the session store appends). */
function appendLine(file: string, record: unknown, freshLine: boolean): void {
  const fd = openPrivateFileSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND)
  try {
    writeAllSync(fd, Buffer.from(`${freshLine ? '\n' : ''}${JSON.stringify(record)}\n`))
    fdatasyncSync(fd)
  } catch (error) {
    throw new WriteFailedError(file, error, 'nothing was appended')
  } finally {
    closeSync(fd)
  }
}
