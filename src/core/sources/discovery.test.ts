// Discovery: a workspace's sessions from every tool's home (ours, Claude Code, pi, oh-my-pi), with
// source, title, last activity and prompt count, newest first; All projects; and the session index
// behind them: a second listing reads no file whose size and mtime did not change, a file that
// grew is read from where reading stopped, a replaced or damaged one is read again.
import {
  appendFileSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
  closeSync,
  statSync,
  utimesSync
} from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Sources } from './discovery'
import { cacheDir } from './file-cache'
import { type SessionSource, sourceHomes } from './homes'
import { SessionIndex } from './session-index'
import { addRecord, emptySummarized } from './session-summary'
import { readJsonlFile } from '../session/jsonl'
import { corpusDir, haveCorpus } from '../../../test/support/corpus'
import { writeSyntheticSession } from '../../../test/session/synthetic'
import { SessionStore } from '../session/store'
import { writeSettings } from '../settings'
import {
  type FakeHomes,
  claude,
  fakeHomes,
  jsonl,
  ompTitleSlot,
  writeClaudeSession,
  writeOmpSession,
  writePiSession
} from '../../../test/sources/fake-homes'

/** One session per tool in the workspace, each a minute apart (ours is the newest). */
function populated(): FakeHomes & {
  files: { claude: string; pi: string; omp: string; ours: string }
} {
  const h = fakeHomes()
  const { ws } = h
  const claudeFile = writeClaudeSession(h, ws, [
    { type: 'file-history-snapshot', messageId: 'c1', snapshot: { trackedFileBackups: {} } },
    claude.user(ws, 'c1', null, 'fix the login form', '2026-03-01T10:00:00.000Z'),
    claude.assistant(ws, 'c2', 'c1', 'Looking.', '2026-03-01T10:00:05.000Z'),
    claude.user(
      ws,
      'c3',
      'c2',
      [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }],
      '2026-03-01T10:00:06.000Z'
    ),
    claude.user(ws, 'c4', 'c3', 'Caveat: harness text', '2026-03-01T10:00:07.000Z', {
      isMeta: true
    }),
    claude.user(
      ws,
      'c5',
      'c4',
      '<command-name>/clear</command-name><command-message>clear</command-message>',
      '2026-03-01T10:00:08.000Z'
    ),
    claude.user(ws, 'c6', 'c5', 'sub-agent prompt', '2026-03-01T10:00:09.000Z', {
      isSidechain: true
    }),
    claude.user(ws, 'c7', 'c5', 'now the signup form', '2026-03-01T10:01:00.000Z'),
    { type: 'summary', summary: 'Login form fixes', leafUuid: 'c7' }
  ])
  const piFile = writePiSession(
    h,
    ws,
    [
      { type: 'session', version: 3, id: 'pi-1', timestamp: '2026-03-01T10:02:00.000Z', cwd: ws },
      {
        type: 'message',
        id: 'p1',
        parentId: null,
        timestamp: '2026-03-01T10:02:01.000Z',
        message: { role: 'user', content: [{ type: 'text', text: 'write the README' }] }
      },
      {
        type: 'message',
        id: 'p2',
        parentId: 'p1',
        timestamp: '2026-03-01T10:02:02.000Z',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }
      },
      { type: 'session_info', id: 'p3', parentId: 'p2', name: 'Docs pass' }
    ],
    '2026-03-01T10-02-00-000Z_pi-1.jsonl'
  )
  const ompFile = writeOmpSession(
    h,
    '-some-folder-name-1a2b3c4d',
    ompTitleSlot('Refactor importer') +
      jsonl([
        {
          type: 'session',
          version: 3,
          id: 'omp-1',
          timestamp: '2026-03-01T10:03:00.000Z',
          cwd: ws
        },
        {
          type: 'message',
          id: 'o1',
          parentId: null,
          timestamp: '2026-03-01T10:03:01.000Z',
          message: { role: 'user', content: 'split the importer' }
        }
      ]),
    '2026-03-01T10-03-00-000Z_omp-1.jsonl'
  )
  const ours = SessionStore.create({ home: h.home, cwd: ws })
  ours.appendMessage({ role: 'user', content: 'add a test for login' })
  ours.appendMessage({ role: 'assistant', content: 'Added.' })
  ours.close()
  return { ...h, files: { claude: claudeFile, pi: piFile, omp: ompFile, ours: ours.file } }
}

describe('the sessions of a workspace', () => {
  it('come from every tool, with source, title, last activity and prompts, newest first', () => {
    const h = populated()
    const listed = new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    expect(
      listed.map((s) => [s.source, s.title, s.summary.prompts, s.summary.firstPrompt, s.problem])
    ).toEqual([
      ['rewind-studio', 'add a test for login', 1, 'add a test for login', null],
      ['oh-my-pi', 'Refactor importer', 1, 'split the importer', null],
      ['pi', 'Docs pass', 1, 'write the README', null],
      // Not prompts: the tool result, the meta record, the sub-agent's prompt. /clear is one:
      // Claude Code lists it in /rewind (test/foreign/claude-code-rewind-list.test.ts).
      ['claude-code', 'Login form fixes', 3, 'fix the login form', null]
    ])
    expect(listed.map((s) => s.file)).toEqual([
      h.files.ours,
      h.files.omp,
      h.files.pi,
      h.files.claude
    ])
    expect(listed[3]).toMatchObject({
      sessionId: 'cc-session-1',
      createdAt: '2026-03-01T10:00:00.000Z',
      lastActivity: '2026-03-01T10:01:00.000Z'
    })
  })

  it('leave out a session recorded for another folder that shares its encoded name', () => {
    const h = populated()
    // /x/my-project and /x/my/project both encode to -x-my-project in Claude Code's folders.
    const other = join(h.base, 'my', 'project')
    writeClaudeSession(
      h,
      other,
      [claude.user(other, 'z1', null, 'elsewhere', '2026-03-01T11:00:00.000Z')],
      'other.jsonl',
      readdirSync(join(h.homes['claude-code'], 'projects'))[0]
    )
    const listed = new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    expect(listed.map((s) => s.title)).not.toContain('elsewhere')
    expect(listed).toHaveLength(4)
  })
})

describe('All projects', () => {
  it('lists every project found in the homes with its session count per tool', () => {
    const h = populated()
    const elsewhere = join(h.base, 'elsewhere')
    writeClaudeSession(
      h,
      elsewhere,
      [claude.user(elsewhere, 'e1', null, 'hi', '2026-02-01T00:00:00.000Z')],
      'e.jsonl'
    )
    writeClaudeSession(
      h,
      elsewhere,
      [claude.user(elsewhere, 'e2', null, 'again', '2026-02-02T00:00:00.000Z')],
      'f.jsonl'
    )
    const projects = new Sources({ home: h.home, homes: h.homes }).projects()
    expect(projects.map((p) => [p.cwd, p.sessions])).toEqual(
      expect.arrayContaining([
        [h.ws, 4],
        [elsewhere, 2]
      ])
    )
    const mine = projects.find((p) => p.cwd === h.ws)
    expect(mine?.folders.map((f) => [f.source, f.sessions]).sort()).toEqual([
      ['claude-code', 1],
      ['oh-my-pi', 1],
      ['pi', 1],
      ['rewind-studio', 1]
    ])
  })
})

describe('All projects beside the workspace list', () => {
  it('counts and dates what the workspace list has read as it lists it, the rest by its files', () => {
    const h = populated()
    const folder = join(h.files.claude, '..')
    // Beside the session: an empty file, and one of no records naming a cwd (not JSON).
    writeFileSync(join(folder, 'empty.jsonl'), '')
    writeFileSync(join(folder, 'garbage.jsonl'), 'root:x:0:0:root:/root:/bin/bash\n')
    const old = new Date('2020-01-01T00:00:00.000Z')
    for (const name of readdirSync(folder)) utimesSync(join(folder, name), old, old)
    const claudeOf = () =>
      new Sources({ home: h.home, homes: h.homes })
        .projects()
        .find((p) => p.cwd === h.ws)
        ?.folders.find((f) => f.source === 'claude-code')
    const lastOf = () =>
      new Sources({ home: h.home, homes: h.homes }).projects().find((p) => p.cwd === h.ws)
    // Unread: the files themselves (no empty file is a session of any tool's), dated when written.
    expect(claudeOf()?.sessions).toBe(2)
    const listed = new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    const claudeListed = listed.filter((s) => s.source === 'claude-code')
    expect(claudeListed).toHaveLength(1)
    // Read by the workspace list: the same sessions, each dated by its records.
    expect(claudeOf()?.sessions).toBe(claudeListed.length)
    expect(lastOf()?.lastActivity).toBe(
      listed.map((s) => s.lastActivity).reduce((a, b) => (b > a ? b : a))
    )
  })
})

describe('the session index', () => {
  it('lets a second listing read no file whose size and mtime did not change', () => {
    const h = populated()
    const first = new Sources({ home: h.home, homes: h.homes })
    first.workspaceSessions(h.ws)
    first.projects()
    expect(first.index.reads.files).toBeGreaterThanOrEqual(4)

    // A new process: the index comes from the data home.
    const second = new Sources({ home: h.home, homes: h.homes })
    const again = second.workspaceSessions(h.ws)
    second.projects()
    expect(second.index.reads).toEqual({ files: 0, bytes: 0 })
    expect(again.map((s) => s.summary.prompts)).toEqual([1, 1, 1, 3])
  })

  it('reads only the new lines of a file that grew; a half-written line waits for its newline', () => {
    const h = populated()
    new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    const line = JSON.stringify(
      claude.user(h.ws, 'c8', 'c7', 'and the reset form', '2026-03-01T10:05:00.000Z')
    )
    appendFileSync(h.files.claude, line.slice(0, 40))
    const sources = new Sources({ home: h.home, homes: h.homes })
    const claudeOf = () =>
      sources.workspaceSessions(h.ws).find((s) => s.source === 'claude-code')?.summary
    expect(claudeOf()?.prompts).toBe(3)
    expect(sources.index.reads.files).toBe(1)
    // The fingerprints (a few hundred bytes at most) and the 40 new bytes: not the whole file.
    expect(sources.index.reads.bytes).toBeLessThan(400 + 40)

    appendFileSync(h.files.claude, `${line.slice(40)}\n`)
    expect(claudeOf()).toMatchObject({ prompts: 4, lastActivity: '2026-03-01T10:05:00.000Z' })
    expect(sources.index.reads.files).toBe(2)
    expect(sources.index.reads.bytes).toBeLessThan(2 * 400 + line.length + 1)
  })

  it('reads a replaced or rewritten file again from the start', () => {
    const h = populated()
    new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    // Replaced (a new inode) by a longer file whose first records differ.
    const replacement = `${h.files.claude}.new`
    writeFileSync(
      replacement,
      jsonl([
        claude.user(h.ws, 'r1', null, 'a different start', '2026-03-01T09:00:00.000Z'),
        claude.assistant(h.ws, 'r2', 'r1', 'x'.repeat(2000), '2026-03-01T09:00:01.000Z')
      ])
    )
    renameSync(replacement, h.files.claude)
    // oh-my-pi rewrites its title line in place: same size, new title.
    const fd = openSync(h.files.omp, 'r+')
    writeSync(fd, ompTitleSlot('Importer, renamed', 'user'), 0)
    closeSync(fd)

    const listed = new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    const by = (source: string) => listed.find((s) => s.source === source)
    expect(by('claude-code')).toMatchObject({ title: 'a different start' })
    expect(by('claude-code')?.summary.prompts).toBe(1)
    expect(by('oh-my-pi')?.title).toBe('Importer, renamed')
  })

  it('is rebuilt when damaged, and the listing is the same', () => {
    const h = populated()
    const before = new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    const indexFiles = readdirSync(cacheDir(h.home))
    expect(indexFiles.length).toBeGreaterThan(0)
    for (const [i, name] of indexFiles.entries()) {
      const file = join(cacheDir(h.home), name)
      // Cut mid-JSON, valid JSON of another shape, a wrong value inside a valid layout.
      const text = readFileSync(file, 'utf8')
      writeFileSync(
        file,
        i % 3 === 0
          ? text.slice(0, text.length / 2)
          : i % 3 === 1
            ? '[1,2,3]'
            : text.replace(/"prompts":\d+/g, '"prompts":"many"')
      )
    }
    const sources = new Sources({ home: h.home, homes: h.homes })
    expect(sources.workspaceSessions(h.ws)).toEqual(before)
    expect(sources.index.reads.files).toBeGreaterThanOrEqual(4)
    for (const name of readdirSync(cacheDir(h.home))) {
      const cached = JSON.parse(readFileSync(join(cacheDir(h.home), name), 'utf8')) as object
      expect(cached).toMatchObject({ version: 4 })
    }
  })

  it('is private: the index folder and its files are for the owner only', () => {
    const h = populated()
    new Sources({ home: h.home, homes: h.homes }).workspaceSessions(h.ws)
    expect(statSync(cacheDir(h.home)).mode & 0o777).toBe(0o700)
    for (const name of readdirSync(cacheDir(h.home))) {
      expect(statSync(join(cacheDir(h.home), name)).mode & 0o777).toBe(0o600)
    }
  })
})

describe('which files are session files', () => {
  it('are the *.jsonl files directly in a project folder of a known home', () => {
    const h = populated()
    const sources = new Sources({ home: h.home, homes: h.homes })
    expect(sources.sourceOf(h.files.claude)).toBe('claude-code')
    expect(sources.sourceOf(h.files.omp)).toBe('oh-my-pi')
    expect(sources.sourceOf(h.files.ours)).toBe('rewind-studio')
    const nested = join(h.files.claude.replace(/\.jsonl$/, ''), 'subagents', 'agent-1.jsonl')
    expect(sources.sourceOf(nested)).toBeNull()
    expect(sources.sourceOf(join(h.ws, 'notes.jsonl'))).toBeNull()
    expect(sources.sourceOf('/etc/passwd')).toBeNull()
  })
})

describe('where the homes are', () => {
  it('is read from the environment first, then settings, then each tool’s default', () => {
    const h = fakeHomes()
    writeSettings(h.home, { sources: { claudeCodeHome: '/from/settings', piHome: '/pi/settings' } })
    expect(sourceHomes(h.home, { HOME: '/home/u' })).toMatchObject({
      'claude-code': '/from/settings',
      pi: '/pi/settings'
    })
    expect(
      sourceHomes(h.home, {
        CLAUDE_CONFIG_DIR: '/claude/env',
        PI_CODING_AGENT_DIR: '/pi/env',
        REWIND_STUDIO_OMP_HOME: '/omp/env'
      })
    ).toMatchObject({ 'claude-code': '/claude/env', pi: '/pi/env', 'oh-my-pi': '/omp/env' })
    expect(
      sourceHomes(h.home, { CLAUDE_CONFIG_DIR: '/claude/env', REWIND_STUDIO_CLAUDE_HOME: '/ours' })
    ).toMatchObject({ 'claude-code': '/ours' })
  })
})

describe('the summary the index keeps', () => {
  it.skipIf(!haveCorpus)(
    'is the summary of every complete line parsed, read at once or in two parts (real Claude Code and pi files, a synthetic session)',
    () => {
      const h = fakeHomes()
      const corpus = corpusDir
      const synthetic = join(h.base, 'synthetic.jsonl')
      writeSyntheticSession(synthetic, 2 * 1024 * 1024)
      const files: [string, SessionSource][] = [
        [
          join(corpus, 'claude-code/entireio-cli_9b-3838281539_v2.1.33_file-history.jsonl'),
          'claude-code'
        ],
        [
          join(corpus, 'claude-code/claude-code-viewer_5c0375b4_v1.0.108_inline-sidechain.jsonl'),
          'claude-code'
        ],
        [join(corpus, 'pi/large-session.v1.jsonl'), 'pi'],
        [synthetic, 'rewind-studio']
      ]
      for (const [file, source] of files) {
        // The complete lines only: the index leaves a last line without its newline for later
        // (a writer may be half-way through it), and some corpus files end without one.
        const text = readFileSync(file, 'utf8')
        const complete = text.slice(0, text.lastIndexOf('\n') + 1)
        const folder = mkdtempSync(join(h.base, 'copy-'))
        const copy = join(folder, basename(file))
        writeFileSync(copy, complete)
        const every = emptySummarized()
        for (const value of readJsonlFile(copy).values) addRecord(every, source, value)
        const index = new SessionIndex(h.home)
        const [atOnce] = index.folder(folder, source)
        expect(atOnce?.summary, basename(file)).toEqual(every.summary)
        expect(index.changedPaths([atOnce!]), basename(file)).toEqual([every.changed])

        // Half the lines, indexed, then the rest appended: read on from where reading stopped.
        const half = complete.indexOf('\n', complete.length >> 1) + 1
        const home = mkdtempSync(join(h.base, 'home-'))
        writeFileSync(copy, complete.slice(0, half))
        new SessionIndex(home).folder(folder, source)
        appendFileSync(copy, complete.slice(half))
        const twice = new SessionIndex(home)
        const [inTwo] = twice.folder(folder, source)
        expect(inTwo?.summary, basename(file)).toEqual(every.summary)
        // The changed paths too, read on from the other cache file's (not read again whole).
        const readsOfTheRest = { ...twice.reads }
        expect(twice.changedPaths([inTwo!]), basename(file)).toEqual([every.changed])
        expect(twice.reads).toEqual(readsOfTheRest)
      }
    }
  )
})
