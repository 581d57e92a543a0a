// The seed walk-through again, through the real Anthropic SDK: `cli chat` talks to a loopback
// Messages API server that streams the same answers the scripted model gives. After /rewind 2 the
// next request must repeat the earlier system prompt, tools and first turn exactly (prompt cache).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loopbackChat, repoRoot } from './support/cli'
import {
  type MessagesServer,
  type ServerStep,
  startMessagesServer
} from './support/messages-server'

interface ScriptRule {
  match: string
  responses: (
    { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: object }
  )[][]
}

/** The scripted model's answers, in the order the walk-through asks for them. */
function seedSteps(): ServerStep[] {
  const script = JSON.parse(
    readFileSync(join(repoRoot, 'test/fixtures/seed-walkthrough.json'), 'utf8')
  ) as { rules: ScriptRule[] }
  let id = 0
  return script.rules.flatMap((rule) =>
    rule.responses.map((blocks) => ({
      kind: 'message' as const,
      content: blocks.map((b) => (b.type === 'text' ? b : { ...b, id: `toolu_${++id}` })),
      stopReason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
    }))
  )
}

const withoutCacheControl = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v: unknown) => (key === 'cache_control' ? undefined : v))

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

describe('cli chat against the Messages API', () => {
  it('walks through the seed with the real SDK and keeps the prompt prefix after /rewind', async () => {
    server = await startMessagesServer(seedSteps())
    const { workspace, chat } = loopbackChat(server.url)

    const first = await chat(
      '给 config.py 加一个 TIMEOUT = 30\n顺便把 DEBUG 删掉，再建一个 utils.py\n/exit\n'
    )
    expect(first.stderr).toBe('')
    expect(first.stdout).toContain('● DEBUG 已删除，utils.py 已创建。')
    const second = await chat('/rewind 2\n只建 utils.py，DEBUG 先留着\n/exit\n', '--continue')
    expect(second.stdout).toContain('● utils.py 已创建，config.py 没动。')

    expect(readFileSync(join(workspace, 'config.py'), 'utf8')).toBe(
      'DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n'
    )
    expect(readFileSync(join(workspace, 'utils.py'), 'utf8')).toContain('def clamp')

    const requests = server.requests.map((r) => r.body)
    expect(requests).toHaveLength(8)
    const headers = server.requests[0]?.headers ?? {}
    // SDK 1.14 sends the key as a bearer token; older versions used x-api-key.
    expect(headers['x-api-key'] ?? headers.authorization).toMatch(/test-key$/)
    const beforeRewind = requests[3] // turn 2's first request: turn 1 (6 messages) + prompt 2
    const afterRewind = requests[6] // turn 3's first request, in a new process after /rewind 2
    expect(afterRewind?.system).toEqual(beforeRewind?.system)
    expect(JSON.stringify(afterRewind?.tools)).toBe(JSON.stringify(beforeRewind?.tools))
    expect(withoutCacheControl(afterRewind?.messages.slice(0, 6))).toEqual(
      withoutCacheControl(beforeRewind?.messages.slice(0, 6))
    )
    expect(afterRewind?.messages).toHaveLength(7)
    expect(JSON.stringify(afterRewind?.messages)).not.toContain('顺便把 DEBUG 删掉')
    expect(JSON.stringify(afterRewind)).toContain('cache_control')
  })
})
