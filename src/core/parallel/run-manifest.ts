// A parallel run's manifest: `<runs>/<run id>/run.json` (session/paths.ts runsDir), what the run
// list, the compare table and adopt read of a run without opening its log. Written whole (temp +
// rename), so a crash leaves the last one written. The log is the truth for what the run did;
// the manifest says where things are and how the run ended.
//
// A manifest saying `running` whose process is gone is a run a crash (or a kill) cut short: it is
// read as `stopped` (readRun), and gc removes its workspace (run-gc.ts).
import { readdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod'
import { ensurePrivateDir, writePrivateFileSync } from '../os/private-files'
import { isProcessAlive } from '../os/process-alive'
import { readRegularText } from '../os/read-regular-file'
import { runsDir } from '../session/paths'

/** `queued`: waiting for a place (parallel.maxRuns); `running`: its workspace made or in use. */
export const RunState = z.enum(['queued', 'running', 'done', 'failed', 'stopped'])
export type RunState = z.infer<typeof RunState>

/** A run not yet at its end: it can be stopped, not adopted or discarded. */
export function isUnderway(run: Pick<RunManifest, 'state'>): boolean {
  return run.state === 'queued' || run.state === 'running'
}

export const CheckResult = z.object({
  command: z.string(),
  /** Null: it did not get to its end (timed out, killed); `tail` says why. */
  exitCode: z.number().int().nullable(),
  /** The last lines of its output (stdout and stderr as they came). */
  tail: z.string()
})
export type CheckResult = z.infer<typeof CheckResult>

export const RunManifest = z.object({
  id: z.string().regex(/^[A-Za-z0-9-]+$/),
  /** The session the run branches from (its log is written only when the run is joined). */
  sessionFile: z.string(),
  sessionId: z.string(),
  /** The user's workspace. */
  cwd: z.string(),
  /** The record the run continues from: the end of the node it was started at. */
  startUuid: z.string(),
  /** The runs started together share it (the compare table's group). */
  group: z.string(),
  prompt: z.string(),
  model: z.string(),
  /** How its workspace was made (run-workspace.ts). */
  kind: z.enum(['git', 'copy']),
  /** Its workspace folder (`<run>/work`); removed once the run is adopted or discarded. */
  workspace: z.string(),
  /**
   * For the git provider: the repository whose commit the run started from (its objects
   * borrowed). `ref` is null for runs made now; a run an earlier version made as a git worktree
   * names the private ref it was on, which its removal deletes with the worktree's entry.
   */
  repo: z.string().nullable(),
  ref: z.string().nullable(),
  /** The run's own log (a fork of the session at startUuid, its cwd the run's workspace). */
  runSession: z.string().nullable(),
  /** How many records of the run's log are the copy of the path to startUuid (not joined). */
  prefixRecords: z.number().int().min(0),
  state: RunState,
  pid: z.number().int(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  error: z.string().nullable(),
  check: CheckResult.nullable(),
  /** Its records are in the session's log (run-join.ts). */
  joined: z.boolean(),
  /** Where the run's conversation ended (its log's leaf), once joined. */
  leaf: z.string().nullable(),
  /** Its workspace was removed: adopted, discarded, or a crash's leftover collected. */
  removed: z.enum(['adopted', 'discarded', 'collected']).nullable()
})
export type RunManifest = z.infer<typeof RunManifest>

export const MANIFEST_NAME = 'run.json'

export function runDir(home: string, cwd: string, id: string): string {
  return join(runsDir(home, cwd), id)
}

/** Writes the manifest whole: a temp file beside it, renamed over it. */
export function saveRun(home: string, run: RunManifest): void {
  const dir = runDir(home, run.cwd, run.id)
  ensurePrivateDir(dir)
  const temp = join(dir, `${MANIFEST_NAME}.tmp`)
  writePrivateFileSync(temp, `${JSON.stringify(RunManifest.parse(run), null, 2)}\n`, {
    durable: true
  })
  renameSync(temp, join(dir, MANIFEST_NAME))
}

/**
 * A run's manifest, or null when it has none that reads (a folder half made, a damaged file).
 * A queued or running one whose process is gone reads as `stopped`.
 */
export function readRun(dir: string): RunManifest | null {
  let parsed: RunManifest
  try {
    parsed = RunManifest.parse(JSON.parse(readRegularText(join(dir, MANIFEST_NAME)) ?? 'null'))
  } catch {
    return null
  }
  if (isUnderway(parsed) && !runsHere(parsed) && !isProcessAlive(parsed.pid)) {
    const error =
      parsed.state === 'queued'
        ? 'its process ended before it started'
        : 'its process ended mid-run'
    return { ...parsed, state: 'stopped', error: parsed.error ?? error }
  }
  return parsed
}

/** Runs of this process are alive while it is: its pid says nothing more. */
function runsHere(run: RunManifest): boolean {
  return run.pid === process.pid
}

/** Every run of the workspace `cwd` (of any of its sessions), oldest first. */
export function listRuns(home: string, cwd: string): RunManifest[] {
  const root = runsDir(home, cwd)
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return []
  }
  return names
    .sort()
    .map((name) => readRun(join(root, name)))
    .filter((run): run is RunManifest => run !== null)
}

/** The runs of one session (by its id), oldest first. */
export function sessionRuns(home: string, cwd: string, sessionId: string): RunManifest[] {
  return listRuns(home, cwd).filter((run) => run.sessionId === sessionId)
}
