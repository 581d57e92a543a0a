// What loading found wrong in a session file. Loading never fails on bad content: it keeps every
// record it can and lists each problem with its line number, for inspect and the app's notices.
//
// Plain types, not zod schemas: nothing validates a problem (loading makes them), and this module
// is on the path of every read of a session, where loading zod cost `inspect` ~60 ms of its start.
import { escapeControlCharsOneLine } from '../../shared/control-chars'

export type LoadProblemKind =
  /** No record at all, not even the header: what a crash between creating and writing leaves. */
  | 'empty'
  /** A line that is not JSON (a complete line, so not a crash mid-write). */
  | 'malformed'
  /** The last line is incomplete: the writer died (or the disk filled) mid-write. */
  | 'torn-tail'
  /** A message whose parentUuid names no message in the file: shown as a root. */
  | 'missing-parent'
  /** Following parentUuid would loop: the record closing the loop is shown as a root. */
  | 'cycle'
  /** A uuid seen before: the first record wins, this one is ignored. */
  | 'duplicate-uuid'
  /** JSON, but not a usable record of its type (missing fields, or a bad header). */
  | 'invalid-record'

export interface LoadProblem {
  /** 1-based line in the file. */
  line: number
  kind: LoadProblemKind
  message: string
}

/** Why a file holding no record is no session (loading and listing both say it). */
export function emptyFileMessage(bytes: number): string {
  return `${bytes === 0 ? 'the file is empty (0 bytes)' : 'the file holds only blank lines'}: no session header, no records (a crash between creating a session and writing its header leaves this)`
}

/**
 * The app's notice for a session read with problems (none when it has none); a problem's message
 * can quote the line (JSON.parse's does), so it is escaped. The file is not
 * changed: what could be read is shown, and `inspect` lists every problem. A torn last line is
 * left out: the app says that in its own words (ours) or waits for the line (a session followed
 * while its tool writes it).
 */
export function problemsNotice(file: string, problems: readonly LoadProblem[]): string[] {
  const listed = problems.filter((p) => p.kind !== 'torn-tail')
  const first = listed[0]
  if (first === undefined) return []
  const more = listed.length > 1 ? `, and ${listed.length - 1} more` : ''
  const count = listed.length === 1 ? 'A problem' : `${listed.length} problems`
  return [
    `${count} in this session's file (line ${first.line}: ${escapeControlCharsOneLine(first.message)}${more}). Everything else is shown and the file is unchanged; \`rewind-studio inspect ${shellWord(file)}\` lists ${listed.length === 1 ? 'it' : 'them'}.`
  ]
}

/** `path` as one word of a POSIX shell command, quoted only when it must be. */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`
}
