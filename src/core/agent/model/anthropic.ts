// The Anthropic Messages API as a ModelClient: `client.messages.stream(...)` with the SDK's own
// retries (429, 529, connection errors), prompt-caching breakpoints, and SDK errors translated at
// this edge into ModelCallError codes with one line the user can act on.
//
// The client is the SDK's BaseAnthropic with only the Messages resource: the full `Anthropic`
// class pulls in every resource (batches, files, models, beta…), 1.1 MB of JavaScript that every
// `summarize` and `chat` compiled before its first request (bench/summarize-process.ts).
import { setFlagsFromString } from 'node:v8'
import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'
import type { MessageParam, MessageStreamParams, Tool } from '@anthropic-ai/sdk/resources'
import { Messages } from '@anthropic-ai/sdk/resources/messages'
import * as z from 'zod'
import { ContentBlock } from '../../../shared/messages'
import type { ContentBlock as ContentBlockType } from '../../../shared/messages'
import { ModelCallError } from './model-client'
import type {
  ApiMessage,
  ModelCallOptions,
  ModelClient,
  ModelReply,
  ModelRequest
} from './model-client'

export interface AnthropicModelOptions {
  apiKey: string
  model: string
  /** Defaults to ANTHROPIC_BASE_URL, then the public API. */
  baseURL?: string
  maxTokens?: number
  /** Retries the SDK makes on 408/409/429/5xx and connection errors (SDK default: 2). */
  maxRetries?: number
}

const DEFAULT_MAX_TOKENS = 16_000
/**
 * How the API says a request does not fit the context window: "prompt is too long: 210000 tokens
 * > 200000 maximum", or, when the answer's max_tokens is what overflows, "input length and
 * `max_tokens` exceed context limit".
 */
const PROMPT_TOO_LONG = /prompt is too long|exceed context limit/i
const EPHEMERAL = { type: 'ephemeral' } as const

/** The SDK's client with the one resource this app calls. */
class MessagesClient extends BaseAnthropic {
  readonly messages: Messages = new Messages(this)
}

let wasmOnBaselineCompiler = false

/**
 * Keeps WebAssembly on V8's baseline compiler from the first model client on. The only
 * WebAssembly in the process is the HTTP parser of Node's fetch (undici's llhttp), which V8
 * otherwise recompiles with its optimizing compiler on a background thread, and Node waits for
 * background work before a process ends: every command that asked the model anything (summarize,
 * chat, parallel…) sat 50-100 ms after its last byte (bench/summarize-process.ts). The parser
 * reads a few kilobytes an answer; the baseline code is fast enough for that. Set here, not at
 * start-up: once a V8 flag changes, Node's own modules compile without their code cache (10-15
 * ms for a command that loads several), which commands that never call the model should not pay.
 */
function keepWasmOnBaselineCompiler(): void {
  if (wasmOnBaselineCompiler) return
  setFlagsFromString('--liftoff-only')
  wasmOnBaselineCompiler = true
}

export class AnthropicModel implements ModelClient {
  readonly id: string
  private readonly client: MessagesClient
  private readonly maxTokens: number
  private readonly baseURL: string

  constructor(options: AnthropicModelOptions) {
    keepWasmOnBaselineCompiler()
    this.id = options.model
    this.maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS
    this.client = new MessagesClient({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? undefined,
      maxRetries: options.maxRetries ?? 2
    })
    this.baseURL = this.client.baseURL
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply> {
    const texts = new Map<number, string>()
    try {
      const maxTokens = request.maxTokens ?? this.maxTokens
      const stream = this.client.messages.stream(requestParams(request, this.id, maxTokens), {
        signal: options.signal
      })
      stream.on('streamEvent', (event) => {
        if (event.type !== 'content_block_delta') return
        const delta = event.delta
        if (delta.type === 'text_delta') {
          texts.set(event.index, (texts.get(event.index) ?? '') + delta.text)
          options.onDelta(event.index, 'text', delta.text)
        } else if (delta.type === 'thinking_delta') {
          options.onDelta(event.index, 'thinking', delta.thinking)
        } else if (delta.type === 'input_json_delta') {
          options.onDelta(event.index, 'tool_use', delta.partial_json)
        }
      })
      const final = await stream.finalMessage()
      return {
        content: z.array(ContentBlock).parse(final.content),
        stopReason: final.stop_reason,
        model: final.model,
        usage: { ...final.usage }
      }
    } catch (error) {
      throw translateError(error, options.signal, this.baseURL, [...texts.values()])
    }
  }
}

/**
 * The request body. Three cache breakpoints: the system prompt, the last tool, and the last block
 * of the last message. Only the last message moves between requests, so everything before it is
 * byte-identical to the previous request and the cache hits; after a conversation rewind the
 * kept prefix is byte-identical too, so the cache written before the rewind still serves it.
 */
export function requestParams(
  request: ModelRequest,
  model: string,
  maxTokens: number
): MessageStreamParams {
  const tools: Tool[] = request.tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: t.input_schema,
    ...(i === request.tools.length - 1 ? { cache_control: EPHEMERAL } : {})
  }))
  return {
    model,
    max_tokens: maxTokens,
    system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }],
    ...(tools.length > 0 ? { tools } : {}),
    messages: withLastBlockCached(request.messages)
  }
}

function withLastBlockCached(messages: ApiMessage[]): MessageParam[] {
  const out = messages.map((m, i) => {
    if (i !== messages.length - 1 || m.content.length === 0) return m
    const last = m.content.length - 1
    const content: ContentBlockType[] = m.content.map((b, j) =>
      j === last ? { ...b, cache_control: EPHEMERAL } : b
    )
    return { role: m.role, content }
  })
  // Every block in the log came from the API or from our own tool results in the API's shapes, and
  // unknown block types are kept verbatim (ContentBlock is loose): they are MessageParam content by
  // construction, which the SDK's closed union cannot express.
  return out as unknown as MessageParam[]
}

function translateError(
  error: unknown,
  signal: AbortSignal,
  baseURL: string,
  partialText: string[]
): ModelCallError {
  if (error instanceof ModelCallError) return error
  if (signal.aborted || error instanceof APIUserAbortError) {
    return new ModelCallError('aborted', 'Stopped.', partialText)
  }
  if (error instanceof APIError && error.status !== undefined) {
    const detail = error.apiMessage ? `: ${error.apiMessage}` : ''
    switch (error.status) {
      case 401:
        return new ModelCallError(
          'auth',
          `The API refused the key (401)${detail}. Check ANTHROPIC_API_KEY.`,
          partialText
        )
      case 403:
        return new ModelCallError(
          'auth',
          `The key is not allowed to use this model (403)${detail}.`,
          partialText
        )
      case 429:
        return new ModelCallError(
          'rate_limit',
          `Rate limited by the API (429), still after retries${detail}. Try again shortly.`,
          partialText
        )
      case 529:
        return new ModelCallError(
          'overloaded',
          `The API is overloaded (529), still after retries. Try again shortly.`,
          partialText
        )
      case 400:
        if (PROMPT_TOO_LONG.test(error.apiMessage ?? error.message)) {
          return new ModelCallError(
            'prompt_too_long',
            `The conversation is longer than the model's context window (400)${detail}.`,
            partialText
          )
        }
        return new ModelCallError(
          'bad_request',
          `The API rejected the request (${error.status})${detail}.`,
          partialText
        )
      case 404:
      case 413:
      case 422:
        return new ModelCallError(
          'bad_request',
          `The API rejected the request (${error.status})${detail}.`,
          partialText
        )
      default:
        return new ModelCallError('api', `The API answered ${error.status}${detail}.`, partialText)
    }
  }
  if (error instanceof APIConnectionError) {
    return new ModelCallError(
      'network',
      `Could not reach the API at ${baseURL}: ${causeOf(error)}.`,
      partialText
    )
  }
  // Anything else reaching here is the response stream failing after it began (a socket reset, an
  // incomplete event sequence): the message never completed.
  return new ModelCallError(
    'stream_dropped',
    `The response stream broke off before the message was complete (${causeOf(error)}).`,
    partialText
  )
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  const inner = cause instanceof Error ? cause.message : ''
  return inner !== '' && !error.message.includes(inner)
    ? `${error.message}: ${inner}`
    : error.message
}
