// The summary and compaction settings' values, apart from the views: the settings file is read
// by every command (the CLI's rewind among them), which then need not load every view's schema.
import * as z from 'zod'

/** Compact when the context would pass this share of the model's window. */
export const CompactionThreshold = z.number().gt(0).lte(1)
/** The context windows the settings accept, in tokens (the settings dialog's field says so too). */
export const CONTEXT_WINDOW_TOKENS = { min: 1_000, max: 100_000_000 } as const
/** The model's context window in tokens (the settings' compaction.contextWindow). */
export const ContextWindow = z
  .number()
  .int()
  .min(CONTEXT_WINDOW_TOKENS.min)
  .max(CONTEXT_WINDOW_TOKENS.max)
/**
 * What leaving a branch does with it (the remembered choice): ask each time (the app's dialog;
 * the terminal chat asks when it runs in a terminal), no summary, or a summary.
 */
export const SummaryOnLeave = z.enum(['ask', 'none', 'summarize'])
export type SummaryOnLeave = z.infer<typeof SummaryOnLeave>
