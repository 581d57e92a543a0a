// Runs a Glob or Grep search in a worker thread (search-worker.ts) and hands its results to the
// tool as they come. The call ends when the search is done, when it is cancelled (the worker is
// terminated: even a pattern stuck on one line stops at once), or when its time is up (the
// worker is terminated, and the tool answers with what was found so far).
import { WorkerPool } from '../../os/module-worker'
import type { SearchJob, SearchMessage } from './search-worker'
import { ToolError } from './tool'

/** How long one search may run before it is stopped and answers with what it found. */
export const SEARCH_TIME_LIMIT_MS = 10_000

/** What the worker posts besides its start and end. */
export type SearchResult = Exclude<SearchMessage, { type: 'started' } | { type: 'done' }>

/** Shared by Glob and Grep; its worker is started on the first search, not at import. */
let pool: WorkerPool | null = null

/**
 * Runs `job`, passing each result to `onResult`. Resolves with whether the time limit stopped
 * it (the rest was not searched). Rejects with "<tool> was cancelled." when
 * `signal` fires. The time limit counts from the moment the worker starts searching (loading
 * it is not the search's fault). A worker that finished goes back to the pool; one stopped
 * early is terminated.
 */
export function runSearch(
  tool: string,
  job: SearchJob,
  signal: AbortSignal,
  timeLimitMs: number,
  onResult: (result: SearchResult) => void
): Promise<{ timedOut: boolean }> {
  if (signal.aborted) return Promise.reject(new ToolError(`${tool} was cancelled.`))
  pool ??= new WorkerPool(import.meta.url, 'search-worker')
  const workers = pool
  return new Promise((resolve, reject) => {
    const worker = workers.acquire()
    let settled = false
    let timer: NodeJS.Timeout | undefined
    /** `reuse`: the worker finished its job and may take the next one; otherwise it is ended. */
    const finish = (reuse: boolean, settle: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      if (reuse) workers.release(worker)
      else void worker.terminate()
      settle()
    }
    const onAbort = () => finish(false, () => reject(new ToolError(`${tool} was cancelled.`)))
    signal.addEventListener('abort', onAbort, { once: true })
    worker.on('message', (message: SearchMessage) => {
      if (settled) return
      switch (message.type) {
        case 'started':
          timer = setTimeout(() => finish(false, () => resolve({ timedOut: true })), timeLimitMs)
          return
        case 'done':
          finish(true, () => resolve({ timedOut: false }))
          return
        default:
          onResult(message)
      }
    })
    worker.on('error', (error) => finish(false, () => reject(error)))
    worker.on('exit', (code) =>
      finish(false, () => reject(new Error(`the search worker exited early (code ${code})`)))
    )
    worker.postMessage(job)
  })
}

/** The line a search stopped by its time limit ends with. */
export function stoppedNote(timeLimitMs: number): string {
  return (
    `(Search stopped after ${timeLimitMs / 1000} s: files after these were not searched. ` +
    'Narrow the path, or simplify the pattern: nested repetition such as (a+)+ or many stars in one name can take for ever.)'
  )
}
