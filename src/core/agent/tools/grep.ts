// Grep: lines matching a regular expression, in ripgrep's `path:line:text` form (content mode,
// so one call answers where and what). Pure JavaScript (no ripgrep binary here): JavaScript
// regex syntax, one line at a time; .gitignore honoured, .git, binary and huge files skipped.
// The search runs in a worker thread (grep-worker.ts), so a pattern that backtracks for ever
// freezes nothing: the call is ended by Stop at once, and by its time limit otherwise, answering
// with what was found until then.
import { z } from 'zod'
import { WorkerPool } from '../../os/module-worker'
import type { GrepJob, GrepWorkerMessage } from './grep-worker'
import { resolveSearchBase } from './search-base'
import { ToolError } from './tool'
import type { Tool } from './tool'

export const MAX_GREP_LINES = 250
/** How long one search may run before it is stopped and answers with what it found. */
export const GREP_TIME_LIMIT_MS = 10_000

const GrepInput = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('JavaScript regular expression to search for in file contents'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('File or folder to search in (default: the workspace root)'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.{ts,tsx}"')
})
type GrepInput = z.infer<typeof GrepInput>

/** Refuses a pattern that does not compile, before any worker starts. */
function checkPattern(pattern: string): void {
  try {
    new RegExp(pattern)
  } catch (error) {
    throw new ToolError(`Invalid regular expression: ${(error as Error).message}`)
  }
}

interface SearchOutcome {
  lines: string[]
  matches: number
  files: Set<string>
  skippedLarge: number
  /** The search hit its time limit: the rest was not searched. */
  timedOut: boolean
}

/**
 * Runs `job` in a worker and collects what it posts. Resolves when the search is done or its
 * time is up (counted from the moment the worker starts searching: loading it is not the
 * search's fault), with what was found so far; rejects with "cancelled" when `signal` fires.
 * A worker that finished goes back to the pool; one stopped early is terminated, which ends
 * even a regex stuck on one line.
 */
function runSearch(
  pool: WorkerPool,
  job: GrepJob,
  signal: AbortSignal,
  timeLimitMs: number
): Promise<SearchOutcome> {
  const outcome: SearchOutcome = {
    lines: [],
    matches: 0,
    files: new Set(),
    skippedLarge: 0,
    timedOut: false
  }
  return new Promise((resolve, reject) => {
    const worker = pool.acquire()
    let settled = false
    let timer: NodeJS.Timeout | undefined
    /** `reuse`: the worker finished its job and may take the next one; otherwise it is ended. */
    const finish = (reuse: boolean, settle: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      if (reuse) pool.release(worker)
      else void worker.terminate()
      settle()
    }
    const onAbort = () => finish(false, () => reject(new ToolError('Grep was cancelled.')))
    signal.addEventListener('abort', onAbort, { once: true })
    worker.on('message', (message: GrepWorkerMessage) => {
      if (settled) return
      switch (message.type) {
        case 'started':
          timer = setTimeout(() => {
            outcome.timedOut = true
            finish(false, () => resolve(outcome))
          }, timeLimitMs)
          return
        case 'file':
          outcome.matches += message.matches
          outcome.files.add(message.path)
          outcome.lines.push(...message.lines)
          return
        case 'done':
          outcome.skippedLarge = message.skippedLarge
          finish(true, () => resolve(outcome))
          return
      }
    })
    worker.on('error', (error) => finish(false, () => reject(error)))
    worker.on('exit', (code) =>
      finish(false, () => reject(new Error(`the search worker exited early (code ${code})`)))
    )
    worker.postMessage(job)
  })
}

export function createGrepTool(timeLimitMs = GREP_TIME_LIMIT_MS): Tool<GrepInput> {
  const pool = new WorkerPool(import.meta.url, 'grep-worker')
  return {
    name: 'Grep',
    description: [
      'Searches file contents with a JavaScript regular expression, line by line.',
      'Returns matching lines as `path:line:text` (like `rg -n`), at most ' +
        `${MAX_GREP_LINES} lines; narrow with path or glob. Case-sensitive unless the pattern says otherwise ((?i) is not supported; use [Aa]).`,
      'A glob without "/" matches file names at any depth ("*.py"); with "/" it matches the path relative to path.',
      'Files ignored by .gitignore, the .git folder, binary files and files over 10 MB are skipped.',
      `A search stops after ${timeLimitMs / 1000} s and answers with what it found by then.`
    ].join('\n'),
    inputSchema: GrepInput,
    permission: 'read',
    describeCall: (input) =>
      input.path === undefined
        ? `Grep(${input.pattern})`
        : `Grep(${input.pattern} in ${input.path})`,
    async execute(input, ctx) {
      checkPattern(input.pattern)
      const base = await resolveSearchBase(ctx, input.path)
      if (ctx.signal.aborted) throw new ToolError('Grep was cancelled.')
      const found = await runSearch(
        pool,
        {
          pattern: input.pattern,
          root: base.path.root,
          base: base.path.abs,
          baseIsDirectory: base.isDirectory,
          glob: input.glob,
          cwd: ctx.cwd,
          maxLines: MAX_GREP_LINES
        },
        ctx.signal,
        timeLimitMs
      )
      const notes: string[] = []
      if (found.matches > found.lines.length) {
        notes.push(
          `(${found.matches - found.lines.length} more matching lines not shown: narrow the pattern, path or glob.)`
        )
      }
      if (found.skippedLarge > 0) {
        notes.push(`(${found.skippedLarge} files over 10 MB were not searched.)`)
      }
      if (found.timedOut) {
        notes.push(
          `(Search stopped after ${timeLimitMs / 1000} s: files after these were not searched. ` +
            'Narrow the path or glob, or simplify the pattern: nested repetition such as (a+)+ can take for ever.)'
        )
      }
      const body = found.matches === 0 ? 'No matches found' : found.lines.join('\n')
      return {
        isError: false,
        content: [body, ...notes].join('\n'),
        details: {
          matches: found.matches,
          files: found.files.size,
          ...(found.timedOut ? { timedOut: true } : {})
        }
      }
    }
  }
}

export const grepTool = createGrepTool()
