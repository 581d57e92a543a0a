// Reading a session file of any format we know into the one tree model: ours, and read-only
// views of Claude Code transcripts and pi sessions (their records mapped onto ours).
import { fromClaudeCode, looksLikeClaudeCode } from './foreign/claude-code'
import { fromPi, looksLikePi } from './foreign/pi'
import { type ParsedJsonl, parseJsonl, readJsonlFile } from './jsonl'
import { emptyFileMessage, type LoadProblem } from './problems'
import { SessionTree } from './tree'

export type SessionFormat = 'rewind-studio' | 'claude-code' | 'pi'

export interface LoadedSession {
  format: SessionFormat
  tree: SessionTree
  /** Parse problems and tree problems, by line. */
  problems: LoadProblem[]
  tornTail: boolean
  /** False when the file's last byte is not '\n'. */
  endsWithNewline: boolean
  /** Lines that parsed as JSON. */
  recordCount: number
}

/** Records in our shapes, each with the file line it came from. */
export interface MappedRecords {
  records: unknown[]
  lines: number[]
  problems: LoadProblem[]
}

/** A session file of any size: read in chunks (jsonl.ts), never as one string. */
export function readSessionFile(file: string): LoadedSession {
  const parsed = readJsonlFile(file)
  return loadParsed(parsed, parsed.bytes)
}

export function loadSessionText(text: string): LoadedSession {
  return loadParsed(parseJsonl(text), Buffer.byteLength(text))
}

/** The tree of a file's parsed lines; `bytes` is the file's size (for the empty-file problem). */
export function loadParsed(parsed: ParsedJsonl, bytes: number): LoadedSession {
  const format = detectFormat(parsed.values)
  const mapped: MappedRecords =
    format === 'claude-code'
      ? fromClaudeCode(parsed.values, parsed.lines)
      : format === 'pi'
        ? fromPi(parsed.values, parsed.lines)
        : { records: parsed.values, lines: parsed.lines, problems: [] }
  const tree = SessionTree.fromRecords(mapped.records)
  const treeProblems = tree.problems.map((p) => ({
    line: mapped.lines[p.index] ?? 0,
    kind: p.kind,
    message: p.message
  }))
  const empty: LoadProblem[] =
    parsed.values.length === 0 && parsed.problems.length === 0
      ? [{ line: 1, kind: 'empty', message: emptyFileMessage(bytes) }]
      : []
  return {
    format,
    tree,
    problems: [...empty, ...parsed.problems, ...mapped.problems, ...treeProblems].sort(
      (a, b) => a.line - b.line
    ),
    tornTail: parsed.tornTail,
    endsWithNewline: parsed.endsWithNewline,
    recordCount: parsed.values.length
  }
}

function detectFormat(values: readonly unknown[]): SessionFormat {
  const first = values[0]
  if (typeof first === 'object' && first !== null && 'sessionId' in first && 'version' in first) {
    if ((first as { type?: unknown }).type === 'session') return 'rewind-studio'
  }
  if (looksLikePi(first)) return 'pi'
  if (looksLikeClaudeCode(values)) return 'claude-code'
  return 'rewind-studio'
}
