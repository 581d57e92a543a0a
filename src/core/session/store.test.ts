import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { encodeCwd, rewindStudioHome, sessionsDir } from './paths'
import { MAX_PERSIST_CHARS } from './truncate'
import { NotOurSessionError, SessionStore } from './store'

const open: SessionStore[] = []
const children: ChildProcessWithoutNullStreams[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.close()
  for (const c of children.splice(0)) c.kill('SIGKILL')
})

function home(): string {
  return mkdtempSync(join(tmpdir(), 'rs-session-'))
}
function create(h = home(), cwd = '/work/project'): SessionStore {
  const s = SessionStore.create({ home: h, cwd })
  open.push(s)
  return s
}
function reopen(file: string, opts?: { readOnly?: boolean }): SessionStore {
  const s = SessionStore.open(file, opts)
  open.push(s)
  return s
}

/** A real second process holding the session; resolves with its first output line. */
function holdInChild(
  file: string
): Promise<{ child: ChildProcessWithoutNullStreams; first: string; next: () => Promise<string> }> {
  const child = spawn(process.execPath, [
    '--import',
    'tsx',
    join(__dirname, '../../../test/session/fixtures/hold-session.ts'),
    file
  ])
  children.push(child)
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async () => String((await lines.next()).value)
  return next().then((first) => ({ child, first, next }))
}

describe('paths', () => {
  it('encodes the cwd like Claude Code and honours REWIND_STUDIO_HOME', () => {
    expect(encodeCwd('/Users/me/my_app.v2')).toBe('-Users-me-my-app-v2')
    expect(rewindStudioHome({ REWIND_STUDIO_HOME: '/tmp/rs' })).toBe('/tmp/rs')
    expect(rewindStudioHome({})).toMatch(/\.rewind-studio$/)
    // The encoded path, then 8 hex digits of sha256('/a/b'): /a-b encodes the same, not hashes.
    expect(sessionsDir('/h', '/a/b')).toBe('/h/sessions/-a-b-662b7b62')
    expect(sessionsDir('/h', '/a-b')).toMatch(/^\/h\/sessions\/-a-b-[0-9a-f]{8}$/)
    expect(sessionsDir('/h', '/a-b')).not.toBe(sessionsDir('/h', '/a/b'))
  })

  it('names the file <ISO time with : and . as ->_<uuidv7>.jsonl under the encoded cwd', () => {
    const s = create()
    expect(basename(s.file)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/)
    expect(basename(s.file)).toContain(s.sessionId)
    expect(s.sessionId[14]).toBe('7')
    expect(s.header).toMatchObject({
      type: 'session',
      version: 1,
      cwd: '/work/project',
      parentUuid: null
    })
  })
})

describe('a new session', () => {
  it('has no file until its first record: then the header and the record; left empty, nothing', () => {
    const s = create()
    expect([s.fileMade, existsSync(s.file)]).toEqual([false, false])
    // It holds the writer lock meanwhile: no second writer of the same name.
    expect(existsSync(`${s.file}.lock`)).toBe(true)
    expect(s.tree().header).toEqual(s.header)
    const prompt = s.appendMessage({ role: 'user', content: 'first' })
    expect(s.fileMade).toBe(true)
    const lines = readFileSync(s.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((l) => l.uuid)).toEqual([s.sessionId, prompt.uuid])
    expect(s.syncedBytes).toBe(statSync(s.file).size)
    expect(statSync(s.file).mode & 0o777).toBe(0o600)
    expect(
      reopen(s.file, { readOnly: true })
        .tree()
        .records.map((r) => (r as { uuid: string }).uuid)
    ).toEqual([s.sessionId, prompt.uuid])

    const empty = create()
    empty.close()
    expect(existsSync(empty.file)).toBe(false)
    expect(existsSync(`${empty.file}.lock`)).toBe(false)
  })

  it('never makes its file over another one: the append fails, that file is as it was', () => {
    const s = create()
    writeFileSync(s.file, 'not ours\n')
    expect(() => s.appendMessage({ role: 'user', content: 'first' })).toThrow(
      /nothing was appended/
    )
    expect(readFileSync(s.file, 'utf8')).toBe('not ours\n')
    expect(s.fileMade).toBe(false)
    expect(s.tree().records).toHaveLength(1)
    rmSync(s.file)
    s.appendMessage({ role: 'user', content: 'first' })
    expect(readFileSync(s.file, 'utf8').trim().split('\n')).toHaveLength(2)
  })
})

describe('appends', () => {
  it('throws "Entry <id> not found" for a summary, rewind or label naming an unknown entry', () => {
    const s = create()
    expect(() => s.appendBranchSummary({ fromId: 'nope', summary: 'x' })).toThrow(
      'Entry nope not found'
    )
    expect(() =>
      s.appendRewind({ leafUuid: 'nope', checkpointUuid: 'nope', mode: 'both' })
    ).toThrow('Entry nope not found')
    expect(() => s.appendLabel({ targetUuid: 'nope', label: 'x' })).toThrow('Entry nope not found')
    // Nothing was written: the new session has no file yet.
    expect(existsSync(s.file)).toBe(false)
  })

  it('refuses a code-only rewind that would move the leaf', () => {
    const s = create()
    const u1 = s.appendMessage({ role: 'user', content: 'one' })
    const a1 = s.appendMessage({ role: 'assistant', content: 'two' })
    expect(() => s.appendRewind({ leafUuid: null, checkpointUuid: u1.uuid, mode: 'code' })).toThrow(
      /code-only rewind keeps the leaf/
    )
    s.appendRewind({ leafUuid: a1.uuid, checkpointUuid: u1.uuid, mode: 'code' })
    expect(s.leafUuid).toBe(a1.uuid)
  })

  it('rejects content that is not message content, writing nothing', () => {
    const s = create()
    const bad = [{ text: 'no type' }] as unknown as string
    expect(() => s.appendMessage({ role: 'user', content: bad })).toThrow()
    expect(existsSync(s.file)).toBe(false)
    s.appendMessage({ role: 'user', content: 'good' })
    expect(() => s.appendMessage({ role: 'user', content: bad })).toThrow()
    expect(readFileSync(s.file, 'utf8').trim().split('\n')).toHaveLength(2)
  })

  it('chains messages from the leaf; a rewind appends and the next prompt branches from its leaf', () => {
    const s = create()
    const u1 = s.appendMessage({ role: 'user', content: 'add TIMEOUT' })
    const a1 = s.appendMessage({
      role: 'assistant',
      content: [{ type: 'text', text: 'done' }],
      model: 'm'
    })
    const u2 = s.appendMessage({ role: 'user', content: 'drop DEBUG' })
    s.appendFileChange({
      checkpointUuid: u2.uuid,
      path: 'config.py',
      before: 'h1',
      after: 'h2',
      source: 'Edit'
    })
    const before = readFileSync(s.file, 'utf8')
    const r = s.appendRewind({ leafUuid: a1.uuid, checkpointUuid: u2.uuid, mode: 'both' })
    expect(r.parentUuid).toBe(u2.uuid)
    expect(s.leafUuid).toBe(a1.uuid)
    const u3 = s.appendMessage({ role: 'user', content: 'only utils.py' })
    expect(u3.parentUuid).toBe(a1.uuid)
    expect(readFileSync(s.file, 'utf8').startsWith(before)).toBe(true)
    expect(s.tree().leaves()).toEqual([u2.uuid, u3.uuid])
    expect(
      s
        .tree()
        .checkpoints()
        .map((c) => c.prompt)
    ).toEqual(['add TIMEOUT', 'only utils.py'])
    expect(u1.parentUuid).toBeNull()
  })

  it('branch summary: a child of fromId (a root for "root") that becomes the leaf', () => {
    const s = create()
    const u1 = s.appendMessage({ role: 'user', content: 'explore' })
    s.appendMessage({ role: 'assistant', content: 'looked around' })
    const b = s.appendBranchSummary({
      fromId: u1.uuid,
      summary: 'A fails',
      details: { startedAt: 't' }
    })
    expect(b.parentUuid).toBe(u1.uuid)
    expect(s.leafUuid).toBe(b.uuid)
    const c = s.appendCustomMessage({ customType: 'rewind-report', hidden: true, content: 'use B' })
    expect(c.parentUuid).toBe(b.uuid)
    const root = s.appendBranchSummary({ fromId: 'root', summary: 'from scratch' })
    expect(root.parentUuid).toBeNull()
    expect(
      s
        .tree()
        .summaries()
        .map((x) => x.kind)
    ).toEqual(['branch_summary', 'rewind_report', 'branch_summary'])
  })

  it('labels and file changes do not move the leaf; navigate does', () => {
    const s = create()
    const u1 = s.appendMessage({ role: 'user', content: 'one' })
    const a1 = s.appendMessage({ role: 'assistant', content: 'two' })
    s.appendLabel({ targetUuid: u1.uuid, label: 'start' })
    s.appendFileChange({
      checkpointUuid: u1.uuid,
      path: 'a',
      before: null,
      after: 'h',
      source: 'Write'
    })
    expect(s.leafUuid).toBe(a1.uuid)
    s.appendNavigate({ leafUuid: u1.uuid, reason: 'switch-branch' })
    expect(s.leafUuid).toBe(u1.uuid)
    s.appendLabel({ targetUuid: u1.uuid, label: null })
    expect(s.tree().labels().size).toBe(0)
  })

  it('cuts content over MAX_PERSIST_CHARS with a visible notice, never dropping it silently', () => {
    const s = create()
    const big = 'x'.repeat(MAX_PERSIST_CHARS + 1234)
    const r = s.appendMessage({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't', content: big }]
    })
    const stored = JSON.stringify(r)
    expect(stored).toContain('1234 of 501234 characters were not saved')
    const reread = reopen(s.file, { readOnly: true }).tree().get(r.uuid)
    expect(JSON.stringify(reread)).toContain('characters were not saved')
    expect(stored.length).toBeLessThan(MAX_PERSIST_CHARS + 1000)
  })
})

describe('resume', () => {
  it('reopens on the leaf the last rewind set, even with nothing appended after it', () => {
    const s = create()
    const u1 = s.appendMessage({ role: 'user', content: 'one' })
    const a1 = s.appendMessage({ role: 'assistant', content: 'two' })
    const u2 = s.appendMessage({ role: 'user', content: 'three' })
    s.appendMessage({ role: 'assistant', content: 'four' })
    s.appendRewind({ leafUuid: a1.uuid, checkpointUuid: u2.uuid, mode: 'conversation' })
    s.close()
    const again = reopen(s.file)
    expect(again.leafUuid).toBe(a1.uuid)
    expect(
      again
        .tree()
        .activePath()
        .map((r) => r.uuid)
    ).toEqual([u1.uuid, a1.uuid])
    expect(again.appendMessage({ role: 'user', content: 'five' }).parentUuid).toBe(a1.uuid)
  })

  it('latest (--continue) is the most recently written session; find (--resume) takes an id or unique prefix', async () => {
    const h = home()
    const first = create(h)
    await new Promise((r) => setTimeout(r, 50))
    const second = create(h)
    second.appendMessage({ role: 'user', content: 'second' })
    // A session with no record has no file: it is not listed.
    create(h)
    await new Promise((r) => setTimeout(r, 50))
    first.appendMessage({ role: 'user', content: 'newer write' })
    expect(SessionStore.latest(h, '/work/project')).toBe(first.file)
    expect(SessionStore.list(h, '/work/project').map((x) => x.sessionId)).toEqual([
      first.sessionId,
      second.sessionId
    ])
    expect(SessionStore.find(h, '/work/project', second.sessionId)).toBe(second.file)
    expect(SessionStore.find(h, '/work/project', second.sessionId.slice(0, 30))).toBe(second.file)
    expect(() => SessionStore.find(h, '/work/project', '01')).toThrow(/ambiguous: 2 sessions/)
    expect(SessionStore.find(h, '/work/project', 'ffff')).toBeNull()
    expect(SessionStore.latest(h, '/elsewhere')).toBeNull()
  })
})

describe('crash safety', () => {
  it('writes an append that is not durable at once, and makes it durable with the next sync', () => {
    const s = create()
    const prompt = s.appendMessage({ role: 'user', content: 'hi' })
    const size = () => readFileSync(s.file).length
    expect(s.syncedBytes).toBe(size())
    const reply = s.appendMessage(
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { durable: false }
    )
    // On the file (and in the tree, readers see it), not yet synced.
    expect(readFileSync(s.file, 'utf8')).toContain(reply.uuid)
    expect(s.syncedBytes).toBeLessThan(size())
    s.sync()
    expect(s.syncedBytes).toBe(size())
    // A durable append covers what was written before it.
    s.appendCustomMessage({ customType: 'note', hidden: true, content: 'x' }, { durable: false })
    s.appendLabel({ targetUuid: prompt.uuid, label: 'start' })
    expect(s.syncedBytes).toBe(size())
    const again = SessionStore.open(s.file, { readOnly: true })
    expect(again.tree().get(reply.uuid)).toBeDefined()
    again.close()
  })

  it('reports a torn last line, keeps every complete record, and appends on a fresh line', () => {
    const s = create()
    const u1 = s.appendMessage({ role: 'user', content: 'kept' })
    s.close()
    appendFileSync(s.file, '{"type":"assistant","uuid":"torn","parentUuid":')
    const bytes = readFileSync(s.file)
    const again = reopen(s.file)
    expect(again.tornTail).toBe(true)
    expect(again.problems).toEqual([
      { line: 3, kind: 'torn-tail', message: expect.stringContaining('incomplete last line') }
    ])
    expect(again.leafUuid).toBe(u1.uuid)
    const a = again.appendMessage({ role: 'assistant', content: 'after the crash' })
    const text = readFileSync(again.file, 'utf8')
    expect(text.startsWith(bytes.toString())).toBe(true)
    again.close()
    const third = reopen(again.file)
    expect(third.problems.map((p) => p.kind)).toEqual(['malformed'])
    expect(
      third
        .tree()
        .activePath()
        .map((r) => r.uuid)
    ).toEqual([u1.uuid, a.uuid])
  })

  it('refuses to append when another program wrote to the file, writing nothing', () => {
    const s = create()
    s.appendMessage({ role: 'user', content: 'one' })
    appendFileSync(s.file, '{"type":"note"}\n')
    const size = readFileSync(s.file).length
    expect(() => s.appendMessage({ role: 'user', content: 'two' })).toThrow(/changed on disk/)
    expect(readFileSync(s.file).length).toBe(size)
  })

  it('refuses to open a file with no session header or of another format, changing nothing', () => {
    const dir = home()
    const file = join(dir, 'bad.jsonl')
    writeFileSync(file, '{"type":"user"\n')
    expect(() => SessionStore.open(file)).toThrow(
      /line 1 is no session header.*Nothing was changed/
    )
    // An expected refusal: every host says it as its message (the CLI without a stack trace).
    expect(() => SessionStore.open(file)).toThrow(NotOurSessionError)
    expect(readFileSync(file, 'utf8')).toBe('{"type":"user"\n')
    expect(existsSync(`${file}.lock`)).toBe(false)
    writeFileSync(file, '{"type":"session","version":3,"id":"p","timestamp":"t","cwd":"/"}\n')
    expect(() => SessionStore.open(file)).toThrow(/a pi session/)
  })

  it('keeps a file of a newer format read-only', () => {
    const dir = home()
    const file = join(dir, 'new.jsonl')
    writeFileSync(
      file,
      JSON.stringify({
        type: 'session',
        uuid: 's',
        parentUuid: null,
        timestamp: 't',
        version: 99,
        sessionId: 's',
        cwd: '/'
      }) + '\n'
    )
    const s = reopen(file)
    expect(s.readOnlyReason).toMatch(/newer Rewind Studio \(format 99/)
    expect(() => s.appendMessage({ role: 'user', content: 'x' })).toThrow(/read-only/)
  })

  it('a torn tail left by a partial write is not on the page: truncating mid-record loses only that record', () => {
    const s = create()
    const u1 = s.appendMessage({ role: 'user', content: 'one' })
    s.appendMessage({ role: 'assistant', content: 'two' })
    s.close()
    const size = readFileSync(s.file).length
    truncateSync(s.file, size - 10)
    const again = reopen(s.file)
    expect(again.tornTail).toBe(true)
    expect(again.leafUuid).toBe(u1.uuid)
  })
})

describe('one writer per session', () => {
  it('a second store in the same process gets it read-only and its appends throw', () => {
    const s = create()
    s.appendMessage({ role: 'user', content: 'mine' })
    const second = reopen(s.file)
    expect(second.readOnlyReason).toMatch(/is open in this process.*read-only/)
    expect(() => second.appendMessage({ role: 'user', content: 'x' })).toThrow(
      /read-only.*nothing was appended/
    )
  })

  it('a second process gets it read-only, naming the writer pid, and never appends', async () => {
    const s = create()
    s.appendMessage({ role: 'user', content: 'mine' })
    s.close()
    const writer = await holdInChild(s.file)
    expect(writer.first).toBe('ready')
    const other = reopen(s.file)
    expect(other.readOnlyReason).toContain(`process ${writer.child.pid}`)
    expect(() => other.appendMessage({ role: 'user', content: 'x' })).toThrow(/read-only/)
    const reader = await holdInChild(s.file)
    expect(reader.first).toBe(`read-only: ${other.readOnlyReason}`)
    reader.child.stdin.write('append\n')
    expect(await reader.next()).toMatch(/^error: .*read-only/)
    writer.child.stdin.write('append\n')
    const uuid = await writer.next()
    expect(readFileSync(s.file, 'utf8')).toContain(uuid)
  })

  it('takes over the stale lock of a writer that was killed', async () => {
    const s = create()
    s.appendMessage({ role: 'user', content: 'mine' })
    s.close()
    const writer = await holdInChild(s.file)
    expect(writer.first).toBe('ready')
    const exited = new Promise((r) => writer.child.on('exit', r))
    writer.child.kill('SIGKILL')
    await exited
    expect(existsSync(`${s.file}.lock`)).toBe(true)
    const next = reopen(s.file)
    expect(next.readOnlyReason).toBeNull()
    next.appendMessage({ role: 'user', content: 'after the crash' })
    next.close()
    expect(existsSync(`${s.file}.lock`)).toBe(false)
  })
})
