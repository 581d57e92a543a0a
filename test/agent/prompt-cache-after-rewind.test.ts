// Issue 5 item 4: after a conversation rewind the next request repeats the earlier request's
// prefix (system prompt, tools, messages up to the checkpoint) byte for byte and asks for caching,
// so the prompt cache written before the rewind still serves it. Recorded at the loopback server.
import { afterEach, expect, test } from 'vitest'
import { apiModel, makeHarness } from '../support/agent-harness'
import { startMessagesServer } from '../support/messages-server'
import type { MessagesServer, RecordedRequest } from '../support/messages-server'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

/** The request's raw bytes up to where its last message begins. */
function prefixBeforeLastMessage(request: RecordedRequest): string {
  const last = request.body.messages.at(-1)
  const at = request.raw.lastIndexOf(JSON.stringify(last).slice(0, -1))
  expect(at).toBeGreaterThan(0)
  return request.raw.slice(0, at)
}

test('the request after a conversation rewind starts with the same bytes as the one it rewound', async () => {
  server = await startMessagesServer([
    {
      kind: 'message',
      content: [{ type: 'tool_use', id: 'tu_1', name: 'Read', input: { file_path: 'config.py' } }]
    },
    { kind: 'message', content: [{ type: 'text', text: 'It has DEBUG and HOST.' }] },
    { kind: 'message', content: [{ type: 'text', text: 'Removed DEBUG.' }] },
    { kind: 'message', content: [{ type: 'text', text: 'Kept DEBUG.' }] }
  ])
  const h = makeHarness({ model: apiModel(server.url), checkpointTools: true })
  h.ws.put('config.py', 'DEBUG = True\nHOST = "localhost"\n')
  await h.agent.send('what is in config.py?')
  await h.agent.send('remove DEBUG')

  // /rewind 2 (conversation): the leaf goes back before the second prompt.
  const [, second] = h.store.tree().checkpoints()
  if (second === undefined) throw new Error('no second checkpoint')
  const prompt = h.store.tree().get(second.uuid)
  h.store.appendRewind({
    leafUuid: prompt?.parentUuid ?? null,
    checkpointUuid: second.uuid,
    mode: 'conversation'
  })
  h.agent.reloadFromSession()
  h.agent.rehydrateFileState()
  await h.agent.send('keep DEBUG, just look')

  const before = server.requests[2]
  const after = server.requests[3]
  if (before === undefined || after === undefined) throw new Error('missing requests')
  // Same system prompt and tools, same messages up to the checkpoint; only the new prompt differs.
  expect(after.body.messages).toHaveLength(before.body.messages.length)
  expect(prefixBeforeLastMessage(after)).toBe(prefixBeforeLastMessage(before))
  expect(after.raw).not.toBe(before.raw)

  // Cache breakpoints: the system prompt, the last tool, the last block of the last message only.
  expect(after.body.system).toEqual([
    expect.objectContaining({ cache_control: { type: 'ephemeral' } })
  ])
  const tools = after.body.tools ?? []
  expect(JSON.stringify(tools.at(-1))).toContain('"cache_control":{"type":"ephemeral"}')
  expect(JSON.stringify(tools.slice(0, -1))).not.toContain('cache_control')
  const messages = after.body.messages
  expect(JSON.stringify(messages.slice(0, -1))).not.toContain('cache_control')
  expect(JSON.stringify(messages.at(-1))).toContain('"cache_control":{"type":"ephemeral"}')
})
