// The agent loop through the real @anthropic-ai/sdk against the loopback Messages server: errors
// first, then text, the tool loop, permissions and cancelling at every point.
import { afterEach, describe, expect, test } from 'vitest'
import { startMessagesServer } from '../../../test/support/messages-server'
import type { MessagesServer, ServerStep } from '../../../test/support/messages-server'
import { apiModel, makeHarness, notices } from '../../../test/support/agent-harness'
import type { HarnessOptions } from '../../../test/support/agent-harness'
import { MAX_PERMISSION_DETAIL_CHARS } from '../../shared/permission-limit'
import { SessionStore } from '../session/store'
import { TURN_STOPPED_TYPE } from '../session/tree'
import { INTERRUPTED_RESULT } from './context'
import { createModelClient } from './model/create'

let server: MessagesServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function setup(steps: ServerStep[], options: Partial<HarnessOptions> = {}, maxRetries = 2) {
  server = await startMessagesServer(steps)
  const h = makeHarness({ model: apiModel(server.url, maxRetries), ...options })
  return { h, server }
}

const text = (t: string): ServerStep => ({ kind: 'message', content: [{ type: 'text', text: t }] })
const overloaded: ServerStep = {
  kind: 'error',
  status: 529,
  errorType: 'overloaded_error',
  message: 'Overloaded',
  headers: { 'retry-after-ms': '1' }
}

function roles(h: ReturnType<typeof makeHarness>): string[] {
  return h.store
    .tree()
    .activePath()
    .map((r) => r.type)
}

describe('API errors leave one clear line and a consistent session', () => {
  test('401: auth error, no stack, the prompt stays and the next turn sends both prompts', async () => {
    const { h, server } = await setup([
      {
        kind: 'error',
        status: 401,
        errorType: 'authentication_error',
        message: 'invalid x-api-key'
      },
      text('hello')
    ])
    const outcome = await h.agent.send('first')
    expect(outcome).toEqual({
      status: 'failed',
      code: 'auth',
      message: 'The API refused the key (401): invalid x-api-key. Check ANTHROPIC_API_KEY.'
    })
    const [error] = notices(h.events, 'error')
    expect(error).toBe('The API refused the key (401): invalid x-api-key. Check ANTHROPIC_API_KEY.')
    expect(error).not.toContain('\n')
    expect(server.requests).toHaveLength(1) // 401 is not retried
    expect(roles(h)).toEqual(['user'])

    await expect(h.agent.send('second')).resolves.toEqual({
      status: 'completed',
      stopReason: 'end_turn'
    })
    // The two prompts in a row are merged into one user message, as the API requires.
    const sent = server.requests[1]?.body.messages
    expect(sent).toHaveLength(1)
    expect(JSON.stringify(sent)).toContain('first')
    expect(JSON.stringify(sent)).toContain('second')
  })

  test('529 on every try: overloaded after the SDK retries', async () => {
    const { h, server } = await setup([overloaded, overloaded, overloaded])
    const outcome = await h.agent.send('hi')
    expect(outcome).toMatchObject({ status: 'failed', code: 'overloaded' })
    expect(server.requests).toHaveLength(3)
    expect(roles(h)).toEqual(['user'])
  })

  test('429 then success: the SDK retry is invisible but for the answer', async () => {
    const { h, server } = await setup([
      {
        kind: 'error',
        status: 429,
        errorType: 'rate_limit_error',
        message: 'slow down',
        headers: { 'retry-after-ms': '1' }
      },
      text('ok')
    ])
    await expect(h.agent.send('hi')).resolves.toEqual({
      status: 'completed',
      stopReason: 'end_turn'
    })
    expect(server.requests).toHaveLength(2)
    expect(notices(h.events, 'error')).toEqual([])
  })

  test('429 on every try: rate_limit', async () => {
    const limited: ServerStep = {
      kind: 'error',
      status: 429,
      errorType: 'rate_limit_error',
      message: 'slow down',
      headers: { 'retry-after-ms': '1' }
    }
    const { h } = await setup([limited, limited, limited])
    await expect(h.agent.send('hi')).resolves.toMatchObject({
      status: 'failed',
      code: 'rate_limit'
    })
  })

  test('network down: network error naming the address', async () => {
    const h = makeHarness({ model: apiModel('http://127.0.0.1:9', 0) })
    const outcome = await h.agent.send('hi')
    expect(outcome).toMatchObject({ status: 'failed', code: 'network' })
    expect(notices(h.events, 'error')[0]).toMatch(
      /^Could not reach the API at http:\/\/127\.0\.0\.1:9/
    )
    expect(roles(h)).toEqual(['user'])
  })

  test('a stream cut in the middle: stream_dropped, no half message in the session', async () => {
    const { h } = await setup([
      { kind: 'cut', content: [{ type: 'text', text: 'a long answer that never ends' }] }
    ])
    const outcome = await h.agent.send('hi')
    expect(outcome).toMatchObject({ status: 'failed', code: 'stream_dropped' })
    expect(h.events.some((e) => e.type === 'block_delta')).toBe(true)
    expect(roles(h)).toEqual(['user'])
  })
})

describe('session errors', () => {
  test('a read-only session: one clear line, nothing sent to the model', async () => {
    const { h, server } = await setup([text('never')])
    h.store.appendMessage({ role: 'user', content: 'an earlier prompt' })
    const readOnly = SessionStore.open(h.store.file, { readOnly: true })
    const agent = h.reopen(apiModel(server.url), { session: readOnly })
    const outcome = await agent.send('hi')
    expect(outcome).toMatchObject({ status: 'failed', code: 'session' })
    expect(outcome.status === 'failed' && outcome.message).toMatch(/read-only/)
    expect(outcome.status === 'failed' && outcome.message).not.toContain('\n')
    expect(server.requests).toHaveLength(0)
  })
})

test('ANTHROPIC_BASE_URL points the API model at another server', async () => {
  server = await startMessagesServer([text('via env')])
  const saved = process.env.ANTHROPIC_BASE_URL
  process.env.ANTHROPIC_BASE_URL = server.url
  try {
    const model = await createModelClient('claude-test', { apiKey: 'k' })
    const h = makeHarness({ model })
    await expect(h.agent.send('hi')).resolves.toMatchObject({ status: 'completed' })
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k')
  } finally {
    if (saved === undefined) delete process.env.ANTHROPIC_BASE_URL
    else process.env.ANTHROPIC_BASE_URL = saved
  }
})

describe('the loop', () => {
  test('a text answer streams as deltas and is appended when complete', async () => {
    const { h, server } = await setup([text('Hello from the model')])
    await expect(h.agent.send('hi')).resolves.toEqual({
      status: 'completed',
      stopReason: 'end_turn'
    })
    const deltas = h.events.flatMap((e) => (e.type === 'block_delta' ? [e.text] : []))
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.join('')).toBe('Hello from the model')
    const path = h.store.tree().activePath()
    expect(path.map((r) => r.type)).toEqual(['user', 'assistant'])
    const start = h.events.find((e) => e.type === 'message_start')
    expect(start?.type === 'message_start' && start.id).toBe(path[1]?.uuid)
    expect(h.checkpoints).toEqual([path[0]?.uuid])
    const body = server.requests[0]?.body
    expect(body?.model).toBe('claude-test')
    expect(body?.stream).toBe(true)
    expect(JSON.stringify(body?.system)).toContain(h.ws.root)
    expect((body?.tools ?? []).map((t) => (t as { name: string }).name)).toEqual([
      'Read',
      'Write',
      'Edit',
      'Bash',
      'Glob',
      'Grep'
    ])
  })

  test('tool loop: Read, then Edit after permission, results go back, ends on end_turn', async () => {
    const { h, server } = await setup(
      [
        {
          kind: 'message',
          content: [
            { type: 'tool_use', id: 'tu_read', name: 'Read', input: { file_path: 'config.py' } }
          ]
        },
        {
          kind: 'message',
          content: [
            {
              type: 'tool_use',
              id: 'tu_edit',
              name: 'Edit',
              input: {
                file_path: 'config.py',
                old_string: 'DEBUG = True\n',
                new_string: 'DEBUG = True\nTIMEOUT = 30\n'
              }
            }
          ]
        },
        text('Done.')
      ],
      { permissionMode: 'default' }
    )
    h.ws.put('config.py', 'DEBUG = True\nHOST = "localhost"\n')
    await expect(h.agent.send('add TIMEOUT')).resolves.toEqual({
      status: 'completed',
      stopReason: 'end_turn'
    })
    expect(h.ws.read('config.py')).toBe('DEBUG = True\nTIMEOUT = 30\nHOST = "localhost"\n')
    expect(h.permissionRequests.map((r) => [r.tool, r.summary])).toEqual([
      ['Edit', 'Edit(config.py)']
    ])
    expect(server.requests).toHaveLength(3)
    const second = server.requests[1]?.body.messages ?? []
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(JSON.stringify(second[2])).toContain('"tool_use_id":"tu_read"')
    expect(roles(h)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant'])
  })

  test('a call starts to run once allowed: its first output view is stamped after the wait', async () => {
    let clock = Date.parse('2026-12-02T10:00:00.000Z')
    const { h } = await setup(
      [
        {
          kind: 'message',
          content: [{ type: 'tool_use', id: 'tu_b', name: 'Bash', input: { command: 'echo hi' } }]
        },
        text('Ran.')
      ],
      {
        permissionMode: 'default',
        now: () => new Date(clock),
        // The user takes a minute to answer.
        allow: () => {
          clock += 60_000
          return true
        }
      }
    )
    await h.agent.send('run it')
    const start = h.events.findIndex((e) => e.type === 'tool_start')
    const first = h.events.find((e) => e.type === 'tool_output')
    expect(first).toMatchObject({
      toolUseId: 'tu_b',
      text: '',
      startedAt: '2026-12-02T10:01:00.000Z'
    })
    expect(h.events.indexOf(first!)).toBeGreaterThan(start)
  })

  test('a denied permission is a tool error the model sees; nothing is written', async () => {
    const { h, server } = await setup(
      [
        {
          kind: 'message',
          content: [
            {
              type: 'tool_use',
              id: 'tu_w',
              name: 'Write',
              input: { file_path: 'new.txt', content: 'x' }
            }
          ]
        },
        text('Understood.')
      ],
      { permissionMode: 'default', allow: () => false }
    )
    await h.agent.send('write it')
    const result = JSON.stringify(server.requests[1]?.body.messages.at(-1))
    expect(result).toContain('The user denied permission for Write(new.txt).')
    expect(result).toContain('"is_error":true')
    expect(() => h.ws.read('new.txt')).toThrow()
  })

  test('a permission request carries the whole command; one too long to show is refused unasked', async () => {
    const long = `echo ${'x'.repeat(MAX_PERMISSION_DETAIL_CHARS)}`
    const bash = (id: string, command: string): ServerStep => ({
      kind: 'message',
      content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }]
    })
    const { h, server } = await setup(
      [bash('tu_a', 'ls\nrm -rf build'), bash('tu_b', long), text('ok')],
      { permissionMode: 'default', allow: () => false }
    )
    await h.agent.send('go')
    expect(h.permissionRequests).toEqual([
      {
        requestId: expect.any(String),
        tool: 'Bash',
        summary: 'Bash(ls … +1 line)',
        detail: { label: 'Command', text: 'ls\nrm -rf build' }
      }
    ])
    expect(JSON.stringify(server.requests[2]?.body.messages.at(-1))).toContain(
      `was not run: its command is ${long.length} characters, more than the ${MAX_PERMISSION_DETAIL_CHARS} a permission prompt shows`
    )
  })

  test('an unknown tool is a tool error, not a crash', async () => {
    const { h, server } = await setup([
      { kind: 'message', content: [{ type: 'tool_use', id: 'tu_x', name: 'Teleport', input: {} }] },
      text('ok')
    ])
    await expect(h.agent.send('go')).resolves.toMatchObject({ status: 'completed' })
    expect(JSON.stringify(server.requests[1]?.body.messages.at(-1))).toContain(
      'Unknown tool: Teleport.'
    )
  })
})

describe('stop', () => {
  test('mid-stream: the text already shown is kept, the turn is stopped, the next request is valid', async () => {
    let stopped = false
    const { h, server } = await setup(
      [
        { kind: 'stall', content: [{ type: 'text', text: 'Thinking about it carefully' }] },
        text('ok')
      ],
      {
        onEvent: (e, agent) => {
          if (e.type === 'block_delta' && !stopped) {
            stopped = true
            agent.stop()
          }
        }
      }
    )
    await expect(h.agent.send('hi')).resolves.toEqual({ status: 'stopped' })
    const path = h.store.tree().activePath()
    expect(path.map((r) => r.type)).toEqual(['user', 'assistant'])
    expect(JSON.stringify(path[1])).toContain('Thinking')
    await expect(h.agent.send('go on')).resolves.toMatchObject({ status: 'completed' })
    expect(server.requests[1]?.body.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user'
    ])
  })

  test('before the model said anything: the log notes the stop, the next request tells the model', async () => {
    let stopped = false
    const { h, server } = await setup([text('never sent'), text('ok')], {
      onEvent: (e, agent) => {
        if (e.type === 'message_start' && !stopped) {
          stopped = true
          void agent.stop()
        }
      }
    })
    await expect(h.agent.send('hi')).resolves.toEqual({ status: 'stopped' })
    const path = h.store.tree().activePath()
    expect(path.map((r) => r.type)).toEqual(['user', 'custom_message'])
    expect(path[1]).toMatchObject({ customType: TURN_STOPPED_TYPE, hidden: true })
    await expect(h.agent.send('go on')).resolves.toMatchObject({ status: 'completed' })
    const messages = server.requests.at(-1)?.body.messages ?? []
    // One user message: the first prompt, the note as a reminder, the second prompt.
    expect(messages.map((m) => m.role)).toEqual(['user'])
    expect(JSON.stringify(messages[0])).toMatch(/hi.*stopped the turn above.*go on/)
  })

  test('mid-tool: the running command is killed and every call gets a result', async () => {
    const { h, server } = await setup(
      [
        {
          kind: 'message',
          content: [
            { type: 'tool_use', id: 'tu_sleep', name: 'Bash', input: { command: 'sleep 30' } },
            { type: 'tool_use', id: 'tu_after', name: 'Read', input: { file_path: 'a.txt' } }
          ]
        },
        text('ok')
      ],
      {
        onEvent: (e, agent) => {
          if (e.type === 'tool_start' && e.name === 'Bash') setImmediate(() => agent.stop())
        }
      }
    )
    await expect(h.agent.send('run it')).resolves.toEqual({ status: 'stopped' })
    const path = h.store.tree().activePath()
    expect(path.map((r) => r.type)).toEqual(['user', 'assistant', 'user'])
    const results = JSON.stringify(path[2])
    expect(results).toContain('"tool_use_id":"tu_sleep"')
    expect(results).toContain(
      `"tool_use_id":"tu_after","content":"${INTERRUPTED_RESULT}","is_error":true`
    )
    await h.agent.send('again')
    expect(server.requests).toHaveLength(2)
  })

  test('while a permission prompt waits: the call is answered as interrupted', async () => {
    const { h } = await setup(
      [
        {
          kind: 'message',
          content: [
            {
              type: 'tool_use',
              id: 'tu_w',
              name: 'Write',
              input: { file_path: 'n.txt', content: 'x' }
            }
          ]
        }
      ],
      {
        permissionMode: 'default',
        allow: () => new Promise<boolean>(() => {}),
        onEvent: (e, agent) => {
          if (e.type === 'tool_start') setImmediate(() => agent.stop())
        }
      }
    )
    await expect(h.agent.send('write')).resolves.toEqual({ status: 'stopped' })
    expect(JSON.stringify(h.store.tree().activePath().at(-1))).toContain(INTERRUPTED_RESULT)
  })
})
