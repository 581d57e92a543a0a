// Splitting a session file into records. One pass over the text, one JSON.parse per line: this is
// the hot path of opening a 100 MB session, so it does nothing else per line.
import type { LoadProblem } from './problems'

export interface ParsedJsonl {
  /** Every line that parsed, in file order (any JSON value: the tree judges what it is). */
  values: unknown[]
  /** The 1-based line number of each value. */
  lines: number[]
  problems: LoadProblem[]
  /** The last line was incomplete (a crash or full disk mid-write); it is not in `values`. */
  tornTail: boolean
  /** False when the last byte is not '\n': the next append must start a fresh line first. */
  endsWithNewline: boolean
}

export function parseJsonl(text: string): ParsedJsonl {
  const values: unknown[] = []
  const lines: number[] = []
  const problems: LoadProblem[] = []
  let tornTail = false
  let start = 0
  let lineNo = 0
  while (start < text.length) {
    const nl = text.indexOf('\n', start)
    const end = nl === -1 ? text.length : nl
    lineNo++
    const line = text.slice(start, end)
    start = end + 1
    if (line === '') continue
    try {
      values.push(JSON.parse(line))
      lines.push(lineNo)
    } catch (error) {
      if (line.trim() === '') continue
      // Writes are whole lines ending in '\n', so only the unterminated last line can be a
      // partial write; a bad line anywhere else was written bad (or edited by hand).
      const isLast = nl === -1
      if (isLast) tornTail = true
      problems.push({
        line: lineNo,
        kind: isLast ? 'torn-tail' : 'malformed',
        message: isLast
          ? `incomplete last line (${line.length} characters): a write was cut off; earlier records are intact`
          : `not JSON: ${(error as Error).message}`
      })
    }
  }
  return {
    values,
    lines,
    problems,
    tornTail,
    endsWithNewline: text.length === 0 || text.endsWith('\n')
  }
}
