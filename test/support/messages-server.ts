// A loopback HTTP server that speaks the Anthropic Messages API's streaming protocol (SSE), so the
// tests drive the real @anthropic-ai/sdk end to end. Test code, not product. Each test scripts the
// replies in order and reads back every request body exactly as the SDK sent it (`raw` keeps the
// bytes, for the prompt-cache-after-rewind test).
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ServerBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }

export type ServerStep =
  /** A complete streamed message. */
  | { kind: 'message'; content: ServerBlock[]; stopReason?: string }
  /** An HTTP error answer, as the API sends it (JSON body; retry headers when given). */
  | {
      kind: 'error'
      status: number
      errorType: string
      message: string
      headers?: Record<string, string>
    }
  /** The stream starts, the first block streams part of its content, then the socket is destroyed. */
  | { kind: 'cut'; content: ServerBlock[] }
  /**
   * The stream starts and the first block sends its first delta, then nothing more until the client
   * goes away (a test cancels from the event it sees).
   */
  | { kind: 'stall'; content: ServerBlock[] }

/** A reply of one text block. */
export const textReply = (text: string): ServerStep => ({
  kind: 'message',
  content: [{ type: 'text', text }]
})

/** A reply of one tool call. */
export const toolReply = (id: string, name: string, input: unknown): ServerStep => ({
  kind: 'message',
  content: [{ type: 'tool_use', id, name, input }]
})

export interface RecordedRequest {
  path: string
  headers: IncomingMessage['headers']
  /** The body as received, byte for byte. */
  raw: string
  body: MessagesRequestBody
}

/** The fields of a Messages request the tests look at. */
export interface MessagesRequestBody {
  model: string
  max_tokens: number
  stream?: boolean
  system?: unknown
  tools?: unknown[]
  messages: { role: string; content: unknown }[]
}

export interface MessagesServer {
  url: string
  requests: RecordedRequest[]
  /** Adds replies to the end of the script. */
  push(...steps: ServerStep[]): void
  close(): Promise<void>
}

export interface MessagesServerOptions {
  /** Answers a request the script has no step left for (a test whose requests vary in number). */
  answer?: (body: MessagesRequestBody) => ServerStep
  /**
   * `body-size`: each answer's usage says the request took a quarter of its body's length in
   * input tokens (the app's own estimate), so usage-based context checks see realistic sizes.
   */
  usage?: 'body-size'
}

export async function startMessagesServer(
  steps: ServerStep[] = [],
  options: MessagesServerOptions = {}
): Promise<MessagesServer> {
  const script = [...steps]
  const requests: RecordedRequest[] = []
  let messageCount = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const body = JSON.parse(raw) as MessagesRequestBody
      requests.push({ path: req.url ?? '', headers: req.headers, raw, body })
      const inputTokens = options.usage === 'body-size' ? Math.ceil(raw.length / 4) : 10
      const step = script.shift() ?? options.answer?.(body)
      if (step === undefined) {
        sendError(
          res,
          500,
          'api_error',
          `messages-server: no scripted reply for request ${requests.length}`
        )
        return
      }
      messageCount += 1
      answer(res, step, `msg_test_${messageCount}`, inputTokens)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...more) => script.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

function sendError(
  res: ServerResponse,
  status: number,
  errorType: string,
  message: string,
  headers: Record<string, string> = {}
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify({ type: 'error', error: { type: errorType, message } }))
}

function answer(res: ServerResponse, step: ServerStep, id: string, inputTokens: number): void {
  switch (step.kind) {
    case 'error':
      sendError(res, step.status, step.errorType, step.message, step.headers)
      return
    case 'message': {
      const events = messageEvents(
        id,
        step.content,
        step.stopReason ?? defaultStopReason(step.content),
        inputTokens
      )
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const e of events) res.write(sse(e))
      res.end()
      return
    }
    case 'cut': {
      const events = messageEvents(id, step.content, defaultStopReason(step.content), inputTokens)
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      // message_start, content_block_start, one delta: then, once they are on the wire, the
      // connection dies.
      res.write(events.slice(0, 3).map(sse).join(''), () => res.socket?.destroy())
      return
    }
    case 'stall': {
      const events = messageEvents(id, step.content, defaultStopReason(step.content), inputTokens)
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      for (const e of events.slice(0, 3)) res.write(sse(e))
      // Left open: the client's abort closes it.
      return
    }
  }
}

function defaultStopReason(content: ServerBlock[]): string {
  return content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'
}

interface SseEvent {
  type: string
  [key: string]: unknown
}

function sse(e: SseEvent): string {
  return `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`
}

/** The event sequence the API streams for one message; text and JSON arrive in small pieces. */
function messageEvents(
  id: string,
  content: ServerBlock[],
  stopReason: string,
  inputTokens: number
): SseEvent[] {
  const events: SseEvent[] = [
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0
        }
      }
    }
  ]
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
      for (const piece of pieces(block.text)) {
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: piece }
        })
      }
    } else {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} }
      })
      for (const piece of pieces(JSON.stringify(block.input))) {
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece }
        })
      }
    }
    events.push({ type: 'content_block_stop', index })
  })
  events.push({ type: 'ping' })
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 5 }
  })
  events.push({ type: 'message_stop' })
  return events
}

/** Splits text in pieces of up to 8 characters, as a streamed answer arrives. */
function pieces(text: string): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += 8) out.push(text.slice(i, i + 8))
  return out.length > 0 ? out : ['']
}

/**
 * Runs `body` with the Anthropic SDK pointed at `server` through the environment the app reads
 * (a test key, ANTHROPIC_BASE_URL), then puts both variables back and closes the server.
 */
export async function withServerEnv<T>(server: MessagesServer, body: () => Promise<T>): Promise<T> {
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL }
  process.env.ANTHROPIC_API_KEY = 'test-key'
  process.env.ANTHROPIC_BASE_URL = server.url
  try {
    return await body()
  } finally {
    if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY
    else process.env.ANTHROPIC_API_KEY = saved.key
    if (saved.url === undefined) delete process.env.ANTHROPIC_BASE_URL
    else process.env.ANTHROPIC_BASE_URL = saved.url
    await server.close()
  }
}
