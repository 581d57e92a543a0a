// What the API reported for a turn's answers, as the inspector shows it (NodeDetail.usage): the
// requests, tokens in and out, cache reads and writes, and the context's size at the last one.
import type { NodeDetail } from '../../shared/views'
import { usageTokens } from '../agent/summary/tokens'
import type { TreeRecord } from '../session/tree'

/** What the API reported for a turn's answers (usage on each assistant record); null: nothing. */
export function turnUsage(records: readonly (TreeRecord | undefined)[]): NodeDetail['usage'] {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : 0)
  const usage: NonNullable<NodeDetail['usage']> = {
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
    contextTokens: 0
  }
  for (const record of records) {
    if (record?.type !== 'assistant') continue
    const counted = usageTokens(record.message.usage)
    if (counted === null) continue
    const u = record.message.usage as Record<string, unknown>
    usage.requests += 1
    usage.inputTokens += n(u.input_tokens)
    usage.outputTokens += n(u.output_tokens)
    usage.cacheReadTokens += n(u.cache_read_input_tokens)
    usage.cacheCreationTokens += n(u.cache_creation_input_tokens)
    usage.contextTokens = n(counted)
  }
  return usage.requests === 0 ? null : usage
}
