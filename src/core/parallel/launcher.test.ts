// The launcher in the process (core/parallel/launcher.ts), on a session the real CLI made: at
// most maxRuns run at once, the rest wait for a place; stop(id) stops one run (its model call
// cancelled), which ends stopped and still joins; the others go on. The model is the scripted
// one behind a gate the test opens, so what is running at each moment is known, not timed.
import { describe, expect, it } from 'vitest'
import { ModelCallError, type ModelClient } from '../agent/model/model-client'
import { ScriptedModel } from '../agent/model/scripted'
import { BlobStore } from '../files/blob-store'
import { historyPathsAt, sessionHistoryPaths } from '../files/history-paths'
import { ParallelRuns, requestStop } from './launcher'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isUnderway, listRuns, readRun, runDir, saveRun, type RunManifest } from './run-manifest'
import { SessionStore } from '../session/store'
import { startingPoint } from '../../../test/parallel/fixture'

/** Model calls held until the test lets them through; an abort ends a held call. */
class Gate {
  held: { release: () => void }[] = []
  private waiters: { count: number; resolve: () => void }[] = []

  wrap(inner: ModelClient): ModelClient {
    return {
      id: inner.id,
      complete: async (request, options) => {
        await new Promise<void>((resolve, reject) => {
          const entry = { release: resolve }
          this.held.push(entry)
          this.wake()
          options.signal.addEventListener('abort', () =>
            reject(new ModelCallError('aborted', 'stopped'))
          )
        })
        return inner.complete(request, options)
      }
    }
  }

  /** Resolves once `count` calls are held. */
  until(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ count, resolve })
      this.wake()
    })
  }

  releaseAll(): void {
    for (const entry of this.held.splice(0)) entry.release()
  }

  private wake(): void {
    for (const w of this.waiters.filter((w) => this.held.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(w), 1)
      w.resolve()
    }
  }
}

async function launch(prompts: string[], maxRuns: number, gate: Gate) {
  const s = await startingPoint(false)
  const session = SessionStore.open(s.file)
  const historyRoot = sessionHistoryPaths(s.home, s.file, session.cwd).root
  const seen = new Map<string, RunManifest>()
  const most = { running: 0 }
  const runs = ParallelRuns.start({
    home: s.home,
    session,
    blobs: new BlobStore(historyPathsAt(historyRoot).blobs),
    historyRoot,
    startUuid: session.leafUuid as string,
    prompts,
    model: { name: 'gated', create: async () => gate.wrap(await ScriptedModel.load(s.script)) },
    permissionMode: 'acceptEdits',
    checkpointTools: false,
    bashSandbox: false,
    check: null,
    maxRuns,
    onRun: (run) => {
      seen.set(run.id, run)
      const running = [...seen.values()].filter((r) => r.state === 'running').length
      most.running = Math.max(most.running, running)
    }
  })
  return { s, session, runs, seen, most }
}

describe('parallel runs in one process', () => {
  it('run at most maxRuns at once; the others start as places free up', async () => {
    const gate = new Gate()
    const { s, session, runs, seen, most } = await launch(
      ['try blue', 'try blue', 'try blue'],
      2,
      gate
    )
    await gate.until(2)
    expect([...seen.values()].filter((r) => r.state === 'running')).toHaveLength(2)
    // The third waits, listed: its manifest on disk says queued.
    expect(listRuns(s.home, session.cwd).map((r) => r.state)).toEqual([
      'running',
      'running',
      'queued'
    ])
    // Each answer lets a run on; the third starts once one of the first two has ended.
    while ([...seen.values()].filter((r) => r.state === 'done').length < 3) {
      gate.releaseAll()
      await new Promise((r) => setTimeout(r, 20))
    }
    const done = await runs.finished
    expect(most.running).toBe(2)
    expect(done.map((r) => [r.state, r.joined])).toEqual([
      ['done', true],
      ['done', true],
      ['done', true]
    ])
    session.close()
  })

  it('stop(id) stops that run alone: it ends stopped and joins, the other goes on', async () => {
    const gate = new Gate()
    const { session, runs } = await launch(['try red', 'try blue'], 2, gate)
    await gate.until(2)
    const [red, blue] = runs.runs
    await runs.stop(red?.id as string)
    while (runs.runs.some((r) => r.id === blue?.id && r.state === 'running')) {
      gate.releaseAll()
      await new Promise((r) => setTimeout(r, 20))
    }
    const done = await runs.finished
    expect(done.map((r) => [r.prompt, r.state])).toEqual([
      ['try red', 'stopped'],
      ['try blue', 'done']
    ])
    expect(done.every((r) => r.joined)).toBe(true)
    // The stopped run's prompt is a branch of the session, its turn marked stopped.
    const tree = session.tree()
    expect(tree.records.some((r) => (r as { run?: string }).run === red?.id)).toBe(true)
    session.close()
  })

  it('a queued run stopped (here, or by a stop file from another process) never starts', async () => {
    const gate = new Gate()
    const { s, session, runs } = await launch(['try red', 'try blue', 'try blue'], 1, gate)
    await gate.until(1)
    const [red, here, there] = runs.runs
    expect([red?.state, here?.state, there?.state]).toEqual(['running', 'queued', 'queued'])
    await runs.stop(here?.id as string)
    // Stopped at once, not when a place frees up.
    expect(readRun(runDir(s.home, session.cwd, here?.id as string))?.state).toBe('stopped')
    requestStop(s.home, there as RunManifest)
    while (runs.runs.some((r) => r.id === there?.id && r.state === 'queued')) {
      await new Promise((r) => setTimeout(r, 50))
    }
    while (runs.runs[0]?.state === 'running') {
      gate.releaseAll()
      await new Promise((r) => setTimeout(r, 20))
    }
    const done = await runs.finished
    expect(done.map((r) => [r.state, r.error, r.joined])).toEqual([
      ['done', null, true],
      ['stopped', 'stopped before it started', false],
      ['stopped', 'stopped before it started', false]
    ])
    for (const run of done.slice(1)) expect(existsSync(run.workspace)).toBe(false)
    session.close()
  })

  it('copies a folder once for all runs of a start: a file written after the first started is in no run', async () => {
    const gate = new Gate()
    const { s, session, runs } = await launch(['try red', 'try blue'], 1, gate)
    await gate.until(1)
    expect(runs.runs.map((r) => r.state)).toEqual(['running', 'queued'])
    writeFileSync(join(s.workspace, 'later.txt'), 'written while the first run goes\n')
    while (runs.runs.some((r) => isUnderway(r))) {
      gate.releaseAll()
      await new Promise((r) => setTimeout(r, 20))
    }
    const done = await runs.finished
    expect(done.map((r) => r.state)).toEqual(['done', 'done'])
    for (const run of done) {
      expect(readFileSync(join(run.workspace, 'keep.txt'), 'utf8')).toBe('the user keeps this\n')
      expect(existsSync(join(run.workspace, 'later.txt'))).toBe(false)
    }
    session.close()
  })

  it('reads a queued run whose process is gone as stopped', async () => {
    const gate = new Gate()
    const { s, session, runs } = await launch(['try red', 'try blue'], 1, gate)
    await gate.until(1)
    const queued = runs.runs[1] as RunManifest
    saveRun(s.home, { ...queued, pid: 2 ** 22 + 1 })
    expect(readRun(join(runDir(s.home, session.cwd, queued.id)))).toMatchObject({
      state: 'stopped',
      error: 'its process ended before it started'
    })
    await runs.stopAll()
    await runs.finished
    session.close()
  })
})
