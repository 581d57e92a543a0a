// What a crash left of parallel runs: a run whose process died mid-run keeps its manifest (read
// as stopped), its log (adoptable: its backups are in the session's file history) and its
// workspace, which nobody will work in again. gc removes such workspaces (their git worktrees and
// refs through git) and run folders a crash left before their manifest was written. Never a
// user's file: only folders `<data home>/runs/<folder>/<run>/` are looked at, a run's log and
// manifest are kept, and removeRunWorkspace deletes links, never what they lead to.
import { lstatSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { MANIFEST_NAME, type RunManifest, readRun, saveRun } from './run-manifest'
import { RUN_WORKSPACE_NAME, runsDir } from '../session/paths'
import { removeRunWorkspace } from './run-workspace'

/** A folder with no manifest this old is a crash's leftover, not a run being made. */
const HALF_MADE_AGE_MS = 10 * 60_000

export interface RunsCollected {
  /** Runs whose workspace was removed. */
  runs: RunManifest[]
  /** Run folders removed whole (no manifest). */
  folders: string[]
}

export async function collectRuns(home: string, now = Date.now()): Promise<RunsCollected> {
  const collected: RunsCollected = { runs: [], folders: [] }
  const root = join(home, 'runs')
  for (const folder of names(root)) {
    for (const id of names(join(root, folder))) {
      const dir = join(root, folder, id)
      const run = readRun(dir)
      if (run === null) {
        if (!hasManifest(dir) && olderThan(dir, now - HALF_MADE_AGE_MS)) {
          rmSync(dir, { recursive: true, force: true })
          collected.folders.push(dir)
        }
        continue
      }
      // Stopped with no end time: its process died mid-run (readRun).
      if (run.state === 'stopped' && run.endedAt === null && run.removed === null) {
        await removeRunWorkspace(home, run)
        const saved: RunManifest = { ...run, removed: 'collected' }
        saveRun(home, saved)
        collected.runs.push(saved)
      }
    }
  }
  return collected
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function hasManifest(dir: string): boolean {
  return names(dir).includes(MANIFEST_NAME)
}

function olderThan(dir: string, time: number): boolean {
  try {
    return statSync(dir).mtimeMs < time
  } catch {
    return false
  }
}

/** The disk the run workspaces of each workspace folder take (blocks, as `du` counts them). */
export function runsUsage(home: string): { folder: string; workspaces: number; bytes: number }[] {
  const root = join(home, 'runs')
  return names(root).map((folder) => {
    let workspaces = 0
    let bytes = 0
    for (const id of names(join(root, folder))) {
      const work = join(root, folder, id, RUN_WORKSPACE_NAME)
      const size = diskUse(work)
      if (size === null) continue
      workspaces++
      bytes += size
    }
    return { folder, workspaces, bytes }
  })
}

/** The disk a run's workspace takes now (blocks, as `du` counts them); null: it has none. */
export function runWorkspaceUse(home: string, run: { cwd: string; id: string }): number | null {
  return diskUse(join(runsDir(home, run.cwd), run.id, RUN_WORKSPACE_NAME))
}

/** The blocks under `path`, links not followed; null when nothing is there. */
function diskUse(path: string): number | null {
  let info
  try {
    info = lstatSync(path)
  } catch {
    return null
  }
  let bytes = info.blocks * 512
  if (info.isDirectory()) for (const name of names(path)) bytes += diskUse(join(path, name)) ?? 0
  return bytes
}
