// Continue in Rewind Studio, end to end with real Claude Code sessions: `cli continue` writes a
// session of ours holding the path to a node, `cli chat --resume` carries it on against the
// loopback Messages API, and the request the model gets is the conversation Claude Code itself
// sent at that point (its recorded request, without the reminders it adds on its own).
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'
import {
  type FixtureName,
  conversationOf,
  copyFixture,
  modelRequest,
  readLines
} from './cc-fixtures'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

/** Continues `name` at `at`, sends Claude Code's next prompt in chat; returns what the API got. */
async function continueAndSend(name: FixtureName, at: string) {
  const cc = copyFixture(name)
  const continued = await runCli(
    ['continue', cc.file, '--at', at, '--cwd', cc.workspace, '--json'],
    { env: cc.env }
  )
  expect(continued.stderr).toBe('')
  expect(continued.code).toBe(0)
  const { sessionId, file } = JSON.parse(continued.stdout) as { sessionId: string; file: string }
  server = await startMessagesServer([
    { kind: 'message', content: [{ type: 'text', text: 'Carried on in Rewind Studio.' }] }
  ])
  const { prompt } = modelRequest(name)
  const chat = await runCli(
    ['chat', '--cwd', cc.workspace, '--model', 'claude-test', '--resume', sessionId],
    {
      input: `${prompt}\n/exit\n`,
      env: { ...cc.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url }
    }
  )
  expect(chat.stdout).toContain('Carried on in Rewind Studio.')
  return { cc, file, request: server.requests[0]?.body }
}

describe('continue a Claude Code session in Rewind Studio', () => {
  it('after a real rewind: the branch the prompt continued, tool calls and results paired', async () => {
    // Turn 1 ("create the config") is where Claude Code's rewind made its new branch.
    const { cc, file, request } = await continueAndSend('rewind-parallel', '1')
    const header = readLines(file)[0]
    expect(header?.continuedFrom).toEqual({
      file: cc.file,
      format: 'claude-code',
      sessionId: cc.sessionId,
      nodeUuid: expect.any(String) as unknown
    })
    expect(conversationOf(request?.messages ?? [])).toEqual(
      conversationOf(modelRequest('rewind-parallel').messages)
    )
    // The carried turns keep the times Claude Code logged them at.
    const said = new Set(readLines(cc.file).map((r) => r.timestamp))
    const carried = readLines(file).filter((r) => r.type === 'user' || r.type === 'assistant')
    expect(carried.length).toBeGreaterThan(2)
    const copies = carried.slice(0, -2) // the prompt sent here and its answer are new
    expect(copies.every((r) => said.has(r.timestamp))).toBe(true)
    // Nothing of the workspace was touched: the files are as Claude Code left them.
    expect(readFileSync(`${cc.workspace}/config.txt`, 'utf8')).toBe('mode=c\n')
  })

  it('after two compactions: the last summary, the message it kept, and what followed', async () => {
    const cc = copyFixture('compact-subagents')
    // The second /compact: the prompt Claude Code lists after its compaction, whose output it
    // sent the model before "last words".
    const commands = readLines(cc.file).filter(
      (r) => r.type === 'user' && JSON.stringify(r.message).includes('<command-name>/compact')
    )
    const last = String(commands.at(-1)?.uuid)
    const { request } = await continueAndSend('compact-subagents', last)
    expect(conversationOf(request?.messages ?? [])).toEqual(
      conversationOf(modelRequest('compact-subagents').messages)
    )
  })
})
