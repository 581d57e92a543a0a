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
  const count = path.length === 0 ? null : recordsCount(path)
  return count?.measured === true
    ? measuredUsage(count, window)
    : estimatedUsage(count, frame(), window)
}

/**
 * contextUsage with a frame that may have to be loaded first: `cli summarize` loads the built-in
 * tools (their modules and schemas) only when the count needs them, as most branches carry usage.
 */
export async function contextUsageLoading(
  path: readonly TreeRecord[],
  frame: () => RequestFrame | Promise<RequestFrame>,
  window: number
): Promise<ContextUsage> {
  const count = path.length === 0 ? null : recordsCount(path)
  return count?.measured === true
    ? measuredUsage(count, window)
    : estimatedUsage(count, await frame(), window)
}

function measuredUsage(count: RecordsCount, window: number): ContextUsage {
  return { tokens: count.tokens, window, estimated: count.after > 0 }
}

function estimatedUsage(
  count: RecordsCount | null,
  frame: RequestFrame,
  window: number
): ContextUsage {
  return { tokens: (count?.tokens ?? 0) + estimateFrameTokens(frame), window, estimated: true }
}

/**
 * A path's records counted: the last answer's usage plus the estimates of the `after` records
 * that follow it (`measured`), or the estimates of what the model sees (the frame not included).
 */
interface RecordsCount {
  tokens: number
  measured: boolean
  after: number
  /** The path it counts: its first record and its length (with its last record, the key). */
  first: TreeRecord
  length: number
}

/**
 * Counts kept by the last record of the path counted: records never change once in the tree,
 * and the loop asks before and after every request, for a path that is most often the last one
 * plus a few records: only those are counted then (bench/agent-turn.ts).
 */
const counts = new WeakMap<TreeRecord, RecordsCount>()

/** An answer the API measured, or a compaction: where a count starts afresh. */
function startsCount(record: TreeRecord): boolean {
  return (
    record.type === 'compaction' ||
    (record.type === 'assistant' && usageTokens(record.message.usage) !== null)
  )
}

/** The count of a path that is not empty. */
function recordsCount(path: readonly TreeRecord[]): RecordsCount {
  const [first, last] = [path[0] as TreeRecord, path[path.length - 1] as TreeRecord]
  let count: RecordsCount | null = null
  // The latest count of a prefix of this path, unless a record after it starts a count afresh.
  for (let i = path.length - 1; i >= 0 && count === null; i--) {
    const record = path[i] as TreeRecord
    const kept = counts.get(record)
    if (kept !== undefined && kept.first === first && kept.length === i + 1) {
      const added = path.slice(i + 1)
      count = {
        ...kept,
        tokens: kept.tokens + estimateRecordsTokens(added),
        after: kept.after + added.length,
        length: path.length
      }
    } else if (startsCount(record)) break
  }
  count ??= countWhole(path, first)
  counts.set(last, count)
  return count
}

function countWhole(path: readonly TreeRecord[], first: TreeRecord): RecordsCount {
  for (let i = path.length - 1; i >= 0; i--) {
    const record = path[i] as TreeRecord
    if (record.type === 'compaction') break
    if (record.type !== 'assistant') continue
    const counted = usageTokens(record.message.usage)
    if (counted === null) continue
    const after = path.slice(i + 1)
    const tokens = counted + estimateRecordsTokens(after)
    return { tokens, measured: true, after: after.length, first, length: path.length }
  }
  const tokens = estimateRecordsTokens(modelView(path))
  return { tokens, measured: false, after: 0, first, length: path.length }
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

/** What a request carries besides its messages, estimated. */
function estimateFrameTokens(frame: RequestFrame): number {
  return estimateTokens(frame.system) + estimateToolsTokens(frame.tools)
}
