// A foreign session (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode) shown in the
// explorer, read-only: the studio
// serves the same graph, transcript, inspector and compare views from its tree as from one of
// ours, with no agent and no writer. While the other program writes the file, what it appends is
// read as it lands (sources/live-tail.ts) and fed through the format's mapper into the same tree
// (session/load.ts SessionBuilder): a half-written last line waits for its newline; a file
// replaced or truncated is read again from the start. A session another tool keeps in a store
// (OpenCode's database) is read again whole whenever the store changed (StoreTail). Sub-agent
// transcripts are read with the session (a run that grows later shows when the session is
// opened again).
//
// What it adds over our sessions: sub-agent runs (drawn as collapsible nodes), the lines of the
// file (the inspector's raw view), the tool's own backups (turn diffs, rescue restores), and the
// timeline of rescue restores kept in the companion log (companion-log.ts).
import type { AppInfo } from '../../shared/views'
import type { RewindEngine } from '../rewind/rewind-engine'
import type { ContentSource } from '../rewind/content-source'
import {
  backupSource,
  openRescue,
  rescueRefusal,
  type RescueSpace,
  type RescuedSession
} from '../rewind/rescue'
import type { ForeignFormatName, ForeignReader, SubagentRun } from '../session/foreign/types'
import { type ReadPosition, readJsonlFile } from '../session/jsonl'
import { SessionBuilder, readSidecars, readStored } from '../session/load'
import { ProblemLog, problemsNotice } from '../session/problems'
import type { SessionTree } from '../session/tree'
import { FileTail, StoreTail, stoppedFollowingNotice, type TailOptions } from '../sources/live-tail'

/**
 * How long a writer may be silent and still be taken as at work. Claude Code's longest silence
 * mid-turn is a Bash command at its 10-minute timeout (a model's answer streams far sooner).
 */
const WRITER_QUIET_MS = 10 * 60_000

export class ViewedSession {
  private built: SessionBuilder
  private readTo: ReadPosition
  private tail: FileTail | null = null
  private storeTail: StoreTail | null = null
  /** When lines were last appended while this view followed the file (ms); null: not yet. */
  private grewAt: number | null = null
  /** Tells the follower once the writer has been quiet for writerQuietMs (see writerAtWork). */
  private quietTimer: NodeJS.Timeout | null = null
  private backupFolder: ContentSource | null = null
  /** Lines that could not be read as JSON (the builder's problems are the records'). */
  private parseProblems: ProblemLog
  /** problemsNotice's last answer, and what it was made from. */
  private notice: { builder: SessionBuilder; count: number; text: string[] } | null = null
  /** Why following the file stopped for good (it grew past what is read), or null. */
  private stoppedFollowing: string | null = null
  /** Records read from the file when it was read whole (the tail's bound counts them). */
  private heldRecords = 0

  constructor(
    readonly file: string,
    readonly reader: ForeignReader,
    private readonly dirs: { home: string; claudeHome: string },
    private readonly writerQuietMs = WRITER_QUIET_MS,
    /** The tail's options (a test's smaller bound on the records followed). */
    private readonly tailOptions: Pick<TailOptions, 'maxRecords'> = {}
  ) {
    const { built, readTo, problems, held } = this.read()
    this.built = built
    this.readTo = readTo
    this.parseProblems = problems
    this.heldRecords = held
  }

  /** The whole file, and where a follower goes on from. */
  private read(): {
    built: SessionBuilder
    readTo: ReadPosition
    problems: ProblemLog
    held: number
  } {
    if (this.reader.stored?.holds(this.file) === true) {
      // A session in another tool's store: read whole every time (StoreTail follows it).
      const parsed = readStored(this.reader, this.file)
      return {
        built: SessionBuilder.of(this.reader, parsed, [], this.file),
        readTo: { offset: 0, nextLine: 1, ino: 0 },
        problems: new ProblemLog(),
        held: parsed.values.length
      }
    }
    const parsed = readJsonlFile(this.file)
    // A last line without its '\n' that did not parse is being written: it is read once complete.
    const pending = !parsed.endsWithNewline && parsed.tornTail
    const problems = new ProblemLog()
    problems.addAll(
      parsed.problems.filter((problem) => problem.kind !== 'torn-tail'),
      parsed.unlistedProblems
    )
    return {
      built: SessionBuilder.of(
        this.reader,
        parsed,
        readSidecars(this.reader, this.file),
        this.file
      ),
      readTo: {
        offset: pending ? parsed.complete : parsed.bytes,
        nextLine: parsed.nextLine,
        ino: parsed.ino
      },
      problems,
      held: parsed.values.length
    }
  }

  /**
   * Calls `onChange` whenever appended lines (or a fresh read) changed the tree, and `onStopped`
   * with the notice (also kept in problemsNotice) if the file grows past what is read.
   */
  follow(onChange: () => void, onStopped: (notice: string) => void = () => undefined): void {
    this.tail?.close()
    this.storeTail?.close()
    this.stoppedFollowing = null
    const stored = this.reader.stored
    if (stored?.holds(this.file) === true) {
      this.storeTail = new StoreTail(() => stored.stamp(this.file), {
        changed: () => {
          const { built, held } = this.read()
          this.built = built
          this.heldRecords = held
          this.grew(onChange)
          onChange()
        },
        failed: () => {
          // The store is being written, or gone for a moment: the next look tries again.
        }
      })
      return
    }
    this.tail = new FileTail(
      this.file,
      this.readTo,
      {
        appended: (values, lines, problems) => {
          values.forEach((value, i) => this.built.add(value, lines[i] ?? 0))
          this.parseProblems.addAll(problems.listed, problems.unlisted)
          if (this.tail !== null) this.readTo = this.tail.at
          if (values.length > 0) this.grew(onChange)
          onChange()
        },
        reset: () => {
          // Replaced or truncated: read again from the start (FileTail goes on from there too).
          try {
            this.parseProblems = new ProblemLog()
            this.built = SessionBuilder.of(
              this.reader,
              { values: [], lines: [] },
              readSidecars(this.reader, this.file),
              this.file
            )
            onChange()
          } catch {
            // Gone for a moment: the next look finds it again.
          }
        },
        stopped: (error) => {
          this.tail = null
          this.stoppedFollowing = stoppedFollowingNotice(this.file, error)
          onStopped(this.stoppedFollowing)
          onChange()
        }
      },
      { held: this.heldRecords, ...this.tailOptions }
    )
  }

  close(): void {
    this.tail?.close()
    this.tail = null
    this.storeTail?.close()
    this.storeTail = null
    if (this.quietTimer !== null) clearTimeout(this.quietTimer)
    this.quietTimer = null
  }

  /**
   * Whether the program writing the file is at work: it appended lines while this view followed
   * the file, the last within writerQuietMs. Then a turn at the file's end that waits for an
   * answer or a tool is running (the graph's `answering`). Past that the writer may have died
   * mid-turn (killed, crashed, its machine asleep), and the turn shows as it does in the file
   * opened afresh: stopped or failed, not running for ever. Its next line makes it running again.
   */
  writerAtWork(): boolean {
    return this.grewAt !== null && Date.now() - this.grewAt < this.writerQuietMs
  }

  private grew(onChange: () => void): void {
    this.grewAt = Date.now()
    if (this.quietTimer !== null) clearTimeout(this.quietTimer)
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null
      onChange()
    }, this.writerQuietMs)
    this.quietTimer.unref()
  }

  private get builder(): SessionBuilder {
    return this.built
  }

  get format(): ForeignFormatName {
    return this.reader.format
  }

  get tree(): SessionTree {
    return this.builder.tree
  }

  get lines(): readonly number[] {
    return this.builder.lines
  }

  get sessionId(): string {
    return this.tree.header?.sessionId ?? ''
  }

  get cwd(): string {
    return this.tree.header?.cwd ?? ''
  }

  subagents(): SubagentRun[] {
    return this.builder.subagents()
  }

  /**
   * The notice of what could not be read of the file (none when all could). Made again only when
   * lines were read since: every app:info asks, and a hostile file can hold a million problems.
   */
  problemsNotice(): string[] {
    const builder = this.builder
    const parse = this.parseProblems
    const count = parse.listed.length + parse.unlisted + builder.added
    if (this.notice?.builder !== builder || this.notice.count !== count) {
      const text = problemsNotice(
        this.file,
        [...parse.listed, ...builder.problems()],
        parse.unlisted + builder.unlistedProblems
      )
      this.notice = { builder, count, text }
    }
    return this.stoppedFollowing === null
      ? this.notice.text
      : [...this.notice.text, this.stoppedFollowing]
  }

  info(): NonNullable<AppInfo['foreign']> {
    return {
      format: this.format,
      file: this.file,
      cwd: this.cwd,
      backups: this.hasBackups,
      keeps: this.reader.keeps
    }
  }

  get hasBackups(): boolean {
    return this.builder.backups !== null
  }

  /** The content a file_change record of this session names (a backup of the tool's), or null. */
  content(ref: string | null): Buffer | null {
    if (ref === null) return null
    try {
      return this.readBackup(ref)
    } catch {
      return null
    }
  }

  /** A backup of the tool's by the name its records give; throws saying why it cannot be read. */
  readBackup(ref: string): Buffer {
    const backups = this.builder.backups
    if (backups === null) throw new Error(this.reader.keeps)
    this.backupFolder ??= backupSource(backups.store, this.dirs.claudeHome)
    return this.backupFolder.read(ref)
  }

  /** What a rescue restore reads of the session. */
  rescued(): RescuedSession {
    return { format: this.format, tree: this.tree, backups: this.builder.backups }
  }

  /** The rescue restore's engine over `root` (the caller closes it). */
  rescue(root: string, readOnly = false): RescueSpace {
    return openRescue({
      home: this.dirs.home,
      file: this.file,
      loaded: this.rescued(),
      root,
      claudeHome: this.dirs.claudeHome,
      readOnly
    })
  }

  /**
   * The timeline of rescue restores (for Undo and Redo), read without taking the log's lock. A
   * session no restore can run on (pi, oh-my-pi and Codex CLI keep no backups) never had one: its timeline
   * is empty, and no companion log is opened (opening one refuses such a session).
   */
  async timeline(root: string, wholeReach = false): ReturnType<RewindEngine['timeline']> {
    if (rescueRefusal(this.rescued()) !== null) {
      return {
        actions: [],
        filesAt: null,
        undoable: null,
        redoable: null,
        bases: new Map(),
        reach: { undo: [], redo: [] }
      }
    }
    const space = this.rescue(root, true)
    try {
      return await space.engine.timeline(wholeReach)
    } finally {
      space.close()
    }
  }
}
