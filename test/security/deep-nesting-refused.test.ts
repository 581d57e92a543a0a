// Finding (lead's hostile-file pass, stop 21): "A session line nested 200,000 levels deep (a tool
// input of arrays in arrays) cannot be opened: the app shows 'Maximum call stack size exceeded',
// and every later request of the page fails the same way until a restart." Every reader of a
// record recurses into it somewhere (JSON.stringify, masking, token estimates, views), so a record
// nested past MAX_RECORD_DEPTH is skipped as malformed when read, in our format and in another
// tool's, and refused when written; the rest of the session loads and the app goes on working.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_RECORD_DEPTH } from '../../src/core/session/json-depth'
import { loadSessionText, readSessionFile } from '../../src/core/session/load'
import { sessionFileName, sessionsDir } from '../../src/core/session/paths'
import { SessionStore } from '../../src/core/session/store'
import { SessionWriteError } from '../../src/core/session/session-write-error'
import type { AppInfo, SessionGraph } from '../../src/shared/views'
import { runCli, seedWorkspace } from '../support/cli'
import { studioHarnesses } from '../support/studio-harness'
import { assistant, header, user } from '../session/builders'

/** JSON text of `depth` arrays nested in each other (JSON.parse reads it without recursion). */
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`

/** An assistant record whose tool input nests `depth` + 2 levels below the record itself. */
function deepToolCall(uuid: string, parentUuid: string, depth: number): string {
  const record = JSON.stringify({
    ...assistant(uuid, parentUuid),
    message: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: `t-${uuid}`, name: 'Bash', input: { x: 'DEEP' } }]
    }
  })
  return record.replace('"DEEP"', nested(depth))
}

const line = (record: unknown) => JSON.stringify(record)

/** Our session: a prompt, a deep answer, a prompt after it, its answer. */
function deepSession(depth: number, sessionId = 's1'): string {
  return [
    line({ ...header(sessionId), cwd: '/work' }),
    line(user('u1', null)),
    deepToolCall('a1', 'u1', depth),
    line(user('u2', 'a1')),
    line(assistant('a2', 'u2'))
  ]
    .map((l) => `${l}\n`)
    .join('')
}

const root = () => mkdtempSync(join(tmpdir(), 'rs-deep-'))

describe('a record nested too deep', () => {
  it('is kept up to the limit and skipped past it, as a malformed line; the rest loads', () => {
    // The record nests 5 levels around the input (record, message, content, block, input).
    const atLimit = loadSessionText(deepSession(MAX_RECORD_DEPTH - 5))
    expect(atLimit.problems).toEqual([])
    expect(atLimit.tree.get('a1')).toBeDefined()

    for (const depth of [MAX_RECORD_DEPTH - 4, 200_000]) {
      const loaded = loadSessionText(deepSession(depth))
      expect(loaded.problems).toEqual([
        {
          line: 3,
          kind: 'malformed',
          message: expect.stringContaining(`nested deeper than ${MAX_RECORD_DEPTH} levels`)
        },
        // As after any skipped line, the prompt after it is shown as a root.
        { line: 4, kind: 'missing-parent', message: expect.any(String) }
      ])
      expect(loaded.tree.get('a1')).toBeUndefined()
      expect(loaded.tree.get('u2')).toBeDefined()
      expect(loaded.tree.get('a2')).toBeDefined()
    }
  })

  it("is skipped in another tool's transcript too (Claude Code)", () => {
    const fixture = join(
      'test/fixtures/claude-code/rewind-parallel/claude/projects/-tmp-cc-offline-fZeFtF-ws',
      '7d7a2229-dbc1-4214-af1e-e197f89a6e19.jsonl'
    )
    const lines = readFileSync(fixture, 'utf8').split('\n').filter(Boolean)
    type Block = { type?: unknown; input?: unknown }
    const records = lines.map((l) => JSON.parse(l) as { message?: { content?: unknown } })
    const at = records.findIndex(
      (r) =>
        Array.isArray(r.message?.content) &&
        (r.message.content as Block[]).some((b) => b.type === 'tool_use')
    )
    const record = records[at] as { message: { content: Block[] } }
    const block = record.message.content.find((b) => b.type === 'tool_use') as Block
    block.input = { x: 'DEEP' }
    lines[at] = JSON.stringify(record).replace('"DEEP"', nested(200_000))
    const file = join(root(), 'claude.jsonl')
    writeFileSync(file, `${lines.join('\n')}\n`)

    const loaded = readSessionFile(file)
    expect(loaded.format).toBe('claude-code')
    expect(loaded.problems).toContainEqual({
      line: at + 1,
      kind: 'malformed',
      message: expect.stringContaining('nested deeper')
    })
    expect(loaded.tree.size).toBeGreaterThan(3)
  })

  it('`inspect` lists it as a problem and prints the rest', async () => {
    const file = join(root(), 'deep.jsonl')
    writeFileSync(file, deepSession(200_000))
    const run = await runCli(['inspect', file, '--json'])
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout) as { problems: { line: number }[]; nodes: number }
    expect(out.problems.map((p) => p.line)).toEqual([3, 4])
    expect(out.nodes).toBe(3)
  })

  it('is refused when written: nothing is appended, and the session stays usable', () => {
    const { workspace, home } = seedWorkspace()
    const store = SessionStore.create({ home, cwd: workspace })
    try {
      store.appendMessage({ role: 'user', content: 'hi' })
      const size = statSync(store.file).size
      // Past the limit, and past where JSON.stringify itself overflows the stack.
      for (const depth of [MAX_RECORD_DEPTH, 10_000, 200_000]) {
        const input = JSON.parse(nested(depth)) as unknown
        const content = [{ type: 'tool_use', id: 't1', name: 'Bash', input }]
        expect(() => store.appendMessage({ role: 'assistant', content })).toThrow(SessionWriteError)
        expect(statSync(store.file).size).toBe(size)
      }
      store.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'fine' }] })
      expect(readSessionFile(store.file).problems).toEqual([])
    } finally {
      store.close()
    }
  })
})

describe('the app opening such a session', () => {
  const { harness } = studioHarnesses()

  it('opens it with the problem listed and keeps answering every request', async () => {
    const h = await harness()
    const sessionId = '01a23126-a977-760a-8cc0-000000000001'
    const dir = sessionsDir(h.home, h.workspace)
    mkdirSync(dir, { recursive: true })
    const file = join(dir, sessionFileName('2026-01-01T00:00:00.000Z', sessionId))
    writeFileSync(
      file,
      deepSession(200_000, sessionId).replace('"/work"', JSON.stringify(h.workspace))
    )

    const opened = await h.call('session:open', { sessionId })
    expect(opened).toMatchObject({ ok: true })
    const info = await h.value<AppInfo>('app:info')
    expect(info.notices).toContainEqual(
      expect.stringMatching(
        /^2 problems in this session's file \(line 3: nested deeper than 1000 levels.*, and 1 more\)/
      )
    )
    const graph = await h.value<SessionGraph>('session:graph')
    expect(graph.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['u1', 'u2']))
    await h.sendAndWait('add TIMEOUT = 30 to config.py')
    expect(readFileSync(join(h.workspace, 'config.py'), 'utf8')).toContain('TIMEOUT = 30')
  })
})
