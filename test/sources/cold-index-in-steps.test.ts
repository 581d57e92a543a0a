// The session list's cold index built in bounded steps (core/sources/stepped-listing.ts) on real
// files in temp dirs: the same list and index as the synchronous build the CLI runs, the event
// loop given back between batches of at most the bound, a second caller joining the build going,
// a stop between steps writing no index, and the studio telling the pages each step's sessions
// (session:listStep) within the contract.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { events, type EventChannel } from '../../src/shared/contract'
import { Sources } from '../../src/core/sources/discovery'
import { cacheDir } from '../../src/core/sources/file-cache'
import { ListingStoppedError, type ListingStep } from '../../src/core/sources/stepped-listing'
import { listSessions } from '../../src/core/studio/session-handlers'
import type { DiscoveredSession } from '../../src/core/sources/discovery'
import { launchScriptedStudio } from '../support/scripted-studio'
import { writeManySessions } from '../support/many-sessions'
import { type FakeHomes, claude, fakeHomes, writeClaudeSession } from './fake-homes'

const SESSIONS = 120
const BYTES_EACH = 20 * 1024

/** A workspace with SESSIONS of ours and two of Claude Code's, nothing indexed yet. */
function coldWorkspace(): FakeHomes & { folder: string } {
  const h = fakeHomes()
  const folder = writeManySessions(h.home, h.ws, SESSIONS, BYTES_EACH)
  for (const n of [1, 2]) {
    writeClaudeSession(
      h,
      h.ws,
      [claude.user(h.ws, `c${n}`, null, `prompt ${n}`, `2026-03-0${n}T10:00:00.000Z`)],
      `cc-${n}.jsonl`
    )
  }
  return { ...h, folder }
}

const files = (sessions: readonly DiscoveredSession[]) => sessions.map((s) => s.file)
const indexFiles = (home: string) => {
  try {
    return readdirSync(cacheDir(home)).sort()
  } catch {
    return []
  }
}

describe('the cold index built in steps', () => {
  it('gives the list the synchronous build gives, and leaves the index it leaves', async () => {
    const h = coldWorkspace()
    // The CLI's way, writing nothing (persist false), against the hosts' way on the same files.
    const synchronous = new Sources({ home: h.home, homes: h.homes, persist: false })
    const expected = synchronous.workspaceSessions(h.ws)
    expect(expected).toHaveLength(SESSIONS + 2)
    expect(indexFiles(h.home)).toEqual([])

    const stepped = new Sources({ home: h.home, homes: h.homes })
    const steps: ListingStep<DiscoveredSession>[] = []
    const listed = await stepped.workspaceSessionsInSteps(h.ws, (step) => steps.push(step), {
      files: 7,
      bytes: Number.POSITIVE_INFINITY
    })
    expect(listed).toEqual(expected)
    expect(steps.length).toBeGreaterThan(10)
    // Steps say how far the build is, of every file of the workspace, and never go back.
    expect(steps.map((s) => s.total)).toEqual(steps.map(() => SESSIONS + 2))
    const done = steps.map((s) => s.done)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(done.at(-1)).toBeLessThan(SESSIONS + 2)
    // Each of our sessions is in at most one step, as found; the rest come with the answer.
    const told = steps.flatMap((s) => files(s.found))
    expect(new Set(told).size).toBe(told.length)
    expect(told.every((file) => files(expected).includes(file))).toBe(true)

    // The index it saved is whole and complete: a new process lists from it reading no log.
    const warm = new Sources({ home: h.home, homes: h.homes })
    expect(warm.workspaceSessions(h.ws)).toEqual(expected)
    expect(warm.index.reads.files).toBe(0)
    for (const name of indexFiles(h.home)) {
      expect(() => JSON.parse(readFileSync(join(cacheDir(h.home), name), 'utf8'))).not.toThrow()
    }
  })

  it('reads at most the bound in each batch, giving the event loop back between batches', async () => {
    const h = coldWorkspace()
    const sources = new Sources({ home: h.home, homes: h.homes })
    const fileBytes = statSync(join(h.folder, readdirSync(h.folder)[0] as string)).size
    const bound = { files: 1000, bytes: 3 * fileBytes }
    let turns = 0
    let building = true
    const spin = () => {
      if (!building) return
      turns++
      setImmediate(spin)
    }
    setImmediate(spin)
    const readsAtStep: number[] = []
    const bytesAtStep: number[] = []
    const turnsAtStep: number[] = []
    await sources.workspaceSessionsInSteps(
      h.ws,
      (step) => {
        readsAtStep.push(sources.index.reads.files)
        bytesAtStep.push(step.bytes)
        turnsAtStep.push(turns)
      },
      bound
    )
    building = false
    expect(readsAtStep.length).toBeGreaterThan(SESSIONS / 4)
    // A batch stops at the file that reaches the bound: never more than one file past it (the
    // first batch also read the first lines of Claude Code's project folder, for its cwd).
    const perBatch = readsAtStep.map((n, i) => n - (readsAtStep[i - 1] ?? 1))
    expect(Math.max(...perBatch)).toBeLessThanOrEqual(3)
    expect(Math.max(...bytesAtStep)).toBeLessThan(bound.bytes + fileBytes)
    // Other work ran between every two batches.
    const between = turnsAtStep.map((n, i) => n - (turnsAtStep[i - 1] ?? 0)).slice(1)
    expect(Math.min(...between)).toBeGreaterThan(0)
  })

  it('tells a listing that joins what the build told before it joined, once', async () => {
    const h = coldWorkspace()
    const sources = new Sources({ home: h.home, homes: h.homes })
    const first: string[] = []
    const joiner: string[] = []
    let joined: Promise<DiscoveredSession[]> | null = null
    const listed = await sources.workspaceSessionsInSteps(
      h.ws,
      (step) => {
        first.push(...files(step.found))
        if (first.length >= 20 && joined === null) {
          joined = sources.workspaceSessionsInSteps(h.ws, (s) => joiner.push(...files(s.found)))
        }
      },
      { files: 5, bytes: 1e9 }
    )
    expect(await joined).toBe(listed)
    // Told at once the sessions the first caller was told before (then nothing twice).
    expect(joiner.length).toBeGreaterThanOrEqual(20)
    expect(joiner).toEqual(first.slice(0, joiner.length))
  })

  it('joins a second listing to the build going: one build, one read of each file', async () => {
    const h = coldWorkspace()
    const sources = new Sources({ home: h.home, homes: h.homes })
    const first = sources.workspaceSessionsInSteps(h.ws, undefined, { files: 5, bytes: 1e9 })
    const second = sources.workspaceSessionsInSteps(h.ws)
    expect(second).toBe(first)
    const [a, b] = await Promise.all([first, second])
    expect(b).toBe(a)
    expect(a).toHaveLength(SESSIONS + 2)
    // Each file once, and the first lines of Claude Code's project folder (its cwd).
    expect(sources.index.reads.files).toBe(SESSIONS + 2 + 1)
    // Once it is done, a listing is the warm one: nothing read again.
    await sources.workspaceSessionsInSteps(h.ws)
    expect(sources.index.reads.files).toBe(SESSIONS + 2 + 1)
  })

  it('stopped between two steps, writes no index; the next build starts over whole', async () => {
    const h = coldWorkspace()
    const sources = new Sources({ home: h.home, homes: h.homes })
    let steps = 0
    const stopped = sources.workspaceSessionsInSteps(
      h.ws,
      () => {
        steps++
        if (steps === 3) sources.stopBuilding(h.ws)
      },
      { files: 4, bytes: 1e9 }
    )
    await expect(stopped).rejects.toBeInstanceOf(ListingStoppedError)
    expect(steps).toBe(3)
    // Three batches of four, and the first lines of Claude Code's project folder (its cwd).
    expect(sources.index.reads.files).toBe(3 * 4 + 1)
    expect(indexFiles(h.home)).toEqual([])
    // Not stopped for good: the next listing builds (and finishes) a build of its own.
    expect(await sources.workspaceSessionsInSteps(h.ws)).toHaveLength(SESSIONS + 2)
    expect(indexFiles(h.home).some((name) => name.startsWith('sessions-'))).toBe(true)
  })
})

describe('a build stopped', () => {
  it('leaves a listing asked after the stop to a build of its own, not the one stopping', async () => {
    const h = coldWorkspace()
    const sources = new Sources({ home: h.home, homes: h.homes })
    const asked: Promise<DiscoveredSession[]>[] = []
    const stopped = sources.workspaceSessionsInSteps(
      h.ws,
      () => {
        if (asked.length > 0) return
        sources.stopBuilding(h.ws)
        asked.push(sources.workspaceSessionsInSteps(h.ws))
      },
      { files: 4, bytes: 1e9 }
    )
    expect(asked[0]).not.toBe(stopped)
    await expect(stopped).rejects.toBeInstanceOf(ListingStoppedError)
    expect(await asked[0]).toHaveLength(SESSIONS + 2)
  })
})

describe('the studio’s session:list on a cold index', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('tells the pages each step’s sessions within the contract, then answers the whole list', async () => {
    const h = coldWorkspace()
    // The homes as a host finds them, from its environment.
    for (const [name, value] of Object.entries(h.env)) vi.stubEnv(name, value)
    const told: { event: EventChannel; payload: unknown }[] = []
    const studio = await launchScriptedStudio({
      home: h.home,
      cwd: h.ws,
      emit: (event, payload) => told.push({ event, payload })
    })
    try {
      // Told as often as each step (0 ms): the steps themselves, not the pace, are checked here.
      const list = await listSessions(studio, 0)
      const steps = told.filter((t) => t.event === 'session:listStep')
      expect(steps.length).toBeGreaterThan(0)
      const shown = steps.flatMap((t) => {
        const step = events['session:listStep'].parse(t.payload)
        expect(step.workspace).toBe(h.ws)
        expect(step.total).toBe(SESSIONS + 2)
        return step.sessions.map((s) => s.file)
      })
      expect(shown.every((file) => list.some((s) => s.file === file))).toBe(true)
      // The answer: the whole list, the session the studio opened (the latest) marked current.
      expect(list).toHaveLength(SESSIONS + 2)
      expect(list.filter((s) => s.current).map((s) => s.file)).toEqual([studio.store.file])
      // Warm: no step told.
      const before = told.length
      await listSessions(studio, 0)
      expect(told.filter((t, i) => i >= before && t.event === 'session:listStep')).toEqual([])
    } finally {
      await studio.close()
    }
  })
})
