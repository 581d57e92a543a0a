// What the agent loop needs from a model: one streamed completion per call. Two implementations:
// the Anthropic API (anthropic.ts) and the offline scripted model (scripted.ts). The loop cannot
// tell them apart, so everything the demo shows runs the same code the real model runs.
import { CodedError } from '../../../shared/coded-error'
import type { ContentBlock } from '../../../shared/messages'
import type { ToolDefinition } from '../tools/tool'

/** A message as the Messages API takes it: the role and its blocks, stored verbatim from the log. */
export interface ApiMessage {
  role: 'user' | 'assistant'
  content: ContentBlock[]
}

export interface ModelRequest {
  system: string
  tools: ToolDefinition[]
  messages: ApiMessage[]
  /**
   * Where the conversation stands for a script: the latest prompt the user typed on the current
   * branch and how many answers the model has given since. Only the scripted model reads it; the
   * API model sees the messages.
   */
  script: ScriptPosition
  /**
   * A summary request (summary/summarize.ts), not a turn: the scripted model answers it with its
   * script's "summary" instead of a rule's response.
   */
  summary?: boolean
  /** The answer's token limit, when not the client's default (a summary is kept short). */
  maxTokens?: number
}

export interface ScriptPosition {
  prompt: string | null
  answered: number
}

export type StreamedBlockType = 'text' | 'thinking' | 'tool_use'

export interface ModelCallOptions {
  signal: AbortSignal
  /** A piece of block `index` arrived: text, thinking, or a fragment of a tool call's JSON input. */
  onDelta(index: number, blockType: StreamedBlockType, text: string): void
}

export interface ModelReply {
  content: ContentBlock[]
  stopReason: string | null
  model: string
  usage?: Record<string, unknown>
}

export interface ModelClient {
  /** The model id sent to the API, or `scripted:FILE`. */
  readonly id: string
  /** One streamed completion. Throws ModelCallError (never anything else) when it fails. */
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelReply>
}

/** Why a model call failed, in terms the user can act on. */
export const MODEL_ERROR_CODES = [
  'auth',
  'rate_limit',
  'overloaded',
  'network',
  'stream_dropped',
  'bad_request',
  /** The API refused the request as longer than the model's context window (400). */
  'prompt_too_long',
  'api',
  'aborted'
] as const
export type ModelErrorCode = (typeof MODEL_ERROR_CODES)[number]

/**
 * A failed model call: `message` is one line for the user (no stack), `partialText` holds the text
 * blocks that finished streaming before the failure.
 */
export class ModelCallError extends CodedError {
  constructor(
    /** What went wrong with the call; `code` is its contract code (a stop is `stopped`). */
    readonly modelCode: ModelErrorCode,
    message: string,
    readonly partialText: string[] = []
  ) {
    super(modelCode === 'aborted' ? 'stopped' : 'unavailable', message)
    this.name = 'ModelCallError'
  }
}
