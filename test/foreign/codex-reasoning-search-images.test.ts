// The Responses API items a Codex CLI rollout holds beside messages and calls: a prompt's
// `input_image`, the model's `reasoning` (its readable summary) and a `web_search_call`. Added to
// the real 0.171 rollout of test/fixtures/codex in the shapes Codex writes them (codex-rs
// protocol models.rs: ContentItem::InputImage, ResponseItem::Reasoning, ResponseItem::WebSearchCall).
// They are drawn, exported, and carried into a session of ours: the image with its prompt, the
// search as what was searched for, the reasoning shown but never sent back (no signature).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Json } from '../../src/core/session/json'
import { readSessionFile } from '../../src/core/session/load'
import { runCli } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'
import { codexHome } from './tool-homes'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=='

/** The fixture's rollout with an image on its first prompt, then reasoning and a web search. */
function rolloutWithItems(): { file: string; env: Record<string, string>; workspace: string } {
  const codex = codexHome()
  const day = join(codex.toolHome, 'sessions', '2026', '12', '01')
  const file = join(day, readdirSync(day).find((f) => f.includes('f7bd')) ?? '')
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
  const items = lines.map((line) => JSON.parse(line) as Json)
  const promptAt = items.findIndex((v) => {
    const p = v.payload as Json
    return (
      p.type === 'message' &&
      p.role === 'user' &&
      JSON.stringify(p).includes('input_text') &&
      !JSON.stringify(p).includes('<')
    )
  })
  const prompt = items[promptAt] as Json
  const payload = prompt.payload as Json
  payload.content = [
    ...(payload.content as Json[]),
    { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }
  ]
  const at = (type: string, p: Json): Json => ({ timestamp: prompt.timestamp, type, payload: p })
  items.splice(
    promptAt + 1,
    0,
    at('response_item', {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: '**Planning** I will look around first.' }],
      content: null,
      encrypted_content: 'gAAAA-not-readable'
    }),
    at('response_item', {
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: { type: 'search', query: 'rust serde derive' }
    })
  )
  writeFileSync(file, items.map((v) => JSON.stringify(v)).join('\n') + '\n')
  return { file, env: codex.env, workspace: codex.workspace }
}

const blocksOf = (content: unknown) => (Array.isArray(content) ? (content as Json[]) : [])

describe('Codex CLI reasoning, web searches and prompt images', () => {
  it('draws them, exports them and carries the image and the search into a session of ours', async () => {
    const { file, env, workspace } = rolloutWithItems()
    const loaded = readSessionFile(file)
    expect(loaded.problems).toEqual([])
    const drawn = loaded.tree
      .pathTo(loaded.tree.leafUuid ?? '')
      .flatMap((r) =>
        r.type === 'user' || r.type === 'assistant' ? blocksOf(r.message.content) : []
      )
    expect(drawn).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG }
    })
    expect(drawn).toContainEqual({
      type: 'thinking',
      thinking: '**Planning** I will look around first.'
    })
    expect(drawn).toContainEqual({ type: 'text', text: 'Searched the web: rust serde derive' })

    // The Markdown shows no thinking (as for Claude Code's); the JSON tree has it all.
    const md = await runCli(['export', file, '--format', 'md'], { env })
    expect(md.stdout).toContain('Searched the web: rust serde derive')
    const json = await runCli(['export', file, '--format', 'json'], { env })
    expect(json.stdout).toContain('I will look around first.')
    expect(json.stdout).toContain(PNG)

    const continued = await runCli(['continue', file, '--cwd', workspace, '--json'], { env })
    expect(continued.code).toBe(0)
    const { sessionId } = JSON.parse(continued.stdout) as { sessionId: string }
    server = await startMessagesServer([
      { kind: 'message', content: [{ type: 'text', text: 'Carried on.' }] }
    ])
    const chat = await runCli(
      ['chat', '--cwd', workspace, '--model', 'claude-test', '--resume', sessionId],
      {
        input: 'and now?\n/exit\n',
        env: { ...env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url }
      }
    )
    expect(chat.stdout).toContain('Carried on.')
    const messages = (server.requests[0]?.body as { messages: { role: string; content: Json[] }[] })
      .messages
    const sent = messages.flatMap((m) => m.content.map((b) => ({ role: m.role, ...b })))
    expect(sent).toContainEqual({
      role: 'user',
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG }
    })
    expect(sent).toContainEqual({
      role: 'assistant',
      type: 'text',
      text: 'Searched the web: rust serde derive'
    })
    // A thinking block the API would refuse (no signature) is not sent.
    expect(sent.filter((b) => b.type === 'thinking')).toEqual([])
    // Roles still alternate: the dropped reasoning left no empty or doubled message.
    for (let i = 1; i < messages.length; i++) {
      expect(messages[i]?.role).not.toBe(messages[i - 1]?.role)
      expect(messages[i]?.content.length).toBeGreaterThan(0)
    }
  })
})
