// What every foreign-format reader gives the loader (load.ts), so the loader can read a file of
// any format the same way, and read it incrementally while another program appends to it
// (SessionBuilder). A reader is one module per format in this folder; it imports nothing from the
// loader, so adding a format is one file here and one line in load.ts's list. The loader reads the
// files; a format that must read more of its own (a database, an index beside its sessions)
// opens them through os/read-regular-file.ts, as every reader here must (lint-enforced): a FIFO
// where a file is expected is refused, never waited on.
import type { ForeignFormat } from '../../../shared/views'
import type { ProblemLog } from '../problems'
import type { SessionTree } from '../tree'

/** The formats read (shared/views.ts lists them for the contract). */
export type ForeignFormatName = ForeignFormat

/** One parsed JSONL file: its values and the 1-based line of each. */
export interface ParsedLines {
  values: readonly unknown[]
  lines: readonly number[]
}

/** A file kept beside a session (a sub-agent's transcript), read by the loader for the reader. */
export interface SidecarFile {
  /** The file's name (`agent-a1b2.jsonl`), which may say whose it is. */
  name: string
  parsed: ParsedLines
  /** The JSON of a `<name minus .jsonl>.meta.json` beside it, when there is one. */
  meta: unknown
}

/** Receives each record a mapper produces, with the line of the file it came from. */
export type Emit = (record: unknown, line: number) => void

/**
 * Turns a foreign file's lines into our records, one line at a time, so a file that grows is
 * mapped by feeding it the new lines only. The first record emitted is our session header.
 */
export interface ForeignMapper {
  add(value: unknown, line: number, emit: Emit): void
  /** Problems the mapping found so far (a compaction whose logical parent is missing...). */
  readonly problems: ProblemLog
  /** Sub-agent runs found so far (inline sidechains, and the sidecar files given). */
  subagents(): SubagentRun[]
  /** What the format's own backups say about the files, when it keeps any. */
  readonly backups: ForeignBackups | null
}

export interface ForeignReader {
  format: ForeignFormatName
  /** Whether the first values of a file (up to 50) are of this format. */
  detect(values: readonly unknown[]): boolean
  /**
   * `file`: the session's file (null for text read from elsewhere), for a format that reads more
   * of its own beside it (a fork's parent, the project's root, its checkpoints).
   */
  mapper(sidecars: readonly SidecarFile[], file: string | null): ForeignMapper
  /** The folder beside `file` holding its sub-agent transcripts, for formats that keep some. */
  sidecarDir?(file: string): string
  /** What the tool keeps of the files its sessions change, said where a restore is offered. */
  readonly keeps: string
  /** For a format whose sessions are no file of lines (rows of a database): how they are read. */
  readonly stored?: StoredSessions
}

/**
 * Sessions another tool keeps in a store of its own (OpenCode's database), each named by a
 * locator its reader makes (`<database>#<session id>`): read whole, as the values a file's lines
 * would be, and followed by polling what says the store changed.
 */
export interface StoredSessions {
  /** Whether `file` is a locator of this format's sessions. */
  holds(file: string): boolean
  /** The session's values, in the order the mapper takes them. */
  read(file: string): ParsedLines
  /** What changes whenever the session may have (the store's sizes and times). */
  stamp(file: string): string
}

/** A sub-agent's transcript, drawn as a collapsible branch of the tool call that ran it. */
export interface SubagentRun {
  /** Stable within the session: the agent id, or the uuid of its first record. */
  id: string
  /** The tool call that started it, when it could be found. */
  toolUseId: string | null
  /**
   * The record holding that tool call, when found: a drawn record of the main tree, or, for a
   * sub-agent's own sub-agent, of the tree of the run `parentRunId`.
   */
  parentUuid: string | null
  /** The run whose transcript started this one (subagent-nesting.ts); null for the session's. */
  parentRunId: string | null
  /** The tool call's description, else the first line of its prompt. */
  title: string
  /** Where its records came from: a sidecar file's name, or "inline". */
  source: string
  tree: SessionTree
}

/**
 * A format's file backups, as the rescue restore reads them (rewind/rescue.ts): Claude Code's
 * file-history, Gemini CLI's checkpoints, OpenCode's snapshots. A ref names one file's content
 * in the store; null means the file did not exist.
 */
export interface ForeignBackups {
  readonly store: BackupStore
  /**
   * Each file the backups track, with what a restore to before `promptUuid` gives it, as the
   * tool's own restore would; or why the tool kept no point to restore to there.
   */
  restoreTo(promptUuid: string): RestorePoint
  /** The refs of every version of `path` the backups hold (what a restore could give back). */
  versions(path: string): readonly string[]
}

export type RestorePoint = { files: ReadonlyMap<string, string | null> } | { refused: string }

/** Where a format's refs are read. */
export type BackupStore =
  /** `<claude home>/file-history/<sessionId>/`: a ref is a backup's file name. */
  | { kind: 'claude-code-file-history'; sessionId: string }
  /** A git object store (read by foreign/git-objects.ts): a ref is a blob's name. */
  | { kind: 'git'; gitDir: string }
