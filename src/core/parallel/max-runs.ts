// How many runs a start takes and how many go at once by default: apart from the launcher, so
// the model's setup (core/studio/model-setup.ts), which every `summarize` and `chat` loads, does
// not load the launcher and the whole workspace session behind it.
import { cpus } from 'node:os'

/** Most runs one start takes (the 1–8). */
export const MAX_RUNS_PER_START = 8

/** parallel.maxRuns unset: one run per core, at least 2, at most 8. */
export function defaultMaxRuns(): number {
  return Math.max(2, Math.min(MAX_RUNS_PER_START, cpus().length))
}
