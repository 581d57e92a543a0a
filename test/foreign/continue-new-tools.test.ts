// Continue in Rewind Studio from a Codex CLI, Gemini CLI and OpenCode session the real tools made
// (test/fixtures/<tool>): `cli continue` writes a session of ours holding the path, `cli chat
// --resume` carries it on against the loopback Messages API, and the request the model gets holds
// the conversation as the tool recorded it: the prompts in order, each tool call paired with its
// result. No file of the workspace is touched.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { readSessionFile } from '../../src/core/session/load'
import { runCli } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'
import { fingerprint } from './cc-fixtures'
import { type ToolHome, codexHome, geminiHome, openCodeHome } from './tool-homes'
import { join } from 'node:path'
import { readdirSync } from 'node:fs'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

type Block = { type: string; text?: string; id?: string; tool_use_id?: string }

function sessions(): [string, ToolHome, string][] {
  const codex = codexHome()
  const day = join(codex.toolHome, 'sessions', '2026', '12', '01')
  const rollout = join(day, readdirSync(day).find((f) => f.includes('f7bd')) ?? '')
  const gemini = geminiHome('gemini-home-before-restore', 'workspace-before-restore')
  const oc = openCodeHome('workspace-after')
  return [
    ['codex', codex, rollout],
    ['gemini-cli', gemini, gemini.chats[0] ?? ''],
    ['opencode', oc, `${oc.db}#ses_dcbdb4ef9ffewnZlETLnMy6hQS`]
  ]
}

describe('continue another tool’s session in Rewind Studio', () => {
  it.each(sessions())('%s', async (format, tool, file) => {
    const before = fingerprint(tool.workspace)
    const continued = await runCli(['continue', file, '--cwd', tool.workspace, '--json'], {
      env: tool.env
    })
    expect(continued.stderr).toBe('')
    expect(continued.code).toBe(0)
    const { sessionId, file: ours } = JSON.parse(continued.stdout) as {
      sessionId: string
      file: string
    }
    const header = JSON.parse(readFileSync(ours, 'utf8').split('\n')[0] ?? '{}') as Record<
      string,
      unknown
    >
    expect(header.continuedFrom).toMatchObject({ file, format })

    server = await startMessagesServer([
      { kind: 'message', content: [{ type: 'text', text: 'Carried on in Rewind Studio.' }] }
    ])
    const chat = await runCli(
      ['chat', '--cwd', tool.workspace, '--model', 'claude-test', '--resume', sessionId],
      {
        input: 'and now?\n/exit\n',
        env: { ...tool.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url }
      }
    )
    expect(chat.stdout).toContain('Carried on in Rewind Studio.')
    const messages = (
      server.requests[0]?.body as { messages: { role: string; content: Block[] | string }[] }
    ).messages
    const blocks = messages.flatMap((m) =>
      (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content).map(
        (b) => ({
          ...b,
          role: m.role
        })
      )
    )
    // The prompts as the tool's reader lists them, then the one typed here.
    const prompts = readSessionFile(file)
      .tree.checkpoints()
      .map((c) => c.prompt)
    const typed = blocks.filter((b) => b.role === 'user' && b.type === 'text').map((b) => b.text)
    for (const prompt of prompts) expect(typed).toContain(prompt)
    expect(typed.at(-1)).toBe('and now?')
    // Every tool call is answered by its result, in the next message.
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id)
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)
    expect(uses.length).toBeGreaterThan(0)
    expect(results).toEqual(uses)
    expect(fingerprint(tool.workspace)).toEqual(before)
  })
})
