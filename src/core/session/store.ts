// The session log of one conversation: an append-only JSONL file, one record per line, whose
// records form the tree that tree.ts models. Nothing here rewrites or removes a line, ever: a
// rewind, a branch switch, a summary are all new records, and the abandoned branch stays.
//
// Durability: every append is one write() of its whole lines on an O_APPEND descriptor, then
// fdatasync. A crash can therefore cut only the last line (loading reports it as a torn tail and
// keeps everything before it), and a record the caller saw returned is on disk. The cost is one
// fdatasync per append; its time does not depend on the file's size (bench/session-append.ts).
// A caller that knows which records must be durable together (the agent, for a turn: see
// docs/session-format.md, "Crash safety") appends the others with `durable: false`: written at
// once, in order, and made durable by the next durable append or sync(), which cover every line
// before them.
//
// One writer: open() takes `<file>.lock` (lock.ts). A second process, or a second store in this
// one, gets the session read-only with `readOnlyReason` saying who holds it; its appends throw.
//
// A session created empty (a new conversation) has no file until its first record: the file is
// made then, header first, so a session left before its first prompt leaves nothing to list.
// A session created with records of its own (create's `fill`: a fork, a continued session) is
// staged: written beside its name, hidden, synced once, then renamed into place whole
// (staged-session.ts), so a crash part way leaves no session to list or continue.
import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  renameSync,
  rmSync
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { PRIVATE_FILE_MODE, ensurePrivateDir } from '../os/private-files'
import { openRegularFile } from '../os/read-regular-file'
import { syncDirectory } from '../os/sync-folder'
import { writeAllSync } from '../os/write-all'
import { WriteFailedError } from '../os/write-failure'
import { uuidv7 } from './uuid-v7'
import { CodedError, NotFoundError } from '../../shared/coded-error'
import type { MessageContent, RewindMode } from '../../shared/messages'
import { MAX_RECORD_DEPTH, deeperThanLimit, nestsTooDeep } from './json-depth'
import { type ReadPosition, TooManyRecordsError, readJsonlFile } from './jsonl'
import { loadParsed } from './load'
import {
  findSessionFile,
  latestSessionFile,
  listWorkspaceSessions,
  type SessionListing
} from './listing'
import { type MergeFileChange, mergeRecords } from './merge-records'
import { type CopiedRecords, copiedRecords } from './copied-records'
import { acquireWriterLock } from './lock'
import { sessionFileName, sessionsDir } from './paths'
import { joinedRunRecords } from './joined-run'
import { SessionWriteError } from './session-write-error'
import { removeDeadStagings, stagingPath } from './staged-session'
import type { LoadProblem } from './problems'
import {
  AssistantRecord,
  BranchSummaryRecord,
  CommitLinkRecord,
  CompactionRecord,
  CustomMessageRecord,
  type FileChangeRecord,
  LabelRecord,
  type MergeRecord,
  type MergeIntent,
  NavigateRecord,
  RewindRecord,
  SESSION_FORMAT_VERSION,
  SessionHeader,
  type UntrackedChangesRecord,
  UserRecord
} from './records'
import { SessionTree } from './tree'
import { limitPersistedText } from './truncate'

export interface NewMessage {
  role: 'user' | 'assistant'
  content: MessageContent
  model?: string
  stop_reason?: string | null
  usage?: object
}

export interface MessageExtra {
  /** false: written now, durable with the next durable append or sync() (default true). */
  durable?: boolean
  isMeta?: boolean
  toolDetails?: Record<string, unknown>
  /** A uuid chosen earlier (the agent streams a message under the id it will be saved with). */
  uuid?: string
  /** When it was said, for a message carried over from another tool's log (continue-foreign). */
  timestamp?: string
}

/** A file change as its writer gives it; the store adds uuid, parent and time. */
export type NewFileChange = Pick<
  FileChangeRecord,
  | 'checkpointUuid'
  | 'path'
  | 'before'
  | 'after'
  | 'beforeMode'
  | 'afterMode'
  | 'createdFolders'
  | 'source'
>

/** What a command changed without a backup, as file history gives it (see the record). */
export type NewUntrackedChanges = Pick<
  UntrackedChangesRecord,
  'checkpointUuid' | 'changes' | 'more' | 'source'
>

interface Writer {
  /** Null: the file is not made yet (a new session before its first record, materialize). */
  fd: number | null
  /** Bytes of the file known durable: up to the last fdatasync. */
  synced: number
  release: () => void
  /** Bytes the file holds as far as this writer knows; anything else means another writer. */
  size: number
  /** The file does not end with '\n' (a torn tail): the next record starts a fresh line. */
  needsNewline: boolean
  /**
   * Where the file is written while it is staged (create's `fill`), under another name until it
   * is whole: its appends are synced once, at the rename. Null once it has its name.
   */
  staging: string | null
}

/** A file of ours made new: never opened over another one (O_EXCL), appended to only. */
const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND

function newWriter(fd: number | null, release: () => void, staging: string | null): Writer {
  return { fd, synced: 0, release, size: 0, needsNewline: false, staging }
}

export class SessionStore {
  private writer: Writer | null
  private closed = false
  /** A read-only view: where its reading stopped (what follow() goes on from). */
  private readTo: ReadPosition | null = null

  private constructor(
    readonly file: string,
    readonly header: SessionHeader,
    private readonly treeModel: SessionTree,
    readonly problems: LoadProblem[],
    /** Problems found past those listed (ProblemLog). */
    readonly unlistedProblems: number,
    readonly tornTail: boolean,
    writer: Writer | null,
    readonly readOnlyReason: string | null
  ) {
    this.writer = writer
  }

  /** What the app says when it opens this store, besides its problems (set by who opened it). */
  readonly openingNotices: string[] = []

  static create(opts: {
    home: string
    cwd: string
    forkedFrom?: { sessionId: string; leafUuid: string | null; file?: string }
    continuedFrom?: SessionHeader['continuedFrom']
    /**
     * The sessions folder to create the file in (default: the workspace's, sessionsDir). A fork
     * goes beside its origin, which may be a folder of the older layout, so that both name
     * their backups in one file-history folder (files/history-paths.ts).
     */
    dir?: string
    /**
     * The records the session starts with, appended by this function to the new store: the file
     * appears, under its name, only once they all are written and durable (staged-session.ts).
     * Should it throw, no file is left. Without it the file is made with the first record
     * appended (the header first): a session given none leaves no file.
     */
    fill?: (store: SessionStore) => void
  }): SessionStore {
    const sessionId = uuidv7()
    const createdAt = new Date().toISOString()
    const dir = opts.dir ?? sessionsDir(opts.home, opts.cwd)
    try {
      // The data home is private (os/private-files.ts); folders an older version left open are
      // tightened.
      for (const folder of [opts.home, dirname(dir), dir]) ensurePrivateDir(folder)
    } catch (error) {
      throw new WriteFailedError(dir, error, 'no session was created')
    }
    const file = join(dir, sessionFileName(createdAt, sessionId))
    const header = SessionHeader.parse({
      type: 'session',
      uuid: sessionId,
      parentUuid: null,
      timestamp: createdAt,
      version: SESSION_FORMAT_VERSION,
      sessionId,
      cwd: opts.cwd,
      ...(opts.forkedFrom !== undefined ? { forkedFrom: opts.forkedFrom } : {}),
      ...(opts.continuedFrom !== undefined ? { continuedFrom: opts.continuedFrom } : {})
    })
    const lock = acquireWriterLock(file)
    if (!lock.held) throw new SessionWriteError(lock.reason)
    const fill = opts.fill
    if (fill === undefined) {
      const pending = newWriter(null, lock.release, null)
      const tree = SessionTree.fromRecords([header])
      return new SessionStore(file, header, tree, [], 0, false, pending, null)
    }
    removeDeadStagings(dir)
    const staging = stagingPath(file)
    let fd: number
    try {
      fd = openSync(staging, NEW_FILE, PRIVATE_FILE_MODE)
    } catch (error) {
      lock.release()
      throw new WriteFailedError(dir, error, 'no session was created')
    }
    const writer = newWriter(fd, lock.release, staging)
    const store = new SessionStore(
      file,
      header,
      SessionTree.fromRecords([]),
      [],
      0,
      false,
      writer,
      null
    )
    try {
      store.write(header)
      fill(store)
      store.publish(fd, writer, staging)
    } catch (error) {
      store.close()
      rmSync(staging, { force: true })
      throw error
    }
    return store
  }

  /** Whether the log has its file (a new session gets it with its first record). */
  get fileMade(): boolean {
    return this.writer?.fd !== null
  }

  /**
   * A new session's file, made at its first record: O_EXCL (never over another file), the header
   * made durable, the folder's entry too. On a failure (a full disk) no file is left behind.
   */
  private materialize(writer: Writer): number {
    let fd: number
    try {
      fd = openSync(this.file, NEW_FILE, PRIVATE_FILE_MODE)
    } catch (error) {
      throw new WriteFailedError(this.file, error, 'nothing was appended')
    }
    const bytes = Buffer.from(`${this.serialized(this.header)}\n`)
    try {
      writeAllSync(fd, bytes)
      fdatasyncSync(fd)
      syncDirectory(dirname(this.file))
    } catch (error) {
      closeSync(fd)
      rmSync(this.file, { force: true })
      throw new WriteFailedError(this.file, error, 'nothing was appended')
    }
    writer.fd = fd
    writer.size = bytes.length
    writer.synced = bytes.length
    return fd
  }

  /** A staged file, whole: made durable, then renamed to its name (the rename made durable). */
  private publish(fd: number, writer: Writer, staging: string): void {
    try {
      fdatasyncSync(fd)
      renameSync(staging, this.file)
      syncDirectory(dirname(this.file))
    } catch (error) {
      throw new WriteFailedError(this.file, error, 'no session was created')
    }
    writer.staging = null
    writer.synced = writer.size
  }

  /** `reason`: why a read-only open is read-only, as the app says it (default "opened read-only"). */
  static open(file: string, opts: { readOnly?: boolean; reason?: string } = {}): SessionStore {
    // The lock first, then one read: while we hold it nobody else appends, so what we read is
    // exactly what our appends follow.
    const lock = opts.readOnly === true ? null : acquireWriterLock(file)
    const release = () => {
      if (lock?.held === true) lock.release()
    }
    // Read in chunks (jsonl.ts): a log of any size opens, none is held as one string.
    let parsed: ReturnType<typeof readJsonlFile>
    try {
      parsed = readJsonlFile(file)
    } catch (error) {
      release()
      throw error instanceof TooManyRecordsError ? new TooManyRecordsError(error.max, file) : error
    }
    const loaded = loadParsed(parsed, parsed.bytes)
    const header = loaded.tree.header
    if (loaded.format !== 'rewind-studio' || header === null) {
      release()
      const why =
        loaded.format !== 'rewind-studio'
          ? `it is a ${loaded.format} session, not a Rewind Studio one (rewind-studio inspect reads it)`
          : `line 1 is no session header: ${loaded.problems.find((p) => p.line === 1)?.message ?? 'the file is empty'}`
      throw new NotOurSessionError(file, why)
    }
    const readOnly = (reason: string) => {
      const view = new SessionStore(
        file,
        header,
        loaded.tree,
        loaded.problems,
        loaded.unlistedProblems,
        loaded.tornTail,
        null,
        reason
      )
      // A last line without its '\n' that did not parse is being written (or was cut off): a
      // follower reads it once complete. One that parsed is in the tree already: the follower
      // goes on after it (its '\n', when it comes, ends that same line).
      const pending = !loaded.endsWithNewline && loaded.tornTail
      view.readTo = {
        offset: pending ? parsed.complete : parsed.bytes,
        nextLine: parsed.nextLine,
        ino: parsed.ino
      }
      return view
    }
    if (lock === null) return readOnly(opts.reason ?? 'opened read-only')
    if (!lock.held) return readOnly(lock.reason)
    if (header.version > SESSION_FORMAT_VERSION) {
      release()
      return readOnly(
        `written by a newer Rewind Studio (format ${header.version}, this one writes ${SESSION_FORMAT_VERSION}); opened read-only`
      )
    }
    let fd: number
    try {
      // A regular file still, never a FIFO swapped in since the read (which would block).
      fd = openRegularFile(file, { append: true }).fd
    } catch (error) {
      release()
      throw error
    }
    const writer: Writer = {
      fd,
      synced: parsed.bytes,
      release: lock.release,
      size: parsed.bytes,
      needsNewline: !loaded.endsWithNewline,
      staging: null
    }
    return new SessionStore(
      file,
      header,
      loaded.tree,
      loaded.problems,
      loaded.unlistedProblems,
      loaded.tornTail,
      writer,
      null
    )
  }

  /** The most recently written session of a workspace (for --continue), or null. */
  static latest(home: string, cwd: string): string | null {
    return latestSessionFile(home, cwd)
  }

  /**
   * A session of the workspace by id or unique id prefix (for --resume), or null. A file that
   * is no session is found too, so opening it says why it cannot be opened.
   */
  static find(home: string, cwd: string, id: string): string | null {
    return findSessionFile(home, cwd, id)
  }

  /**
   * The workspace's sessions, oldest first: those whose header names this workspace, and files
   * with no usable header (their `problem` says why). See listing.ts.
   */
  static list(home: string, cwd: string): SessionListing[] {
    return listWorkspaceSessions(home, cwd)
  }

  get sessionId(): string {
    return this.header.sessionId
  }

  get cwd(): string {
    return this.header.cwd
  }

  get leafUuid(): string | null {
    return this.treeModel.leafUuid
  }

  /**
   * A read-only view's position in its file: another process (the writer) may go on appending,
   * and a FileTail (sources/live-tail.ts) reads on from here. Null for the writer.
   */
  get followFrom(): ReadPosition | null {
    return this.readTo === null ? null : { ...this.readTo }
  }

  /** Records another process appended to a read-only view's file, in file order: into the tree. */
  follow(records: readonly unknown[], to: ReadPosition): void {
    if (this.readTo === null) throw new SessionWriteError('Only a read-only view follows its file')
    for (const record of records) this.treeModel.addRecord(record)
    this.readTo = { ...to }
  }

  /** The tree, kept current as records are appended (the same object every call). */
  tree(): SessionTree {
    return this.treeModel
  }

  /** A message as the new leaf's child; advances the leaf. Content over the limit is cut. */
  appendMessage(message: NewMessage, extra: MessageExtra = {}): UserRecord | AssistantRecord {
    const uuid = extra.uuid ?? uuidv7()
    if (extra.uuid !== undefined && this.treeModel.get(uuid) !== undefined) {
      throw new Error(`Entry ${uuid} already exists`)
    }
    // Checked before anything recurses into the content (limitPersistedText does).
    if (deeperThanLimit(message.content) || deeperThanLimit(extra.toolDetails)) {
      throw this.tooDeep()
    }
    const base = { uuid, parentUuid: this.leafUuid, timestamp: extra.timestamp ?? now() }
    const content = limitPersistedText(message.content)
    const durable = extra.durable ?? true
    if (message.role === 'user') {
      return this.write(
        UserRecord.parse({
          type: 'user',
          ...base,
          message: { role: 'user', content },
          ...(extra.toolDetails !== undefined
            ? { toolDetails: limitPersistedText(extra.toolDetails) }
            : {}),
          ...(extra.isMeta !== undefined ? { isMeta: extra.isMeta } : {})
        }),
        durable
      )
    }
    return this.write(
      AssistantRecord.parse({
        type: 'assistant',
        ...base,
        message: {
          role: 'assistant',
          content,
          ...(message.model !== undefined ? { model: message.model } : {}),
          ...(message.stop_reason !== undefined ? { stop_reason: message.stop_reason } : {}),
          ...(message.usage !== undefined ? { usage: message.usage } : {})
        }
      }),
      durable
    )
  }

  /** Moves the leaf to `leafUuid` (the parent of the checkpoint's prompt, or null). */
  appendRewind(r: {
    leafUuid: string | null
    checkpointUuid: string
    mode: RewindMode
    restoreId?: string
  }): RewindRecord {
    this.requireEntry(r.leafUuid)
    this.requireEntry(r.checkpointUuid)
    if (r.mode === 'code' && r.leafUuid !== this.leafUuid) {
      // Restoring code only leaves the conversation where it is: the record names the leaf as is.
      throw new Error(
        `A code-only rewind keeps the leaf: leafUuid must be the current leaf ${this.leafUuid}, not ${r.leafUuid}`
      )
    }
    return this.write(RewindRecord.parse({ type: 'rewind', ...this.base(), ...r }))
  }

  /** Moves the leaf without a rewind: another branch or node, an undo or a redo. */
  appendNavigate(r: {
    leafUuid: string | null
    reason: NavigateRecord['reason']
    restoreId?: string
    redoes?: string
  }): NavigateRecord {
    this.requireEntry(r.leafUuid)
    return this.write(NavigateRecord.parse({ type: 'navigate', ...this.base(), ...r }))
  }

  /**
   * oh-my-pi's branchWithSummary: a summary of the branch being left, as a child of `fromId`
   * (a root for "root"); it becomes the leaf, so the next message continues after it.
   */
  appendBranchSummary(r: {
    fromId: string
    summary: string
    details?: unknown
  }): BranchSummaryRecord {
    const parentUuid = r.fromId === 'root' ? null : r.fromId
    this.requireEntry(parentUuid)
    return this.write(
      BranchSummaryRecord.parse({
        type: 'branch_summary',
        ...this.base(),
        parentUuid,
        fromId: r.fromId,
        summary: limitPersistedText(r.summary),
        ...(r.details !== undefined ? { details: limitPersistedText(r.details) } : {})
      })
    )
  }

  /**
   * A compaction as the leaf's child; advances the leaf. From it on, the model sees its summary
   * and the path's records from `firstKeptUuid` (an earlier record of the same path) on.
   */
  appendCompaction(r: {
    summary: string
    firstKeptUuid: string | null
    tokensBefore: number
    trigger: CompactionRecord['trigger']
    details?: unknown
  }): CompactionRecord {
    this.requireEntry(r.firstKeptUuid)
    return this.write(
      CompactionRecord.parse({
        type: 'compaction',
        ...this.base(),
        summary: limitPersistedText(r.summary),
        firstKeptUuid: r.firstKeptUuid,
        tokensBefore: Math.max(0, Math.round(r.tokensBefore)),
        trigger: r.trigger,
        ...(r.details !== undefined ? { details: limitPersistedText(r.details) } : {})
      })
    )
  }

  /**
   * A harness message (the rewind report...) as the leaf's child; advances the leaf. `durable`:
   * see MessageExtra.
   */
  appendCustomMessage(
    r: {
      customType: string
      hidden: boolean
      content: MessageContent
      details?: unknown
    },
    options: { durable?: boolean } = {}
  ): CustomMessageRecord {
    return this.write(
      CustomMessageRecord.parse({
        type: 'custom_message',
        ...this.base(),
        customType: r.customType,
        hidden: r.hidden,
        content: limitPersistedText(r.content),
        ...(r.details !== undefined ? { details: limitPersistedText(r.details) } : {})
      }),
      options.durable ?? true
    )
  }

  /** Sets (or, with null, removes) the bookmark on a node. The leaf does not move. */
  appendLabel(r: { targetUuid: string; label: string | null }): LabelRecord {
    this.requireEntry(r.targetUuid)
    return this.write(LabelRecord.parse({ type: 'label', ...this.base(), ...r }))
  }

  /** The commits a turn made (share/commit-links.ts). The leaf does not move. */
  appendCommitLink(
    r: Pick<
      CommitLinkRecord,
      'checkpointUuid' | 'headBefore' | 'headAfter' | 'branch' | 'commits' | 'more'
    >
  ): CommitLinkRecord {
    this.requireEntry(r.checkpointUuid)
    return this.write(CommitLinkRecord.parse({ type: 'commit_link', ...this.base(), ...r }))
  }

  /** One file's change during a checkpoint (blob hashes, null = absent). The leaf does not move. */
  appendFileChange(r: NewFileChange): FileChangeRecord {
    return this.appendFileChanges([r])[0] as FileChangeRecord
  }

  /**
   * Several file changes in one write and one fdatasync: a restore or a command that touched a
   * thousand files pays for durability once, not a thousand times. `untracked`: what the same
   * command changed without a backup, in the same write. All are appended, or none.
   */
  appendFileChanges(
    changes: readonly NewFileChange[],
    untracked?: NewUntrackedChanges
  ): FileChangeRecord[] {
    for (const change of changes) this.requireEntry(change.checkpointUuid)
    if (untracked !== undefined) this.requireEntry(untracked.checkpointUuid)
    // Built, not parsed: every field comes typed from our own code (a restore's journal, the
    // agent's detection), and the schema's parse of a thousand records in a process that has
    // just started cost ~11 ms of a rewind run from the command line (bench/files-restore.ts).
    // One time and parent for the batch: they are one change, made at one point of the branch.
    const parentUuid = this.leafUuid
    const timestamp = now()
    const records: (FileChangeRecord | UntrackedChangesRecord)[] = changes.map(
      (r): FileChangeRecord => ({
        type: 'file_change',
        uuid: uuidv7(),
        parentUuid,
        timestamp,
        ...r
      })
    )
    if (untracked !== undefined) {
      records.push({
        type: 'untracked_changes',
        uuid: uuidv7(),
        parentUuid,
        timestamp,
        ...untracked
      })
    }
    return this.writeAll(records).filter((r): r is FileChangeRecord => r.type === 'file_change')
  }

  /**
   * A merge (core/merge) as the leaf's child, with the file_change records of what it wrote
   * (source `merge`, filed under the merge itself: its own turn), in one write and one
   * fdatasync: all are appended, or none. It becomes the leaf. Called by the rewind engine once
   * the merge's files are written (or by recovery, after a crash between the two).
   */
  appendMerge(merge: MergeIntent, changes: readonly MergeFileChange[]): MergeRecord {
    if (this.treeModel.has(merge.uuid)) throw new Error(`Entry ${merge.uuid} already exists`)
    const records = mergeRecords(merge, this.leafUuid, changes, now())
    this.writeAll<{ uuid: string }>(records)
    return records[0]
  }

  /**
   * Records of another session of this workspace, as a fork copies them (copied-records.ts):
   * one chain of its conversation nodes whose last is the leaf, their file changes, their labels.
   * One write and one fdatasync: all are appended, or none.
   */
  appendCopied(copy: CopiedRecords): void {
    this.writeAll(copiedRecords(this.treeModel, copy, now))
  }

  /**
   * A parallel run's records joined into this log (core/parallel/run-join.ts): each as the run's
   * own log holds it (its uuid, parent and time), marked `run: <run id>`, then a navigate back to
   * the leaf as it was, marked too. So the run is a branch of this tree and the conversation stays
   * where it was; the timeline reads no marked record (rewind/timeline.ts): the run's files were
   * never in this workspace. One write and one fdatasync: all are appended, or none.
   */
  appendRun(run: string, records: readonly unknown[]): void {
    this.writeAll(joinedRunRecords(this.treeModel, run, records, this.base()))
  }

  /**
   * Makes every line written so far durable (one fdatasync, only when an append with
   * `durable: false` left some unsynced).
   */
  sync(): void {
    const writer = this.writer
    if (writer === null || writer.fd === null || writer.synced === writer.size) return
    try {
      fdatasyncSync(writer.fd)
    } catch (error) {
      throw new WriteFailedError(this.file, error, 'the last records may not survive a crash')
    }
    writer.synced = writer.size
  }

  /** How many bytes of the log are durable (the rest was written with `durable: false`). */
  get syncedBytes(): number {
    return this.writer?.synced ?? 0
  }

  /** Releases the writer lock (after making what was written durable). Later appends throw. */
  close(): void {
    if (this.closed) return
    this.closed = true
    if (this.writer !== null) {
      try {
        this.sync()
      } catch {
        // Closing still releases the lock; the records were written, only their fdatasync failed.
      }
      if (this.writer.fd !== null) closeSync(this.writer.fd)
      this.writer.release()
      this.writer = null
    }
  }

  private base() {
    return { uuid: uuidv7(), parentUuid: this.leafUuid, timestamp: now() }
  }

  private requireEntry(uuid: string | null): void {
    if (uuid !== null && this.treeModel.get(uuid) === undefined) {
      throw new NotFoundError(`Entry ${uuid} not found`)
    }
  }

  private write<T extends { uuid: string }>(record: T, durable = true): T {
    return this.writeAll([record], durable)[0] as T
  }

  private writeAll<T extends { uuid: string }>(records: T[], durable = true): T[] {
    const writer = this.writer
    if (writer === null) {
      throw new SessionWriteError(
        this.closed
          ? `Session ${basename(this.file)} is closed: nothing was appended`
          : `Session ${basename(this.file)} is read-only (${this.readOnlyReason ?? 'no writer lock'}): nothing was appended`
      )
    }
    if (records.length === 0) return records
    const fd = writer.fd ?? this.materialize(writer)
    const onDisk = fstatSync(fd).size
    if (onDisk !== writer.size) {
      throw new SessionWriteError(
        `${this.file} changed on disk (${onDisk} bytes, expected ${writer.size}): another program wrote to it; nothing was appended`
      )
    }
    const lines = records.map((record) => `${this.serialized(record)}\n`).join('')
    const bytes = Buffer.from(`${writer.needsNewline ? '\n' : ''}${lines}`)
    // A staged file is synced once, whole, before it gets its name (publish).
    durable &&= writer.staging === null
    try {
      writeAllSync(fd, bytes)
      if (durable) fdatasyncSync(fd)
    } catch (error) {
      // Part of the lines may be on disk now (disk full). They are cut off again, which needs no
      // space, so that "all or none" holds for the next reader too (a command's records, whole
      // lines of them, were read back as a part of its changes) and the space is free again.
      // Where the cut fails, the next record starts a fresh line; the tree shows none of these.
      try {
        ftruncateSync(fd, writer.size)
      } catch {
        writer.size = fstatSync(fd).size
        writer.needsNewline = true
      }
      throw new WriteFailedError(this.file, error, 'nothing was appended')
    }
    writer.size += bytes.length
    if (durable) writer.synced = writer.size
    writer.needsNewline = false
    for (const record of records) this.treeModel.addRecord(record)
    return records
  }

  /**
   * A record's line. One nested past MAX_RECORD_DEPTH (a model's tool input, say) is refused:
   * reading would skip it (json-depth.ts), and past ~4,000 levels JSON.stringify itself overflows.
   */
  private serialized(record: { uuid: string }): string {
    let line: string
    try {
      line = JSON.stringify(record)
    } catch (error) {
      if (error instanceof RangeError && deeperThanLimit(record)) throw this.tooDeep()
      throw error
    }
    if (nestsTooDeep(line, record)) throw this.tooDeep()
    return line
  }

  private tooDeep(): SessionWriteError {
    return new SessionWriteError(
      `A record nested deeper than ${MAX_RECORD_DEPTH} levels cannot be kept in ${basename(this.file)}: nothing was appended`
    )
  }
}

function now(): string {
  return new Date().toISOString()
}

/** A file that is no Rewind Studio session (another tool's, or no header): refused, unchanged. */
export class NotOurSessionError extends CodedError {
  constructor(file: string, why: string) {
    super('refused', `Cannot open ${file}: ${why}. Nothing was changed.`)
    this.name = 'NotOurSessionError'
  }
}
