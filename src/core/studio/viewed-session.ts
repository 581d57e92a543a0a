// A foreign session (Claude Code, pi, oh-my-pi) shown in the explorer, read-only: the studio
// serves the same graph, transcript, inspector and compare views from its tree as from one of
// ours, with no agent and no writer. The file is followed while the other program writes it
// (session/tail.ts): a poll of its size and time, a refresh reading only the appended lines.
//
// What it adds over our sessions: sub-agent runs (drawn as collapsible nodes), the lines of the
// file (the inspector's raw view), the tool's own backups (turn diffs, rescue restores), and the
// timeline of rescue restores kept in the companion log (companion-log.ts).
import { type Stats, unwatchFile, watchFile } from 'node:fs'
import { join } from 'node:path'
import type { AppInfo } from '../../shared/views'
import type { RewindEngine } from '../rewind/rewind-engine'
import {
  ClaudeCodeBackups,
  openRescue,
  type RescueSpace,
  type RescuedSession
} from '../rewind/rescue'
import type { ForeignFormatName, ForeignReader, SubagentRun } from '../session/foreign/types'
import type { SessionBuilder } from '../session/load'
import { SessionTail } from '../session/tail'
import type { SessionTree } from '../session/tree'

/** How often the file's size and time are looked at: an appended line shows within a second. */
const POLL_MS = 250

export class ViewedSession {
  private readonly tail: SessionTail
  private listener: ((now: Stats, before: Stats) => void) | null = null
  private backupFolder: ClaudeCodeBackups | null = null

  constructor(
    readonly file: string,
    readonly reader: ForeignReader,
    private readonly dirs: { home: string; claudeHome: string }
  ) {
    this.tail = new SessionTail(file, reader)
  }

  /** Calls `onChange` whenever appended (or rewritten) lines changed the tree. */
  follow(onChange: () => void): void {
    this.listener = (now, before) => {
      if (now.mtimeMs === before.mtimeMs && now.size === before.size && now.ino === before.ino)
        return
      try {
        const { linesRead, reread } = this.tail.refresh()
        if (linesRead > 0 || reread) onChange()
      } catch {
        // The file went away or cannot be read for a moment: the last tree stays shown.
      }
    }
    watchFile(this.file, { interval: POLL_MS }, this.listener).unref()
  }

  close(): void {
    if (this.listener !== null) unwatchFile(this.file, this.listener)
    this.listener = null
  }

  private get builder(): SessionBuilder {
    const builder = this.tail.session
    if (builder === null) throw new Error(`${this.file} holds no records yet`)
    return builder
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

  info(): NonNullable<AppInfo['foreign']> {
    return { format: this.format, file: this.file, cwd: this.cwd, backups: this.hasBackups }
  }

  get hasBackups(): boolean {
    return this.builder.backups !== null
  }

  /** The content a file_change record of this session names (a backup of the tool's), or null. */
  content(ref: string | null): Buffer | null {
    const backups = this.builder.backups
    if (ref === null || backups === null) return null
    this.backupFolder ??= new ClaudeCodeBackups(
      join(this.dirs.claudeHome, 'file-history', backups.sessionId)
    )
    try {
      return this.backupFolder.read(ref)
    } catch {
      return null
    }
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

  /** The timeline of rescue restores (for Undo and Redo), read without taking the log's lock. */
  async timeline(root: string): ReturnType<RewindEngine['timeline']> {
    const space = this.rescue(root, true)
    try {
      return await space.engine.timeline()
    } finally {
      space.close()
    }
  }
}
