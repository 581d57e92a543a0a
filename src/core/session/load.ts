// Reading a session file of any format we know into the one tree model: ours, and read-only
// views of Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI and OpenCode sessions (their records mapped onto ours by the readers in
// foreign/, one module per format). Files are read in chunks (jsonl.ts), never as one string. A
// foreign session is built by a SessionBuilder, which can be fed more lines later: that is how a
// file another program is still writing is followed (sources/live-tail.ts reads what it appends;
// studio/viewed-session.ts feeds it here).
import { closeSync, existsSync, readdirSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { openRegularFile } from '../os/read-regular-file'
import { claudeCode } from './foreign/claude-code'
import { codex } from './foreign/codex'
import { geminiCli } from './foreign/gemini-cli'
import { ohMyPi } from './foreign/oh-my-pi'
import { openCode } from './foreign/opencode'
import { pi } from './foreign/pi'
import { addMapped } from './foreign/raw'
import { readSidecarFile } from './foreign/sidecar-file'
import type {
  ForeignBackups,
  ForeignFormatName,
  ForeignMapper,
  ForeignReader,
  SidecarFile,
  SubagentRun
} from './foreign/types'
import { type ParsedJsonl, parseJsonl, readJsonlFile } from './jsonl'
import { emptyFileMessage, type LoadProblem } from './problems'
import { conversationNodeOf, sessionHeaderOf, SessionTree, type TreeRecord } from './tree'

export type SessionFormat = 'rewind-studio' | ForeignFormatName

/** The foreign formats, tried in this order: adding one is its reader in foreign/ and a line here. */
const READERS: readonly ForeignReader[] = [ohMyPi, pi, claudeCode, codex, geminiCli, openCode]

export interface LoadedSession {
  format: SessionFormat
  tree: SessionTree
  /** The file line of each record in tree.records. */
  lines: readonly number[]
  /** Parse problems and tree problems, by line: the first of each source (ProblemLog). */
  problems: LoadProblem[]
  /** Problems found past those listed. */
  unlistedProblems: number
  tornTail: boolean
  /** False when the file's last byte is not '\n'. */
  endsWithNewline: boolean
  /** Lines that parsed as JSON. */
  recordCount: number
  /** Sub-agent transcripts (foreign formats), each with the tool call that ran it. */
  subagents: SubagentRun[]
  /** The format's own file backups (Claude Code's file-history), when it keeps any. */
  backups: ForeignBackups | null
}

export interface ReadSessionOptions {
  /**
   * What the tree keeps of each conversation node of a session in our format, made as the line
   * is parsed (default: the whole record). A reader that shows a few fields of each node (inspect)
   * keeps a record holding just those, valid as the one it replaces, so the rest of each record
   * dies young instead of being kept to the end. A foreign session's records reach its mapper
   * whole.
   */
  keepNode?: (record: TreeRecord) => TreeRecord
}

/**
 * A session file (of any size) with, for a foreign format, the sub-agent transcripts beside it;
 * or a session another tool keeps in a store of its own, by its locator (storedReaderOf).
 */
export function readSessionFile(file: string, options: ReadSessionOptions = {}): LoadedSession {
  const stored = storedReaderOf(file)
  if (stored !== null) return loadStored(stored, file)
  const { keepNode } = options
  const parsed = readJsonlFile(file, keepNode === undefined ? {} : { keep: keptInOurs(keepNode) })
  return loadParsed(parsed, parsed.bytes, (reader) => readSidecars(reader, file), file)
}

/**
 * `keepNode` applied to the conversation nodes after a first line that is our header (the
 * format is then ours: detectFormat); every other value, and every value of a file in another
 * format, as parsed. A node is checked whole before it is replaced, as the tree checks it.
 */
function keptInOurs(keepNode: (record: TreeRecord) => TreeRecord): (value: unknown) => unknown {
  let ours: boolean | null = null
  return (value) => {
    if (ours === null) {
      ours = sessionHeaderOf(value) !== null
      return value
    }
    const node = ours ? conversationNodeOf(value) : null
    return node === null ? value : keepNode(node)
  }
}

export function loadSessionText(
  text: string,
  sidecarsOf: (reader: ForeignReader) => SidecarFile[] = () => []
): LoadedSession {
  return loadParsed(parseJsonl(text), Buffer.byteLength(text), sidecarsOf)
}

/**
 * The tree of a file's parsed lines; `bytes` is the file's size (for the empty-file problem),
 * `file` the file they came from (a reader may read more beside it), null when none.
 */
export function loadParsed(
  parsed: ParsedJsonl,
  bytes: number,
  sidecarsOf: (reader: ForeignReader) => SidecarFile[] = () => [],
  file: string | null = null
): LoadedSession {
  const format = detectFormat(parsed.values)
  const empty: LoadProblem[] =
    parsed.values.length === 0 && parsed.problems.length === 0
      ? [{ line: 1, kind: 'empty', message: emptyFileMessage(bytes) }]
      : []
  const base = {
    format,
    tornTail: parsed.tornTail,
    endsWithNewline: parsed.endsWithNewline,
    recordCount: parsed.values.length
  }
  const reader = READERS.find((r) => r.format === format)
  if (reader === undefined) {
    // Our own format: the records are ours as they are (the hot path of opening a session).
    const tree = SessionTree.fromRecords(parsed.values)
    return {
      ...base,
      tree,
      lines: parsed.lines,
      problems: sortByLine([...empty, ...parsed.problems, ...treeProblems(tree, parsed.lines)]),
      unlistedProblems: parsed.unlistedProblems + tree.unlistedProblems,
      subagents: [],
      backups: null
    }
  }
  const builder = SessionBuilder.of(reader, parsed, sidecarsOf(reader), file)
  return {
    ...base,
    tree: builder.tree,
    lines: builder.lines,
    problems: sortByLine([...empty, ...parsed.problems, ...builder.problems()]),
    unlistedProblems: parsed.unlistedProblems + builder.unlistedProblems,
    subagents: builder.subagents(),
    backups: builder.backups
  }
}

/** A foreign session's tree, built line by line through its format's mapper. */
export class SessionBuilder {
  readonly tree = new SessionTree()
  readonly lines: number[] = []
  private readonly mapper: ForeignMapper

  constructor(
    readonly reader: ForeignReader,
    sidecars: readonly SidecarFile[] = [],
    file: string | null = null
  ) {
    this.mapper = reader.mapper(sidecars, file)
  }

  /** A builder fed every line parsed so far (more can follow: tail the file with FileTail). */
  static of(
    reader: ForeignReader,
    parsed: Pick<ParsedJsonl, 'values' | 'lines'>,
    sidecars: readonly SidecarFile[] = [],
    file: string | null = null
  ): SessionBuilder {
    const builder = new SessionBuilder(reader, sidecars, file)
    for (let i = 0; i < parsed.values.length; i++)
      builder.add(parsed.values[i], parsed.lines[i] ?? 0)
    return builder
  }

  private linesAdded = 0

  /** Lines added so far: what problems() says changes only when this does. */
  get added(): number {
    return this.linesAdded
  }

  /** Maps one parsed line; its records join the tree at once. */
  add(value: unknown, line: number): void {
    this.linesAdded++
    this.mapper.add(value, line, this.emit)
  }

  private readonly emit = (record: unknown, line: number): void => {
    this.lines.push(line)
    addMapped(this.tree, record)
  }

  problems(): LoadProblem[] {
    return sortByLine([...this.mapper.problems.listed, ...treeProblems(this.tree, this.lines)])
  }

  /** Problems found past those problems() lists. */
  get unlistedProblems(): number {
    return this.mapper.problems.unlisted + this.tree.unlistedProblems
  }

  subagents(): SubagentRun[] {
    return this.mapper.subagents()
  }

  get backups(): ForeignBackups | null {
    return this.mapper.backups
  }
}

/** The format of a session whose first lines parsed as `values` (ours when none matches). */
export function detectFormat(values: readonly unknown[]): SessionFormat {
  const first = values[0]
  if (typeof first === 'object' && first !== null && 'sessionId' in first && 'version' in first) {
    if ((first as { type?: unknown }).type === 'session') return 'rewind-studio'
  }
  return READERS.find((reader) => reader.detect(values))?.format ?? 'rewind-studio'
}

/** How many of a file's first records tell its format (detectFormat). */
const FORMAT_RECORDS = 50

/** The reader of the format whose store `file` names a session of (a locator), or null. */
export function storedReaderOf(file: string): ForeignReader | null {
  return READERS.find((r) => r.stored?.holds(file) === true) ?? null
}

/** The values a stored session's reader read, as the lines of a file that is whole. */
export function readStored(reader: ForeignReader, file: string): ParsedJsonl {
  const { values, lines } = (reader.stored as NonNullable<ForeignReader['stored']>).read(file)
  return {
    values: [...values],
    lines: [...lines],
    problems: [],
    unlistedProblems: 0,
    tornTail: false,
    endsWithNewline: true
  }
}

function loadStored(reader: ForeignReader, file: string): LoadedSession {
  const parsed = readStored(reader, file)
  return loadParsed(parsed, 1, () => [], file)
}

/** Whether a session is there: a file, or a stored session its store holds. */
export function sessionExists(file: string): boolean {
  const stored = storedReaderOf(file)
  if (stored === null) return existsSync(file)
  try {
    stored.stored?.read(file)
    return true
  } catch {
    return false
  }
}

/** The format of a session file, judged from its first lines (up to 1 MB) without reading it all. */
export function detectFileFormat(file: string): SessionFormat {
  const stored = storedReaderOf(file)
  if (stored !== null) return stored.format
  const { fd } = openRegularFile(file)
  try {
    const head = Buffer.alloc(1024 * 1024)
    const n = readSync(fd, head, 0, head.length, 0)
    const read = head.subarray(0, n)
    // The first FORMAT_RECORDS records of the megabyte's whole lines are all detectFormat looks
    // at: lines are decoded and parsed only until they gave that many (blank and malformed
    // lines give none), not the thousands a long session's first megabyte holds. A cut last
    // line would be a parse problem, not a format; a file read to its end has no cut line.
    const values: unknown[] = []
    let end = 0
    while (values.length < FORMAT_RECORDS) {
      let next = end
      for (let line = values.length; line < FORMAT_RECORDS; line++) {
        const newline = read.indexOf(0x0a, next)
        if (newline === -1) {
          if (n < head.length) next = n
          break
        }
        next = newline + 1
      }
      if (next === end) break
      values.push(...parseJsonl(read.subarray(end, next).toString('utf8')).values)
      end = next
    }
    return detectFormat(values.slice(0, FORMAT_RECORDS))
  } finally {
    closeSync(fd)
  }
}

export function readerOf(format: SessionFormat): ForeignReader | null {
  return READERS.find((r) => r.format === format) ?? null
}

/** Sub-agent transcripts kept beside a session file; none when its format keeps none there. */
export function readSidecars(reader: ForeignReader, file: string): SidecarFile[] {
  const dir = reader.sidecarDir?.(file)
  if (dir === undefined) return []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => {
      try {
        return [readSidecarFile(join(dir, name))]
      } catch {
        // A sidecar that cannot be read (a folder or a FIFO named *.jsonl, no permission) is
        // left out.
        return []
      }
    })
}

function treeProblems(tree: SessionTree, lines: readonly number[]): LoadProblem[] {
  return tree.problems.map((p) => ({ line: lines[p.index] ?? 0, kind: p.kind, message: p.message }))
}

function sortByLine(problems: LoadProblem[]): LoadProblem[] {
  return problems.sort((a, b) => a.line - b.line)
}
