// A listing built in steps. The session index is built by one synchronous builder, a generator
// that stops after each file it had to read (session-index.ts folderSteps, discovery.ts
// workspaceSessionSteps). The CLI runs it to the end at once (runToEnd: it prints once); a host
// runs it in bounded batches (runInSteps), giving the event loop back between them, so it answers
// every other request meanwhile, and each batch's sessions go to the pages as they are found.
// A cold index of 10,000 sessions took 7.4 s of one synchronous call, during which the host
// answered nothing (docs/performance.md).
//
// Stopped between two batches, a build reads and writes nothing more: the index's cache files
// are written once, whole (temp file and rename), when the builder reaches the end of a folder,
// so a stop (the host quitting, its workspace closed) leaves each as the last finished build
// wrote it.
import { CodedError } from '../../shared/coded-error'

/** What the builder says after each file it read. */
export interface ListingStep<T> {
  /** What it found to list since its step before (in the order found, not the list's). */
  found: T[]
  /** Files looked at so far (read, or taken from the index), of `total`. */
  done: number
  total: number
  /** Bytes read for this step. */
  bytes: number
}

/** What a folder's builder says after a file it read: its place among the names, the bytes read. */
export interface FileRead {
  at: number
  bytes: number
}

/**
 * A folder's reads as the listing's steps: how far the whole listing is (`progress.done`: the
 * files of the folders before this one), and what it found since the step before (`fresh`).
 */
export function* countedSteps<T>(
  reads: Generator<FileRead, void>,
  progress: { done: number; total: number },
  fresh: () => T[]
): Generator<ListingStep<T>, void> {
  for (let read = reads.next(); read.done !== true; read = reads.next()) {
    yield {
      found: fresh(),
      done: progress.done + read.value.at + 1,
      total: progress.total,
      bytes: read.value.bytes
    }
  }
}

const noStep = <T>(): ListingStep<T> => ({ found: [], done: 0, total: 0, bytes: 0 })

/** `step` added to `into`: what both found, how far the later one got, the bytes of both. */
function absorb<T>(into: ListingStep<T>, step: ListingStep<T>): void {
  for (const found of step.found) into.found.push(found)
  into.done = step.done
  into.total = step.total
  into.bytes += step.bytes
}

/** The most one batch reads before the host gets its event loop back (a file is never split). */
export interface StepBound {
  files: number
  bytes: number
}

/**
 * A batch of 32 files or 4 MB: tens of milliseconds on this machine's figures (10,000 files of
 * 50 KB in 7.4 s is 0.74 ms a file), well under what a click can wait for.
 */
export const STEP_BOUND: StepBound = { files: 32, bytes: 4 * 1024 * 1024 }

/** The builder run to its end in one go: what the CLI and every synchronous caller do. */
export function runToEnd<R>(steps: Generator<unknown, R>): R {
  let next = steps.next()
  while (next.done !== true) next = steps.next()
  return next.value
}

/** The build was stopped before its end (runInSteps' `stopped`). */
export class ListingStoppedError extends CodedError {
  constructor() {
    super('stopped', 'Listing the sessions stopped: the workspace was closed.')
    this.name = 'ListingStoppedError'
  }
}

/**
 * The builder run in batches of at most `bound`, the event loop given back between them. After
 * each batch but the last, `onStep` gets what the batch found and how far the build is; the last
 * one's are in the result, so a listing that needs one batch or less (a warm index, a session
 * that grew) tells nobody anything. `stopped` is asked before each batch: once true, the builder
 * is left where it is and the promise rejects (ListingStoppedError).
 */
export async function runInSteps<T, R>(
  steps: Generator<ListingStep<T>, R>,
  options: {
    bound?: StepBound
    onStep?: (step: ListingStep<T>) => void
    stopped?: () => boolean
  } = {}
): Promise<R> {
  const bound = options.bound ?? STEP_BOUND
  for (;;) {
    if (options.stopped?.() === true) throw new ListingStoppedError()
    let batch: ListingStep<T> | null = null
    let files = 0
    let next = steps.next()
    while (next.done !== true) {
      batch ??= noStep()
      absorb(batch, next.value)
      files++
      if (files >= bound.files || batch.bytes >= bound.bytes) break
      next = steps.next()
    }
    if (next.done === true) return next.value
    await new Promise<void>((resolve) => setImmediate(resolve))
    // Told once the event loop had its turn, never from inside the call that started the build:
    // by then the caller holds the build (to join or stop it).
    if (batch !== null) options.onStep?.(batch)
  }
}

/** One key's build in steps: its answer, whether to stop, what it told so far. */
interface Build<T> {
  done: Promise<T[]>
  stop: boolean
  told: ListingStep<T>
}

/**
 * Builds in steps by key (a workspace): a second caller while one is going joins it (no second
 * build, the same answer), and its `onStep` is told once, on the event loop's next turn, what the
 * build told so far (a page that joins has missed it); the steps after go on to the first
 * caller's. A build stopped leaves its key at once: a caller after the stop builds anew.
 */
export class SteppedBuilds<T> {
  private readonly going = new Map<string, Build<T>>()

  run(
    key: string,
    start: () => Generator<ListingStep<T>, T[]>,
    onStep?: (step: ListingStep<T>) => void,
    bound?: StepBound
  ): Promise<T[]> {
    const going = this.going.get(key)
    if (going !== undefined) {
      if (onStep !== undefined) {
        setImmediate(() => {
          if (going.told.found.length > 0) onStep({ ...going.told, found: [...going.told.found] })
        })
      }
      return going.done
    }
    const build: Build<T> = { done: Promise.resolve([]), stop: false, told: noStep() }
    build.done = runInSteps(start(), {
      bound,
      onStep: (step) => {
        absorb(build.told, step)
        onStep?.(step)
      },
      stopped: () => build.stop
    }).finally(() => {
      if (this.going.get(key) === build) this.going.delete(key)
    })
    this.going.set(key, build)
    return build.done
  }

  /** Stops the key's build between two of its steps (its callers get ListingStoppedError). */
  stop(key: string): void {
    const build = this.going.get(key)
    if (build === undefined) return
    build.stop = true
    this.going.delete(key)
  }
}
