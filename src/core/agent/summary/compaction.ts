// Compaction: the older part of the branch replaced, in what the model sees, by a summary in a
// compaction record (context.ts: the summary, then the records from firstKeptUuid on). Used
// automatically before a request whose context passes the threshold, after the API refused one as
// too long, by /compact, and by "Summarize up to here" (a compaction whose first kept record is
// the chosen prompt). Records are only appended: what the summary replaces stays in the file.
//
// Where the cut goes: the recent records kept verbatim are whole turns (from a prompt on) worth
// at most keepBudget tokens; when even the last turn is bigger, whole steps (from an answer of
// the model on, so a tool_use keeps its tool_result); at worst the last step alone. Never in the
// middle of a step.
import type { CompactionRecord } from '../../session/records'
import { isPrompt, type TreeRecord } from '../../session/tree'
import { NotFoundError } from '../../../shared/coded-error'
import { modelView } from '../context'
import { filesTouched } from './files-touched'
import { summarize, summaryDetails, type SummaryContext } from './summarize'
import { contextUsageLoading, estimateRecordTokens } from './tokens'

export const DEFAULT_COMPACTION_THRESHOLD = 0.8

export interface CompactionSettings {
  /** Compact when the context would pass this share of the window (0 < threshold ≤ 1). */
  threshold: number
  /** The model's context window, in tokens. */
  contextWindow: number
}

/** Tokens of recent records kept verbatim: a fifth of the window, at most 20,000. */
export function keepBudget(window: number): number {
  return Math.min(20_000, Math.floor(window * 0.2))
}

export function overThreshold(tokens: number, settings: CompactionSettings): boolean {
  return tokens > settings.threshold * settings.contextWindow
}

export interface CompactionCut {
  /** What the summary covers: the records the model sees before the first kept one. */
  summarized: TreeRecord[]
  firstKeptUuid: string
}

/**
 * Where to cut the branch's view so the kept part fits `keepTokens`; null when nothing would be
 * gained (what comes before every possible cut is already one summary).
 */
export function planCompaction(
  path: readonly TreeRecord[],
  keepTokens: number
): CompactionCut | null {
  const view = modelView(path)
  // Tokens from each record to the end, for every cut at once.
  const suffix = new Array<number>(view.length + 1).fill(0)
  for (let i = view.length - 1; i >= 0; i--) {
    suffix[i] = (suffix[i + 1] ?? 0) + estimateRecordTokens(view[i] as TreeRecord)
  }
  const firstNew = view[0]?.type === 'compaction' ? 1 : 0
  let turnCut = -1
  let stepCut = -1
  let lastCut = -1
  for (let k = firstNew + 1; k < view.length; k++) {
    const record = view[k] as TreeRecord
    const turn = record.type === 'user' && isPrompt(record)
    if (!turn && record.type !== 'assistant') continue
    lastCut = k
    const fits = (suffix[k] ?? 0) <= keepTokens
    if (fits && turn && turnCut === -1) turnCut = k
    if (fits && stepCut === -1) stepCut = k
  }
  const k = turnCut !== -1 ? turnCut : stepCut !== -1 ? stepCut : lastCut
  const first = view[k]
  if (k === -1 || first === undefined) return null
  return { summarized: view.slice(0, k), firstKeptUuid: first.uuid }
}

/**
 * Compacts the active branch now: plans the cut, asks for the summary, appends the compaction
 * record (the new leaf). Null when there is nothing to compact. Throws the model's error.
 */
export async function compactBranch(
  ctx: SummaryContext,
  trigger: CompactionRecord['trigger'],
  instructions?: string
): Promise<CompactionRecord | null> {
  const tree = ctx.store.tree()
  const path = tree.activePath()
  const cut = planCompaction(path, keepBudget(ctx.window))
  if (cut === null) return null
  return appendCompactionOf(ctx, cut, trigger, instructions)
}

/**
 * "Summarize up to here": everything before the prompt becomes one summary, the prompt and what
 * follows it stay verbatim. The prompt must be on the active branch. Null when what comes
 * before it already is a single summary.
 */
export async function compactUpTo(
  ctx: SummaryContext,
  promptUuid: string,
  instructions?: string
): Promise<CompactionRecord | null> {
  const path = ctx.store.tree().activePath()
  const at = promptIndexOnPath(path, promptUuid)
  const view = modelView(path)
  const seen = view.findIndex((r) => r.uuid === promptUuid)
  // The prompt is in what the model sees: what it sees before it. Already compacted away: what it
  // saw when the prompt was sent (the turns after it come back verbatim).
  const summarized = seen >= 0 ? view.slice(0, seen) : [...modelView(path.slice(0, at))]
  if (!summarized.some((r) => r.type !== 'compaction')) return null
  return appendCompactionOf(ctx, { summarized, firstKeptUuid: promptUuid }, 'manual', instructions)
}

async function appendCompactionOf(
  ctx: SummaryContext,
  cut: CompactionCut,
  trigger: CompactionRecord['trigger'],
  instructions: string | undefined
): Promise<CompactionRecord> {
  const tree = ctx.store.tree()
  const tokensBefore = (await contextUsageLoading(tree.activePath(), ctx.frame, ctx.window)).tokens
  const summary = await summarize(ctx, {
    records: cut.summarized,
    files: filesTouched(cut.summarized, tree, ctx.cwd),
    kind: 'earlier',
    instructions
  })
  return ctx.store.appendCompaction({
    summary: summary.text,
    firstKeptUuid: cut.firstKeptUuid,
    tokensBefore,
    trigger,
    details: summaryDetails(summary, instructions)
  })
}

/** Where a prompt sits on the branch; refused (not_found) when it is no prompt on it. */
export function promptIndexOnPath(path: readonly TreeRecord[], promptUuid: string): number {
  const at = path.findIndex((r) => r.uuid === promptUuid)
  const record = path[at]
  if (record === undefined || record.type !== 'user' || !isPrompt(record)) {
    throw new NotFoundError(
      `${promptUuid} is not a prompt on the active branch: switch to its branch first. Nothing was changed.`
    )
  }
  return at
}
