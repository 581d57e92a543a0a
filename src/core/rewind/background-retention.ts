// A session's opening prunes the workspace's old backups once a day (retention.ts). Over a few
// logs that takes milliseconds and runs before the session opens, as it always did. Over many
// (its first run over 10,000 logs that backed files up reads each one: seconds) it runs in a
// worker thread (retention-worker.ts) beside the session instead, so the host serves its page and
// the user works meanwhile (docs/performance.md). It prunes nothing a working session can reach
// by its rules (the latest checkpoints of every session, what undo and redo reach, anything used
// in the last day): the same rules that let `rewind-studio gc` run from another process beside a
// live session.
import { statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { startModuleWorker } from '../os/module-worker'
import { jsonlFilesIn } from '../sources/session-index'
import { claimRetentionIfDue, pruneClaimed, retentionFailure } from './retention'
import type { RetentionJob } from './retention-worker'

/** Session logs up to this many bytes in all are pruned over before the session opens. */
export const PRUNED_BEFORE_OPENING_BYTES = 8 * 1024 * 1024

export interface Pruning {
  /** What a pruning run before the session opened has for the user. */
  done: string[]
  /** A pruning going on beside the session: its lines once it is done; null when none is. */
  going: Promise<string[]> | null
}

/**
 * The day's pruning of the workspace of `historyRoot`, if due: claimed at once (so no opening
 * beside this one runs it too), then run inline over logs of at most `beforeOpeningBytes` in
 * all, else in a worker.
 */
export async function pruneWhenDue(
  home: string,
  historyRoot: string,
  beforeOpeningBytes = PRUNED_BEFORE_OPENING_BYTES
): Promise<Pruning> {
  const workspace = basename(historyRoot)
  try {
    if (!(await claimRetentionIfDue(home, workspace))) return { done: [], going: null }
  } catch (error) {
    return { done: [retentionFailure(error)], going: null }
  }
  if (logBytes(join(home, 'sessions', workspace), beforeOpeningBytes) <= beforeOpeningBytes) {
    return { done: await pruneClaimed(home, historyRoot), going: null }
  }
  return { done: [], going: pruneInWorker({ home, historyRoot }) }
}

/** The bytes of the session logs in `folder`, counted until they pass `limit`. */
function logBytes(folder: string, limit: number): number {
  let bytes = 0
  for (const name of jsonlFilesIn(folder)) {
    bytes += statSync(join(folder, name), { throwIfNoEntry: false })?.size ?? 0
    if (bytes > limit) break
  }
  return bytes
}

/** pruneClaimed in a worker thread of its own; never rejects. */
function pruneInWorker(job: RetentionJob): Promise<string[]> {
  return new Promise((resolve) => {
    const worker = startModuleWorker(import.meta.url, 'retention-worker')
    let settled = false
    const settle = (lines: string[]) => {
      if (settled) return
      settled = true
      resolve(lines)
      void worker.terminate()
    }
    worker.once('message', (lines: string[]) => settle(lines))
    worker.once('error', (error) => settle([retentionFailure(error)]))
    worker.once('exit', (code) =>
      settle(code === 0 ? [] : [`Backup retention stopped before its end (exit code ${code}).`])
    )
    worker.postMessage(job)
  })
}
