// What the app shows of parallel runs (core/parallel): each run of the session with its state and
// its compare-table row (files, lines, tokens, time, check), placed in the graph by the node it
// started from and, once joined, the node its branch begins with. `Try in parallel…` starts them,
// the Runs table compares one start's runs, `Adopt this run` brings one in.
import * as z from 'zod'

export const RunStateView = z.enum(['queued', 'running', 'done', 'failed', 'stopped'])
export type RunStateView = z.infer<typeof RunStateView>

/** Most runs one start takes, and the longest --check command the page may give. */
export const MAX_PARALLEL_RUNS = 8
export const MAX_CHECK_CHARS = 4096

export const RunView = z.object({
  id: z.string(),
  /** The runs started together share it: the compare table's rows. */
  group: z.string(),
  /** The graph node the run started from (null: not in the graph, e.g. before the first prompt). */
  startNodeId: z.string().nullable(),
  state: RunStateView,
  prompt: z.string(),
  model: z.string(),
  startedAt: z.string(),
  files: z.array(z.string()),
  linesAdded: z.number().int(),
  linesRemoved: z.number().int(),
  /** What the model's answers say they cost; null: none said (the scripted model). */
  tokens: z.number().int().nullable(),
  /** Milliseconds from start to end (to now while it runs). */
  ms: z.number(),
  check: z
    .object({ command: z.string(), exitCode: z.number().int().nullable(), tail: z.string() })
    .nullable(),
  error: z.string().nullable(),
  /** Its records are a branch of the session: `nodeId` is the branch's first node there. */
  joined: z.boolean(),
  nodeId: z.string().nullable(),
  /** It ended with a turn of its own to adopt (not a run whose workspace could not be made). */
  adoptable: z.boolean(),
  /** Its workspace was removed: adopted, discarded, or a crash's leftover collected. */
  removed: z.enum(['adopted', 'discarded', 'collected']).nullable()
})
export type RunView = z.infer<typeof RunView>

/** The disk the workspaces of one start's runs take now, as `du` counts it (blocks). */
export const RunsDiskUse = z.object({ workspaces: z.number().int(), bytes: z.number().int() })
export type RunsDiskUse = z.infer<typeof RunsDiskUse>

export const RunsView = z.object({
  runs: z.array(RunView),
  /** How many run at once (setting parallel.maxRuns); the others wait. */
  maxRuns: z.number().int()
})
export type RunsView = z.infer<typeof RunsView>
