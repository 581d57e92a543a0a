// Token counts without a tokenizer: a quarter of the characters (of the JSON the request carries),
// the usual rule of thumb for English and code. It is cheap, deterministic, and the same figure
// everywhere (threshold check, budgets, the header's estimate); text in scripts with many tokens
// per character (Chinese, say) is undercounted, which the threshold's margin and the API's own
// "prompt is too long" answer (a compaction and a retry) make up for. Where the API reported
// usage, that count is used instead (contextUsage).
import type { ContextUsage } from '../../../shared/views'
import type { TreeRecord } from '../../session/tree'
import { messageOf, modelView } from '../context'
import type { ToolDefinition } from '../tools/tool'

export const CHARS_PER_TOKEN = 4

/** The window assumed for a model nobody configured: Claude models take 200,000 tokens. */
export const DEFAULT_CONTEXT_WINDOW = 200_000

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN)
}

export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value))
}

/**
 * The context an answer's request and the answer hold, as the API counted them (input, cache
 * reads and writes, output); null when the record carries no usage (the scripted model).
 */
export function usageTokens(usage: unknown): number | null {
  if (typeof usage !== 'object' || usage === null) return null
  const u = usage as Record<string, unknown>
  if (typeof u.input_tokens !== 'number') return null
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)
  return (
    n(u.input_tokens) +
    n(u.cache_creation_input_tokens) +
    n(u.cache_read_input_tokens) +
    n(u.output_tokens)
  )
}

/** What every request carries besides the messages. */
export interface RequestFrame {
  system: string
  tools: readonly ToolDefinition[]
}

/**
 * How big the next request on `path` is: the usage of the last answer on it plus an estimate of
 * what came after that answer; the whole request estimated where no answer since the last
 * compaction carries usage (an answer before a compaction measured a context that is gone).
 * `frame` is asked for only then: building the system prompt and the tools' JSON schemas costs
 * more than the rest of the count (a fresh `cli summarize` paid ~20 ms for it).
 */
export function contextUsage(
  path: readonly TreeRecord[],
  frame: () => RequestFrame,
  window: number
): ContextUsage {
  for (let i = path.length - 1; i >= 0; i--) {
    const record = path[i] as TreeRecord
    if (record.type === 'compaction') break
    if (record.type !== 'assistant') continue
    const counted = usageTokens(record.message.usage)
    if (counted === null) continue
    const after = path.slice(i + 1)
    return {
      tokens: counted + estimateRecordsTokens(after),
      window,
      estimated: after.length > 0
    }
  }
  return { tokens: estimateRequestTokens(path, frame()), window, estimated: true }
}

/**
 * A record's estimate, kept per record: records never change once in the tree, and the loop asks
 * for the context's size before every request (a long branch would be serialized again each time).
 */
const estimates = new WeakMap<TreeRecord, number>()

/** A record as the message it becomes, estimated (0 for one the model never sees). */
export function estimateRecordTokens(record: TreeRecord): number {
  let tokens = estimates.get(record)
  if (tokens === undefined) {
    const message = messageOf(record)
    tokens = message === null ? 0 : estimateJsonTokens(message)
    estimates.set(record, tokens)
  }
  return tokens
}

/** Records as the messages they become, estimated one by one (no pairing: a result counts). */
export function estimateRecordsTokens(records: readonly TreeRecord[]): number {
  let tokens = 0
  for (const record of records) tokens += estimateRecordTokens(record)
  return tokens
}

/** The tools' estimate, per list: an agent sends its one list with every request. */
const toolsEstimates = new WeakMap<readonly ToolDefinition[], number>()

function estimateToolsTokens(tools: readonly ToolDefinition[]): number {
  let tokens = toolsEstimates.get(tools)
  if (tokens === undefined) {
    tokens = estimateJsonTokens(tools)
    toolsEstimates.set(tools, tokens)
  }
  return tokens
}

/** The whole request on `path`, estimated: system prompt, tools and what the model sees. */
export function estimateRequestTokens(path: readonly TreeRecord[], frame: RequestFrame): number {
  return (
    estimateTokens(frame.system) +
    estimateToolsTokens(frame.tools) +
    estimateRecordsTokens(modelView(path))
  )
}
