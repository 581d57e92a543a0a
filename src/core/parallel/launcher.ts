// Parallel runs: K attempts started from one node of a session, at once, each in its own
// workspace (run-workspace.ts), each a branch of the session's tree once it ends.
//
// A run, in this order:
//   1. its manifest (run-manifest.ts), state queued for every run at the launch, running once it
//      has a place: from here a crash leaves a run listed as stopped, whose leftovers gc
//      collects (run-gc.ts);
//   2. its workspace, made from the start node's files; the user's workspace is only read. A
//      repository's checkout is made when the run starts; a folder's copies are made for every
//      run of the start not stopped yet, in one walk, when the first starts (a run stopped
//      before it starts has its copy removed);
//   3. its own log: a fork of the session at the start node (the same uuids), its cwd the run's
//      workspace, beside the manifest; one writer per run, so runs append at once and a crash
//      cuts at most each log's last line;
//   4. the agent on it (workspace/workspace-session.ts, as the chat and the app run it): every tool
//      resolves paths in the run's workspace, Bash runs there (in the sandbox when bash.sandbox
//      is on), backups go to the session's own file history, where adopt reads them;
//   5. when the turn ends: --check in its workspace, then its records joined into the session
//      (run-join.ts) as a branch of the start node, the session's leaf left where it was.
// At most maxRuns run at once; the others wait for a place, queued (a stop then means it never
// starts). stop(id) stops one run (its model
// call is cancelled, its command's process group killed: the agent's stop), stopAll() them all.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { PermissionMode } from '../../shared/messages'
import type { AgentEvent, PermissionRequest } from '../../shared/views'
import type { ModelClient } from '../agent/model/model-client'
import type { CompactionSettings } from '../agent/summary/compaction'
import type { BlobStore } from '../files/blob-store'
import type { IgnoredFilesPolicy } from '../files/ignored-files'
import { filesAsNodeLeftThem } from '../rewind/node-files'
import { forkCopy } from '../session/fork'
import { SessionStore } from '../session/store'
import { uuidv7 } from '../session/uuid-v7'
import { WorkspaceSession } from '../workspace/workspace-session'
import { runCheck } from './check'
import { MAX_RUNS_PER_START } from './max-runs'
import { joinRun } from './run-join'
import { isUnderway, type RunManifest, type RunState, runDir, saveRun } from './run-manifest'
import { writePrivateFileSync } from '../os/private-files'
import {
  gitRepoOf,
  makeRunDir,
  makeRunWorkspace,
  makeRunWorkspaces,
  removeRunWorkspace,
  type Repo,
  type RunWorkspace,
  type RunWorkspaceSpec
} from './run-workspace'

/** A file asking the run in its folder to stop (requestStop), looked for this often. */
export const STOP_FILE = 'stop'
const STOP_POLL_MS = 500

/**
 * A run edits its own workspace only, and nobody is there to ask: edits need no asking there
 * (the session's mode otherwise, so commands still need bypassPermissions).
 */
export function runPermissionMode(mode: PermissionMode): PermissionMode {
  return mode === 'default' ? 'acceptEdits' : mode
}

/**
 * The places runs take while they run: one launch's (maxRuns), or shared by every launch of a
 * host, so two starts together still run at most maxRuns at once; the others wait for a place.
 */
export class RunPlaces {
  private taken = 0
  private readonly waiting: Array<() => void> = []

  constructor(readonly size: number) {}

  async take(): Promise<() => void> {
    if (this.taken >= Math.max(1, this.size)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.taken++
    }
    let given = false
    return () => {
      if (given) return
      given = true
      const next = this.waiting.shift()
      if (next !== undefined) next()
      else this.taken--
    }
  }
}

export interface LaunchOptions {
  home: string
  /** The session the runs branch from, open for writing: each run is joined into it. */
  session: SessionStore
  /** The session's file history: its blobs hold the start node's files, and the runs' backups. */
  blobs: BlobStore
  historyRoot: string
  /** The record the runs continue from. */
  startUuid: string
  /** One run per prompt. */
  prompts: readonly string[]
  model: { name: string; create(): Promise<ModelClient> }
  permissionMode: PermissionMode
  checkpointTools: boolean
  bashSandbox: boolean
  compaction?: CompactionSettings
  ignoredFiles?: IgnoredFilesPolicy
  check: string | null
  /** How many run at once: a number for this launch alone, or places shared with others. */
  maxRuns: number | RunPlaces
  /** A run's manifest as it changes (started, ended, joined). */
  onRun?(run: RunManifest): void
  onEvent?(runId: string, event: AgentEvent): void
  /** Nobody is there to ask: a tool that needs permission is denied (default). */
  askPermission?(runId: string, request: PermissionRequest): Promise<boolean>
}

interface Slot {
  manifest: RunManifest | null
  work: WorkspaceSession | null
  stopRequested: boolean
}

export class ParallelRuns {
  readonly group = uuidv7()
  private readonly slots: Slot[]
  /** The repository the session's workspace is in, asked once for all runs of this start. */
  private repoOfWorkspace: Promise<Repo | null> | null = null
  /** The copies of a folder for this start's runs, by run id, made in one walk (copyForAll). */
  private copies: Promise<Map<string, RunWorkspace>> | null = null
  /**
   * The start node's state of every file the session changed, found once for all runs: a
   * node's past state does not change as the session goes on.
   */
  private startState: ReturnType<typeof filesAsNodeLeftThem> | null = null
  /** Every run's end, in the order the prompts were given. */
  readonly finished: Promise<RunManifest[]>

  private constructor(private readonly options: LaunchOptions) {
    if (options.prompts.length < 1 || options.prompts.length > MAX_RUNS_PER_START) {
      throw new RangeError(
        `Between 1 and ${MAX_RUNS_PER_START} runs, not ${options.prompts.length}`
      )
    }
    this.slots = options.prompts.map(() => ({ manifest: null, work: null, stopRequested: false }))
    this.finished = this.runAll()
  }

  static start(options: LaunchOptions): ParallelRuns {
    return new ParallelRuns(options)
  }

  /** The runs of this launch, queued ones too (all of them once the launch has begun). */
  get runs(): RunManifest[] {
    return this.slots.flatMap((s) => (s.manifest === null ? [] : [s.manifest]))
  }

  /** Stops one run (a run not yet started never starts). */
  async stop(id: string): Promise<void> {
    const slot = this.slots.find((s) => s.manifest?.id === id)
    if (slot === undefined) return
    slot.stopRequested = true
    this.neverStarted(slot)
    await slot.work?.agent.stop()
  }

  async stopAll(): Promise<void> {
    for (const slot of this.slots) {
      slot.stopRequested = true
      this.neverStarted(slot)
    }
    await Promise.all(this.slots.map((s) => s.work?.agent.stop()))
  }

  /** A queued run asked to stop ends now, stopped, without a workspace or a turn. */
  private neverStarted(slot: Slot): void {
    if (slot.manifest?.state !== 'queued') return
    this.update(slot, {
      state: 'stopped',
      endedAt: new Date().toISOString(),
      error: 'stopped before it started'
    })
  }

  private async runAll(): Promise<RunManifest[]> {
    const { maxRuns } = this.options
    const places = typeof maxRuns === 'number' ? new RunPlaces(maxRuns) : maxRuns
    // Every run is listed at once, `queued` until it has a place: the list and the graph show
    // what waits, and a queued run can be stopped (it then never starts).
    const repo = await this.repo()
    this.slots.forEach((slot, index) => this.queue(slot, index, repo))
    // A stop asked from another process (`runs FILE --stop ID`) is a file in the run's folder.
    const watch = setInterval(() => {
      for (const slot of this.slots) {
        const run = slot.manifest
        if (run !== null && isUnderway(run) && existsSync(this.stopFile(run.id))) {
          void this.stop(run.id)
        }
      }
    }, STOP_POLL_MS)
    try {
      await Promise.all(
        this.slots.map(async (_slot, index) => {
          const give = await places.take()
          try {
            await this.runOne(index)
          } finally {
            give()
          }
        })
      )
    } finally {
      clearInterval(watch)
    }
    return this.runs
  }

  private stopFile(id: string): string {
    return join(runDir(this.options.home, this.options.session.cwd, id), STOP_FILE)
  }

  private repo(): Promise<Repo | null> {
    return (this.repoOfWorkspace ??= gitRepoOf(this.options.session.cwd))
  }

  private queue(slot: Slot, index: number, repo: Repo | null): void {
    const o = this.options
    const session = o.session
    const id = uuidv7()
    const dir = makeRunDir(o.home, session.cwd, id)
    slot.manifest = {
      id,
      sessionFile: session.file,
      sessionId: session.sessionId,
      cwd: session.cwd,
      startUuid: o.startUuid,
      group: this.group,
      prompt: o.prompts[index] as string,
      model: o.model.name,
      kind: repo === null ? 'copy' : 'git',
      workspace: join(dir, 'work'),
      repo: repo?.top ?? null,
      ref: null,
      runSession: null,
      prefixRecords: 0,
      state: 'queued',
      pid: process.pid,
      startedAt: new Date().toISOString(),
      endedAt: null,
      error: null,
      check: null,
      joined: false,
      leaf: null,
      removed: null
    }
    saveRun(o.home, slot.manifest)
    o.onRun?.(slot.manifest)
  }

  private current(slot: Slot): RunManifest {
    if (slot.manifest === null) throw new Error('The run has not started')
    return slot.manifest
  }

  private update(slot: Slot, change: Partial<RunManifest>): RunManifest {
    const manifest = { ...this.current(slot), ...change }
    slot.manifest = manifest
    saveRun(this.options.home, manifest)
    this.options.onRun?.(manifest)
    return manifest
  }

  private workspaceSpec(id: string, repo: Repo | null): RunWorkspaceSpec {
    const o = this.options
    return {
      home: o.home,
      cwd: o.session.cwd,
      runDir: runDir(o.home, o.session.cwd, id),
      id,
      repo,
      state: (this.startState ??= filesAsNodeLeftThem(o.session.tree(), o.startUuid)),
      blobs: o.blobs
    }
  }

  /**
   * A repository's checkout made now; a folder's copy from the walk made for all (copyForAll), or
   * a copy of its own for a run the walk left out (asked to stop as the walk began).
   */
  private async workspaceOf(id: string, repo: Repo | null): Promise<RunWorkspace> {
    if (repo !== null) return makeRunWorkspace(this.workspaceSpec(id, repo))
    const copied = (await (this.copies ??= this.copyForAll())).get(id)
    return copied ?? makeRunWorkspace(this.workspaceSpec(id, null))
  }

  /**
   * The copies for every run of this start not stopped yet, in one walk of the user's folder
   * (each file read once for all, not once a run), when the first run starts: every run starts
   * from the files as they were then, and a queued run's copy is ready when its place is.
   */
  private async copyForAll(): Promise<Map<string, RunWorkspace>> {
    const ids = this.slots.flatMap(({ manifest, stopRequested }) =>
      manifest !== null && !stopRequested && isUnderway(manifest) ? [manifest.id] : []
    )
    // Once every run it copies for is asked to stop, the walk stops too.
    const copiedFor = this.slots.filter(
      ({ manifest }) => manifest !== null && ids.includes(manifest.id)
    )
    const made = await makeRunWorkspaces(
      ids.map((id) => this.workspaceSpec(id, null)),
      () => copiedFor.every((slot) => slot.stopRequested)
    )
    return new Map(ids.map((id, i) => [id, made[i] as RunWorkspace]))
  }

  /**
   * A run stopped before it started has no workspace: the copy the walk made for it (whole, or
   * part of one if the walk failed) is removed once the walk is over.
   */
  private async removeUnusedCopy(slot: Slot): Promise<void> {
    if (this.copies === null) return
    await this.copies.catch(() => undefined)
    const run = this.current(slot)
    try {
      await removeRunWorkspace(this.options.home, {
        cwd: run.cwd,
        id: run.id,
        repo: null,
        ref: null
      })
    } catch (caught) {
      this.update(slot, {
        error: `${run.error ?? 'stopped'}; its copy not removed: ${(caught as Error).message}`
      })
    }
  }

  private async runOne(index: number): Promise<void> {
    const slot = this.slots[index] as Slot
    const o = this.options
    const session = o.session
    const { id } = this.current(slot)
    const dir = runDir(o.home, session.cwd, id)
    if (slot.stopRequested || existsSync(this.stopFile(id))) {
      this.neverStarted(slot)
      await this.removeUnusedCopy(slot)
      return
    }
    const repo = await this.repo()
    this.update(slot, { state: 'running', startedAt: new Date().toISOString() })
    let state: RunState = 'failed'
    let error: string | null = null
    try {
      const made = await this.workspaceOf(id, repo)
      const copy = forkCopy(session.tree(), o.startUuid)
      const log = SessionStore.create({
        home: o.home,
        cwd: made.workspace,
        dir: join(dir, 'session'),
        forkedFrom: { sessionId: session.sessionId, leafUuid: o.startUuid, file: session.file },
        fill: (store) => store.appendCopied(copy)
      })
      this.update(slot, {
        workspace: made.workspace,
        runSession: log.file,
        prefixRecords: log.tree().records.length
      })
      const work = await WorkspaceSession.open({
        home: o.home,
        store: log,
        model: await o.model.create(),
        permissionMode: o.permissionMode,
        checkpointTools: o.checkpointTools,
        bashSandbox: o.bashSandbox,
        historyRoot: o.historyRoot,
        askPermission: (request) => o.askPermission?.(id, request) ?? Promise.resolve(false),
        onEvent: (event) => o.onEvent?.(id, event),
        ...(o.compaction !== undefined ? { compaction: o.compaction } : {}),
        ...(o.ignoredFiles !== undefined ? { ignoredFiles: o.ignoredFiles } : {})
      })
      slot.work = work
      try {
        if (slot.stopRequested) {
          state = 'stopped'
        } else {
          const outcome = await work.agent.send(o.prompts[index] as string)
          state =
            outcome.status === 'stopped'
              ? 'stopped'
              : outcome.status === 'failed'
                ? 'failed'
                : 'done'
          if (outcome.status === 'failed') error = outcome.message
        }
      } finally {
        slot.work = null
        await work.close()
      }
      if (o.check !== null && !slot.stopRequested) {
        this.update(slot, {
          check: await runCheck(made.workspace, o.check, { sandbox: o.bashSandbox })
        })
      }
    } catch (caught) {
      // Asked to stop while its workspace was made: stopped, not failed.
      state = slot.stopRequested ? 'stopped' : 'failed'
      error = slot.stopRequested ? null : (caught as Error).message
    }
    this.update(slot, { state, error, endedAt: new Date().toISOString() })
    const manifest = this.current(slot)
    if (manifest.runSession !== null && session.readOnlyReason === null) {
      try {
        slot.manifest = joinRun(o.home, session, manifest)
        o.onRun?.(slot.manifest)
      } catch (caught) {
        this.update(slot, { error: `not joined: ${(caught as Error).message}` })
      }
    }
  }
}

/** Asks a run of another process to stop (it looks for the file twice a second). */
export function requestStop(home: string, run: RunManifest): void {
  writePrivateFileSync(join(runDir(home, run.cwd, run.id), STOP_FILE), `${process.pid}\n`)
}
