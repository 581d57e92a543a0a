// What loading found wrong in a session file. Loading never fails on bad content: it keeps every
// record it can and lists each problem with its line number (the first MAX_LISTED_PROBLEMS of
// each source, the rest counted), for inspect and the app's notices.
//
// Plain types, not zod schemas: nothing validates a problem (loading makes them), and this module
// is on the path of every read of a session, where loading zod cost `inspect` ~60 ms of its start.
import { escapeControlCharsOneLine } from '../../shared/control-chars'
import { groupedNumber } from '../../shared/grouped-number'

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

/**
 * Problems listed one by one per source (the lines, the tree, a format's mapper); past that they
 * are counted. A hostile file can hold millions: 2,000,000 lines of `x` (4 MB) took the app 40 s
 * and 1.7 GB to open, most of it in their objects.
 */
export const MAX_LISTED_PROBLEMS = 1000

/** Problems as they are found: the first MAX_LISTED_PROBLEMS kept, the rest counted. */
export class ProblemLog<P = LoadProblem> {
  readonly listed: P[] = []
  unlisted = 0

  add(problem: P): void {
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push(problem)
    else this.unlisted++
  }

  /** Problems another log found: those it listed, and the count of those it did not. */
  addAll(listed: readonly P[], unlisted: number): void {
    for (const problem of listed) this.add(problem)
    this.unlisted += unlisted
  }

  /** Whether another problem would only be counted: its details need not be made. */
  get full(): boolean {
    return this.listed.length >= MAX_LISTED_PROBLEMS
  }
}

/** Why a file holding no record is no session (loading and listing both say it). */
export function emptyFileMessage(bytes: number): string {
  return `${bytes === 0 ? 'the file is empty (0 bytes)' : 'the file holds only blank lines'}: no session header, no records (a crash between creating a session and writing its header leaves this)`
}

/**
 * The app's notice for a session read with problems (none when it has none); a problem's message
 * can quote the line (JSON.parse's does), so it is escaped. The file is not changed: what could
 * be read is shown, and `inspect` lists the problems (the first ones, past ProblemLog's limit).
 * A torn last line is left out: the app says that in its own words (ours) or waits for the line
 * (a session followed while its tool writes it).
 */
export function problemsNotice(
  file: string,
  problems: readonly LoadProblem[],
  /** Problems found past those listed (ProblemLog). */
  unlisted = 0
): string[] {
  const listed = problems.filter((p) => p.kind !== 'torn-tail')
  const first = listed[0]
  if (first === undefined) return []
  const total = listed.length + unlisted
  const more = total > 1 ? `, and ${groupedNumber(total - 1)} more` : ''
  const count = total === 1 ? 'A problem' : `${groupedNumber(total)} problems`
  const lists = total === 1 ? 'lists it' : unlisted > 0 ? 'lists the first ones' : 'lists them'
  return [
    `${count} in this session's file (line ${first.line}: ${escapeControlCharsOneLine(first.message)}${more}). Everything else is shown and the file is unchanged; \`rewind-studio inspect ${shellWord(file)}\` ${lists}.`
  ]
}

/** `path` as one word of a POSIX shell command, quoted only when it must be. */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`
}
