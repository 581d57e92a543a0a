// `rewind-studio sessions`: the same discovery from the command line, homes found through the
// environment; what other tools' logs hold is printed with keys masked and control characters
// escaped.
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { claude, fakeHomes, writeClaudeSession, writePiSession } from './fake-homes'

describe('rewind-studio sessions', () => {
  it("lists a workspace's sessions from every tool, and every project with --all", async () => {
    const h = fakeHomes()
    writeClaudeSession(h, h.ws, [
      claude.user(
        h.ws,
        'c1',
        null,
        'deploy with sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789',
        '2026-03-01T10:00:00.000Z'
      )
    ])
    writePiSession(
      h,
      h.ws,
      [
        {
          type: 'session',
          version: 3,
          id: 'pi-1',
          timestamp: '2026-03-01T11:00:00.000Z',
          cwd: h.ws
        },
        {
          type: 'message',
          id: 'p1',
          parentId: null,
          timestamp: '2026-03-01T11:00:01.000Z',
          message: { role: 'user', content: 'title with \u001b]0;pwned\u0007 in it' }
        }
      ],
      '2026-03-01T11-00-00-000Z_pi-1.jsonl'
    )

    const json = await runCli(['sessions', '--cwd', h.ws, '--json'], { env: h.env })
    expect(json.stderr).toBe('')
    const listed = JSON.parse(json.stdout) as { source: string; title: string; prompts: number }[]
    expect(listed.map((s) => [s.source, s.prompts])).toEqual([
      ['pi', 1],
      ['claude-code', 1]
    ])
    expect(json.stdout).not.toContain('abcdefghijklmnopqrstuvwxyz')
    expect(listed[1]?.title).toMatch(/^deploy with sk-ant-…\(\d+ chars, masked\)$/)

    const text = await runCli(['sessions', '--cwd', h.ws], { env: h.env })
    expect(text.code).toBe(0)
    expect(text.stdout).not.toContain('\u001b')
    expect(text.stdout).toContain('title with \\x1b]0;pwned\\x07 in it')
    expect(text.stdout).toContain('claude-code')

    const all = await runCli(['sessions', '--all', '--json'], { env: h.env })
    expect(JSON.parse(all.stdout)).toEqual([expect.objectContaining({ cwd: h.ws, sessions: 2 })])
  })

  it('refuses an unknown option with the usage', async () => {
    const r = await runCli(['sessions', '--bogus'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('unknown option --bogus')
  })
})
