// Sub-agents of sub-agents. Codex CLI lets a sub-agent spawn its own while its depth is below
// `agents.max_depth`, OpenCode while it is below `subagent_depth` (both 1 by default: none),
// Claude Code (2.1.197) while it is below 5, so a sub-agent's transcript may start runs of
// its own: each hangs under the call there (SubagentRun.parentRunId names the run whose
// transcript holds it). Reading them is bounded, as two of the tools are not (a setting raises
// their depth as far as it likes): at most
// MAX_SUBAGENT_DEPTH runs deep below the session, at most MAX_SUBAGENT_RUNS runs in all, each run
// once (the session and every run already drawn count as read), so files that name each other
// in a loop end. Runs are taken depth first, each transcript's in its own order: a run, then the
// runs in its transcript, then the next run beside it. The session lists walk the same way
// (drawnBelow), so they leave out exactly the runs a reader draws.
import type { SubagentRun } from './types'

/** How many runs deep below the session a sub-agent is still read (a child is 1 deep). */
export const MAX_SUBAGENT_DEPTH = 8
/** The most runs of one session read, at every depth together. */
export const MAX_SUBAGENT_RUNS = 500

interface Limits {
  depth: number
  runs: number
}

/** What one session's reading has drawn so far: shared by every transcript read within it. */
interface Reading {
  readonly limits: Limits
  /** The session's id and each run's drawn. */
  readonly read: Set<string>
  runs: number
}

/** A transcript being read for its runs: the session's own, or a run's within it. */
export class SubagentNesting {
  private constructor(
    /** The run whose transcript this is; null for the session's own. */
    readonly runId: string | null,
    /** How many runs deep it is (0: the session's). */
    readonly depth: number,
    private readonly reading: Reading
  ) {}

  /** The session's own transcript; `sessionId` counts as read (a run naming it is a loop). */
  static of(
    sessionId: string | null,
    limits: Limits = { depth: MAX_SUBAGENT_DEPTH, runs: MAX_SUBAGENT_RUNS }
  ): SubagentNesting {
    const read = new Set<string>(sessionId === null ? [] : [sessionId])
    return new SubagentNesting(null, 0, { limits, read, runs: 0 })
  }

  /**
   * Whether the run `id`, started in this transcript, is drawn: not when it was read already (an
   * ancestor, or a run drawn elsewhere), nor past either bound. A run drawn counts toward them.
   */
  take(id: string): boolean {
    if (!this.allows(id)) return false
    this.reading.read.add(id)
    this.reading.runs++
    return true
  }

  /** Whether take(id) would draw it (asked before reading its transcript, which may fail). */
  allows(id: string): boolean {
    const { read, runs, limits } = this.reading
    return !read.has(id) && runs < limits.runs && this.depth < limits.depth
  }

  /** The transcript of a run taken here, whose own runs are read within the same bounds. */
  within(id: string): SubagentNesting {
    return new SubagentNesting(id, this.depth + 1, this.reading)
  }
}

/**
 * The runs a reader draws below the session `root`, in the order it reads them, given each
 * session's children in the order its transcript starts them: what a session list leaves out,
 * and the order nestedByCall returns runs in (its root null when the session names no id).
 */
export function drawnBelow<Root extends string | null>(
  root: Root,
  childrenOf: (id: Root | string) => readonly string[]
): string[] {
  const out: string[] = []
  const walk = (nesting: SubagentNesting, id: Root | string): void => {
    for (const child of childrenOf(id)) {
      if (!nesting.take(child)) continue
      out.push(child)
      walk(nesting.within(child), child)
    }
  }
  walk(SubagentNesting.of(root), root)
  return out
}

/**
 * Of a store's sessions (`ids`), those a reader draws as a sub-agent run of another, which a list
 * leaves out: the runs drawn below each session listed, one whose parent is not among them. A
 * child the bounds leave undrawn is listed in turn (opened, it draws its own), and a loop of
 * parents that reaches no listed session is listed whole.
 */
export function drawnAsRuns(
  ids: readonly string[],
  parentOf: (id: string) => string | null,
  childrenOf: (id: string) => readonly string[]
): Set<string> {
  const present = new Set(ids)
  const listed = ids.filter((id) => {
    const parent = parentOf(id)
    return parent === null || parent === id || !present.has(parent)
  })
  const seen = new Set(listed)
  const drawn = new Set<string>()
  for (let root = listed.pop(); root !== undefined; root = listed.pop()) {
    const below = drawnBelow(root, childrenOf)
    for (const id of below) drawn.add(id)
    for (const id of [root, ...below]) {
      for (const child of childrenOf(id)) {
        if (drawn.has(child) || seen.has(child)) continue
        seen.add(child)
        listed.push(child)
      }
    }
  }
  return drawn
}

/** Where a tool call is in one of a session's runs: the run, and the record holding it. */
export interface CallInRun {
  runId: string
  uuid: string
  /** The call's description, the run's title when there is one. */
  title: string | null
}

/**
 * A format that keeps every run's transcript side by side, whatever started it (Claude Code's
 * `subagents/`): each run whose call the session's transcript does not hold, but a run's does
 * (`callIn`), is that run's own sub-agent; the runs come back in the readers' order (a run, then
 * those it started), bounded. Runs whose calls name each other in a loop are the session's, as
 * runs whose call is found nowhere are.
 */
export function nestedByCall(
  runs: readonly SubagentRun[],
  sessionId: string | null,
  callIn: (toolUseId: string) => CallInRun | null
): SubagentRun[] {
  const placed = new Map(
    runs.map((run) => {
      const call = run.parentUuid === null && run.toolUseId !== null ? callIn(run.toolUseId) : null
      if (call === null || call.runId === run.id) return [run.id, run]
      const title = call.title ?? run.title
      return [run.id, { ...run, parentRunId: call.runId, parentUuid: call.uuid, title }]
    })
  )
  for (const run of placed.values()) {
    const up = new Set([run.id])
    for (let at = run.parentRunId; at !== null; at = placed.get(at)?.parentRunId ?? null) {
      if (!up.has(at)) up.add(at)
      else {
        placed.set(run.id, { ...run, parentRunId: null, parentUuid: null })
        break
      }
    }
  }
  // The session's own runs are listed under its id (null when it has none): drawnBelow's root.
  const below = new Map<string | null, string[]>()
  for (const run of placed.values()) {
    const parent =
      run.parentRunId !== null && placed.has(run.parentRunId) ? run.parentRunId : sessionId
    const list = below.get(parent)
    if (list === undefined) below.set(parent, [run.id])
    else list.push(run.id)
  }
  return drawnBelow(sessionId, (id) => below.get(id) ?? []).map((id) => placed.get(id)!)
}
