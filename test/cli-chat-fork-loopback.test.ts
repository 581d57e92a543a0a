// /fork through the real Anthropic SDK: `cli chat` talks to the loopback Messages server, forks at
// turn 1 and goes on in the fork. The fork's first request must repeat what the model saw of turn
// 1 exactly (system prompt, tools, messages: the prompt cache keeps working) and hold nothing of
// the turn left behind in the origin.
import { afterEach, describe, expect, it } from 'vitest'
import { loopbackChat } from './support/cli'
import {
  type MessagesServer,
  startMessagesServer,
  textReply as text
} from './support/messages-server'

const withoutCacheControl = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v: unknown) => (key === 'cache_control' ? undefined : v))

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

describe('chat /fork against the Messages API', () => {
  it('sends the fork the path to the node as the origin sent it', async () => {
    server = await startMessagesServer([
      text('First answer.'),
      text('Second answer.'),
      text('An answer in the fork.')
    ])
    const { chat } = loopbackChat(server.url)
    const run = await chat(
      'the first prompt\nthe second prompt\n/fork 1\na prompt in the fork\n/exit\n'
    )
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('● An answer in the fork.')
    expect(run.stdout).toMatch(/Forked into session \S+/)

    const [, second, inFork] = server.requests.map((r) => r.body)
    expect(server.requests).toHaveLength(3)
    expect(inFork?.system).toEqual(second?.system)
    expect(JSON.stringify(inFork?.tools)).toBe(JSON.stringify(second?.tools))
    // Turn 1, prompt and answer, as the origin sent it with its second prompt.
    expect(withoutCacheControl(inFork?.messages.slice(0, 2))).toEqual(
      withoutCacheControl(second?.messages.slice(0, 2))
    )
    expect(inFork?.messages).toHaveLength(3)
    expect(JSON.stringify(inFork?.messages)).toContain('a prompt in the fork')
    expect(JSON.stringify(inFork?.messages)).not.toContain('the second prompt')
  })
})
