import { describe, expect, it } from 'vitest'
import { problemsNotice } from './problems'

const malformed = (line: number) => ({ line, kind: 'malformed' as const, message: 'not JSON' })

describe('problemsNotice', () => {
  it('says nothing for a file read whole, or only torn at its end', () => {
    expect(problemsNotice('/s.jsonl', [])).toEqual([])
    expect(problemsNotice('/s.jsonl', [{ line: 9, kind: 'torn-tail', message: 'cut' }])).toEqual([])
  })

  it('names the first problem and counts the rest', () => {
    expect(problemsNotice('/s.jsonl', [malformed(3), malformed(7)])).toEqual([
      "2 problems in this session's file (line 3: not JSON, and 1 more). Everything else is shown and the file is unchanged; `rewind-studio inspect /s.jsonl` lists them."
    ])
  })

  it('escapes what a message quotes of the line (JSON.parse quotes a bit of it)', () => {
    const [notice] = problemsNotice('/s.jsonl', [
      { line: 2, kind: 'malformed', message: 'not JSON: "\u202e\u001b]0;x" is not valid' }
    ])
    expect(notice).toContain('(line 2: not JSON: "\\u202e\\x1b]0;x" is not valid)')
  })

  it('quotes a path the shell would split or expand', () => {
    const [notice] = problemsNotice("/tmp/my dir/it's $HOME.jsonl", [malformed(1)])
    expect(notice).toContain("`rewind-studio inspect '/tmp/my dir/it'\\''s $HOME.jsonl'` lists it.")
  })
})
