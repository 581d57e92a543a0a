// The inspect command as a user runs it: a real child process on real files.
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync, appendFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../../src/core/session/store'

const root = resolve(__dirname, '../..')
const run = promisify(execFile)

async function inspect(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [
      join(root, 'bin/rewind-studio.mjs'),
      'inspect',
      ...args
    ])
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** A session with a rewind, a summary, a file change, a label and a torn last line. */
function sampleSession() {
  const home = mkdtempSync(join(tmpdir(), 'rs-inspect-'))
  const s = SessionStore.create({ home, cwd: '/work/p' })
  const u1 = s.appendMessage({ role: 'user', content: 'add TIMEOUT' })
  const a1 = s.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'added' }] })
  s.appendFileChange({
    checkpointUuid: u1.uuid,
    path: 'config.py',
    before: 'h0',
    after: 'h1',
    source: 'Edit'
  })
  const u2 = s.appendMessage({ role: 'user', content: 'drop DEBUG' })
  s.appendMessage({
    role: 'assistant',
    content: [{ type: 'tool_use', id: 't', name: 'Edit', input: {} }]
  })
  s.appendRewind({ leafUuid: a1.uuid, checkpointUuid: u2.uuid, mode: 'both' })
  const b = s.appendBranchSummary({ fromId: a1.uuid, summary: 'dropping DEBUG broke the tests' })
  const u3 = s.appendMessage({ role: 'user', content: 'only utils.py' })
  s.appendLabel({ targetUuid: u3.uuid, label: 'second try' })
  s.close()
  appendFileSync(s.file, '{"type":"assistant","uu')
  return { file: s.file, sessionId: s.sessionId, u1, a1, b, u3 }
}

describe('rewind-studio inspect', () => {
  it('fails with usage for no file, and with a clear message for a missing one', async () => {
    const none = await inspect()
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('Usage: rewind-studio inspect FILE [--json]')
    const missing = await inspect('/nonexistent/x.jsonl', '--json')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('inspect: cannot read /nonexistent/x.jsonl')
  })

  it('--json gives the format, ids, leaf, active path, checkpoints, summaries and problems', async () => {
    const s = sampleSession()
    const { code, stdout } = await inspect(s.file, '--json')
    expect(code).toBe(0)
    const out = JSON.parse(stdout)
    expect(out).toMatchObject({
      format: 'rewind-studio',
      sessionId: s.sessionId,
      records: 10,
      tornTail: true,
      leaves: 2,
      leaf: s.u3.uuid,
      activePath: [s.u1.uuid, s.a1.uuid, s.b.uuid, s.u3.uuid],
      checkpoints: [
        { index: 1, uuid: s.u1.uuid, prompt: 'add TIMEOUT', filesChanged: 1 },
        { index: 2, uuid: s.u3.uuid, prompt: 'only utils.py', filesChanged: 0 }
      ],
      summaries: [{ uuid: s.b.uuid, fromId: s.a1.uuid, summary: 'dropping DEBUG broke the tests' }]
    })
    expect(out.problems).toEqual([{ line: 11, kind: 'torn-tail', message: expect.any(String) }])
  })

  it('prints an indented tree with the active path and leaf marked, checkpoints and problems', async () => {
    const s = sampleSession()
    const { stdout } = await inspect(s.file)
    const lines = stdout.split('\n')
    expect(lines).toContain(`* ${s.u1.uuid.slice(-8)} prompt: add TIMEOUT`)
    expect(lines.some((l) => /^ {2}[0-9a-f]{8} prompt: drop DEBUG$/.test(l))).toBe(true)
    expect(lines).toContain(
      `*   └ ${s.b.uuid.slice(-8)} branch summary: dropping DEBUG broke the tests`
    )
    expect(lines).toContain(`>   ${s.u3.uuid.slice(-8)} prompt: only utils.py  [second try]`)
    expect(stdout).toContain(`  1. ${s.u1.uuid.slice(-8)} add TIMEOUT (1 file changed)`)
    expect(stdout).toMatch(/line 11: torn-tail: incomplete last line/)
  })

  it('lists bad lines without changing the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-inspect-bad-'))
    const file = join(dir, 'bad.jsonl')
    const text =
      '{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"t","message":{"role":"user","content":"hi"}}\nnot json\n'
    writeFileSync(file, text)
    const out = JSON.parse((await inspect(file, '--json')).stdout)
    expect(out.problems.map((p: { line: number; kind: string }) => [p.line, p.kind])).toEqual([
      [1, 'invalid-record'],
      [2, 'malformed']
    ])
    expect(out.activePath).toEqual(['u1'])
  })
})
