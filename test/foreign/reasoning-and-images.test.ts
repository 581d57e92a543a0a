// What other tools record of a prompt's pictures and of their model's reasoning, beside messages
// and calls. Codex CLI: a prompt's `input_image`, a `reasoning` item (its readable summary) and a
// `web_search_call`, added to the real 0.171 rollout of test/fixtures/codex in the shapes Codex
// writes them (codex-rs protocol models.rs: ContentItem::InputImage, ResponseItem::Reasoning,
// ResponseItem::WebSearchCall). OpenCode: an image `file` part on a prompt and a `reasoning`
// part on an answer, added to the real 1.18.33 session of test/fixtures/opencode laid out as its
// JSON storage (OpenCode's MessageV2 FilePart and ReasoningPart). They are drawn, exported, and
// carried into a session of ours: each image with its prompt, the search as what was searched
// for, the reasoning shown but never sent back (it has no signature, which the API checks).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Json } from '../../src/core/session/json'
import { readSessionFile } from '../../src/core/session/load'
import { runCli } from '../support/cli'
import { type MessagesServer, startMessagesServer } from '../support/messages-server'
import { codexHome, openCodeJsonHome } from './tool-homes'

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
    expect(readSessionFile(file).problems).toEqual([])
    const drawn = drawnBlocks(file)
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

    const sent = await carriedOn(file, env, workspace)
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
  })

  it('draws an OpenCode prompt image and reasoning, and carries the image into a session of ours', async () => {
    const base = codexHome().base
    const workspace = join(base, 'ws')
    const env = {
      REWIND_STUDIO_OPENCODE_HOME: join(base, 'opencode'),
      REWIND_STUDIO_HOME: join(base, 'rs')
    }
    const oc = openCodeJsonHome(workspace, env.REWIND_STUDIO_OPENCODE_HOME)
    const prompt = oc.messages.find((m) => m.info.role === 'user')
    const answer = oc.messages.find((m) => m.info.role === 'assistant')
    const of = (m: typeof prompt) => ({ sessionID: oc.sessionId, messageID: m?.info.id })
    prompt?.parts.push({
      id: 'prt_image',
      ...of(prompt),
      type: 'file',
      mime: 'image/png',
      filename: 'pic.png',
      url: `data:image/png;base64,${PNG}`
    })
    answer?.parts.push({
      id: 'prt_reasoning',
      ...of(answer),
      type: 'reasoning',
      text: 'Reasoning: write the plan first.',
      time: { start: 1, end: 2 }
    })
    oc.messages.forEach(oc.write)

    const loaded = readSessionFile(oc.sessionFile)
    expect(loaded.problems).toEqual([])
    expect(drawnBlocks(oc.sessionFile)).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG }
    })
    expect(drawnBlocks(oc.sessionFile)).toContainEqual({
      type: 'thinking',
      thinking: 'Reasoning: write the plan first.'
    })
    const sent = await carriedOn(oc.sessionFile, env, workspace)
    expect(sent).toContainEqual({
      role: 'user',
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG }
    })
  })
})

/** Every block of the session's active path, as drawn. */
function drawnBlocks(file: string): Json[] {
  const { tree } = readSessionFile(file)
  return tree
    .pathTo(tree.leafUuid ?? '')
    .flatMap((r) =>
      r.type === 'user' || r.type === 'assistant' ? blocksOf(r.message.content) : []
    )
}

/**
 * The blocks (with their message's role) the model is sent when `file` is continued in Rewind
 * Studio and a prompt typed: none a thinking block without a signature, roles alternating.
 */
async function carriedOn(
  file: string,
  env: Record<string, string>,
  workspace: string
): Promise<Json[]> {
  const continued = await runCli(['continue', file, '--cwd', workspace, '--json'], { env })
  expect(continued.stderr).toBe('')
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
  const sent: Json[] = messages.flatMap((m) => m.content.map((b) => ({ role: m.role, ...b })))
  // A thinking block the API would refuse (no signature) is not sent.
  expect(sent.filter((b) => b.type === 'thinking')).toEqual([])
  // Roles still alternate: the dropped reasoning left no empty or doubled message.
  for (let i = 1; i < messages.length; i++) {
    expect(messages[i]?.role).not.toBe(messages[i - 1]?.role)
    expect(messages[i]?.content.length).toBeGreaterThan(0)
  }
  return sent
}
