// Finding (lead's hostile-file pass, stop 22): "A session file of 2,000,000 lines of `x` (4 MB)
// after a valid header takes the app 40 s and 1.7 GB to open; `inspect` of 5,000,000 such lines
// (10 MB) 36 s. Each bad line became a problem object, and each failed JSON.parse an exception
// with a stack trace." Problems are listed up to MAX_LISTED_PROBLEMS per source and counted past
// that (ProblemLog); a line past the list that cannot start JSON is not parsed at all; the
// notices and `inspect` give the whole count. And records cost memory by their count (15,000,000
// lines of `{}`, 45 MB, took 2 GB): a file of more than MAX_RECORDS is refused in words, and the
// workspace opens a new session beside it.
import { appendFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_RECORDS } from '../../src/core/session/jsonl'
import { loadSessionText, readSessionFile } from '../../src/core/session/load'
import { sessionFileName, sessionsDir } from '../../src/core/session/paths'
import { MAX_LISTED_PROBLEMS } from '../../src/core/session/problems'
import { claudeCode } from '../../src/core/session/foreign/claude-code'
import { SessionStore } from '../../src/core/session/store'
import { openSessionStore } from '../../src/core/studio/open-session-store'
import { ViewedSession } from '../../src/core/studio/viewed-session'
import type { AppInfo } from '../../src/shared/views'
import { runCli } from '../support/cli'
import { studioHarnesses } from '../support/studio-harness'
import { copyFixture } from '../foreign/cc-fixtures'
import { assistant, header, user } from '../session/builders'

const GARBAGE = 30_000
const EMPTY_OBJECTS = 20_000

/** Our session: a prompt and its answer, then lines of garbage and of `{}` (JSON, no record). */
function hostileSession(file: string, sessionId: string, cwd: string): void {
  const records = [
    { ...header(sessionId), cwd },
    user('01900000-0000-7000-8000-000000000001', null, 'hello'),
    assistant('01900000-0000-7000-8000-000000000002', '01900000-0000-7000-8000-000000000001', 'hi')
  ]
  writeFileSync(
    file,
    records.map((record) => `${JSON.stringify(record)}\n`).join('') +
      'x\n'.repeat(GARBAGE) +
      '{}\n'.repeat(EMPTY_OBJECTS)
  )
}

const root = () => mkdtempSync(join(tmpdir(), 'rs-problems-'))

describe('a session file with a million problems', () => {
  it('lists the first ones of each source and counts the rest; a torn last line is still seen', () => {
    const file = join(root(), 'hostile.jsonl')
    hostileSession(file, 's1', '/work')
    appendFileSync(file, '{"type":"user","uu')

    const loaded = readSessionFile(file)
    // The lines' problems and the tree's, each listed up to the limit, and the torn line.
    expect(loaded.problems.length).toBe(2 * MAX_LISTED_PROBLEMS + 1)
    expect(loaded.problems.length + loaded.unlistedProblems).toBe(GARBAGE + EMPTY_OBJECTS + 1)
    expect(loaded.tornTail).toBe(true)
    expect(loaded.problems.at(-1)?.kind).toBe('torn-tail')
    // Listed ones keep JSON.parse's own words; the conversation before them is whole.
    expect(loaded.problems[0]).toEqual({
      line: 4,
      kind: 'malformed',
      message: expect.stringContaining('not JSON: Unexpected token')
    })
    expect(loaded.tree.size).toBe(2)
  })

  it("counts the tree's missing parents past the list too", () => {
    const orphans = MAX_LISTED_PROBLEMS + 500
    const text = [
      { ...header('s1'), cwd: '/work' },
      ...Array.from({ length: orphans }, (_, i) => user(`u${i}`, `gone${i}`, 'hello'))
    ]
      .map((record) => `${JSON.stringify(record)}\n`)
      .join('')
    const loaded = loadSessionText(text)
    expect(loaded.problems.filter((p) => p.kind === 'missing-parent')).toHaveLength(
      MAX_LISTED_PROBLEMS
    )
    expect(loaded.unlistedProblems).toBe(500)
  })

  it('`inspect` gives the whole count and lists the first ones', async () => {
    const file = join(root(), 'hostile.jsonl')
    hostileSession(file, 's1', '/work')
    const text = await runCli(['inspect', file])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(
      `Problems (${(GARBAGE + EMPTY_OBJECTS).toLocaleString('en-US')}):`
    )
    expect(text.stdout).toContain(
      `… and ${(GARBAGE + EMPTY_OBJECTS - 2 * MAX_LISTED_PROBLEMS).toLocaleString('en-US')} more, not listed`
    )
    const json = await runCli(['inspect', file, '--json'])
    const out = JSON.parse(json.stdout) as { problems: unknown[]; unlistedProblems: number }
    expect(out.problems.length + out.unlistedProblems).toBe(GARBAGE + EMPTY_OBJECTS)
  })

  it('the app opens it with one notice giving the whole count', async () => {
    const { harness } = studioHarnesses()
    const h = await harness()
    const sessionId = '01900000-0000-7000-8000-0000000000aa'
    const dir = sessionsDir(h.home, h.workspace)
    mkdirSync(dir, { recursive: true })
    hostileSession(
      join(dir, sessionFileName('2026-01-01T00:00:00.000Z', sessionId)),
      sessionId,
      h.workspace
    )
    const info = await h.value<AppInfo>('session:open', { sessionId })
    expect(info.notices.join('\n')).toContain(
      `${(GARBAGE + EMPTY_OBJECTS).toLocaleString('en-US')} problems in this session's file (line 4:`
    )
    expect(info.notices.join('\n')).toContain('lists the first ones')
  })

  it('a followed session counts what is appended past the list too', async () => {
    const cc = copyFixture('rewind-parallel')
    const session = new ViewedSession(cc.file, claudeCode, {
      home: cc.home,
      claudeHome: cc.claudeHome
    })
    try {
      let changes = 0
      session.follow(() => changes++)
      expect(session.problemsNotice()).toEqual([])
      appendFileSync(cc.file, 'x\n'.repeat(GARBAGE))
      await expect.poll(() => changes, { timeout: 10_000 }).toBeGreaterThan(0)
      await expect
        .poll(() => session.problemsNotice().join(''), { timeout: 10_000 })
        .toContain(`${GARBAGE.toLocaleString('en-US')} problems in this session's file`)
    } finally {
      session.close()
    }
  })

  it('of more records than are read: refused in words; the workspace opens a new session beside it', async () => {
    const home = root()
    const cwd = root()
    const sessionId = '01900000-0000-7000-8000-0000000000bb'
    const dir = sessionsDir(home, cwd)
    mkdirSync(dir, { recursive: true })
    const file = join(dir, sessionFileName('2026-01-01T00:00:00.000Z', sessionId))
    // Numbers: JSON that makes no object, so the test itself stays small (10 MB, no 2 GB).
    writeFileSync(
      file,
      `${JSON.stringify({ ...header(sessionId), cwd })}\n${'1\n'.repeat(MAX_RECORDS)}`
    )
    const size = statSync(file).size

    expect(() => SessionStore.open(file)).toThrow(
      `Cannot open ${file}: it holds more than 5,000,000 records, more than Rewind Studio reads`
    )
    const run = await runCli(['inspect', file])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('it holds more than 5,000,000 records')

    const store = openSessionStore(home, cwd, { kind: 'latest-or-new' })
    try {
      expect(store.file).not.toBe(file)
      expect(store.openingNotices).toEqual([
        expect.stringContaining('A new session was started; that file is unchanged.')
      ])
    } finally {
      store.close()
    }
    expect(statSync(file).size).toBe(size)
  })
})
