// The summarizer: one model call that turns part of a session into a structured summary (see
// summary-request.ts), through the same ModelClient as the turns: the real model via the SDK
// (same errors, same retries, cancelled by the signal) or the scripted model (its "summary").
import { CodedError } from '../../../shared/coded-error'
import type { SessionStore } from '../../session/store'
import type { TreeRecord } from '../../session/tree'
import { ModelCallError, type ModelClient } from '../model/model-client'
import type { FilesTouched } from './files-touched'
import { type SummaryKind, summaryRequest, summaryWithFiles } from './summary-request'
import type { RequestFrame } from './tokens'

/** What every summary operation works with; the agent gives it (Agent.runSummaryJob). */
export interface SummaryContext {
  store: SessionStore
  model: ModelClient
  cwd: string
  /** The model's context window, in tokens (setting compaction.contextWindow). */
  window: number
  /**
   * What the agent's requests carry besides messages, for the context's size (see contextUsage);
   * asked for only when the size must be estimated, and may load what it needs first.
   */
  frame: () => RequestFrame | Promise<RequestFrame>
  signal: AbortSignal
  /** How many characters of the summary the model wrote so far, as they come (the progress). */
  onWritten?: (chars: number) => void
}

export interface Summary {
  /** The model's summary followed by the files lists: what the record stores. */
  text: string
  files: FilesTouched
}

/**
 * Budgets from the window: the part to summarize gets half of it (so the summary request always
 * fits, whatever the window), the summary a tenth (at most 8,192 tokens).
 */
export function summaryBudget(window: number): { input: number; output: number } {
  return {
    input: Math.floor(window * 0.5),
    output: Math.min(8_192, Math.max(256, Math.floor(window * 0.1)))
  }
}

export interface SummarizeInput {
  records: readonly TreeRecord[]
  files: FilesTouched
  kind: SummaryKind
  instructions?: string | undefined
}

/**
 * Asks the model for the summary. Throws ModelCallError as a turn's call does (`aborted` when
 * the signal fires). A request the API finds too long anyway (the estimate is rough) is sent
 * once more with half the budget.
 */
export async function summarize(
  ctx: Pick<SummaryContext, 'model' | 'window' | 'signal' | 'onWritten'>,
  input: SummarizeInput
): Promise<Summary> {
  const budget = summaryBudget(ctx.window)
  for (let room = budget.input; ; room = Math.floor(room / 2)) {
    let written = 0
    try {
      const reply = await ctx.model.complete(
        summaryRequest({
          records: input.records,
          kind: input.kind,
          budgetTokens: room,
          maxTokens: budget.output,
          instructions: input.instructions
        }),
        {
          signal: ctx.signal,
          onDelta: (_index, type, text) => {
            if (type !== 'text') return
            written += text.length
            ctx.onWritten?.(written)
          }
        }
      )
      const text = reply.content
        .flatMap((b) => (b.type === 'text' && 'text' in b ? [b.text] : []))
        .join('\n')
        .trim()
      if (text === '') {
        throw new ModelCallError('api', 'The model answered the summary request with no text.')
      }
      return { text: summaryWithFiles(text, input.files), files: input.files }
    } catch (error) {
      const retry =
        error instanceof ModelCallError &&
        error.modelCode === 'prompt_too_long' &&
        room === budget.input
      if (!retry) throw error
    }
  }
}

/** What a summary's record keeps beside its text (details, never sent to the model). */
export function summaryDetails(
  summary: Summary,
  instructions: string | undefined,
  extra: Record<string, unknown> = {}
): Record<string, unknown> {
  const given = instructions?.trim() ?? ''
  return {
    ...extra,
    readFiles: summary.files.read,
    modifiedFiles: summary.files.modified,
    ...(given !== '' ? { instructions: given } : {})
  }
}

/** A summary the user asked for that was stopped or failed; nothing was changed. */
export class SummaryError extends CodedError {
  override name = 'SummaryError'
}

/** The error a summary operation reports: a stop or a model failure said in words, coded. */
export function summaryFailure(error: unknown): unknown {
  if (!(error instanceof ModelCallError)) return error
  return error.modelCode === 'aborted'
    ? new SummaryError('stopped', 'Stopped: no summary was made and nothing was changed.')
    : new SummaryError('unavailable', `The summary failed: ${error.message} Nothing was changed.`)
}
