// Codex CLI's sub-agents: its multi-agent tools (0.171.0 offers them by default, `codex features
// list`: multi_agent; the model calls them in a `collaboration` namespace) run each sub-agent as a
// thread of its own, a rollout in the same sessions folder whose session_meta names the parent
// (`parent_thread_id`, `source: {subagent: {thread_spawn: {parent_thread_id, depth, agent_path}}}`;
// openai/codex codex-rs/core/src/agent/control.rs spawns it with a SessionSource::SubAgent). The
// parent's rollout says which call started which thread: after a `spawn_agent` function_call comes
// an `event_msg` `item_completed` whose item is `{type: "SubAgentActivity", kind: "started", id:
// <the call's call_id>, agent_thread_id, agent_path}` (test/fixtures/codex-subagents, made by the
// real CLI). What the reader (codex.ts) needs of that: the calls and the threads they started, and
// each thread's rollout read as a session is, into a tree of its own, under its call. A sub-agent
// spawns its own while its depth is below `agents.max_depth` (codex-rs/core/src/config: 1 by
// default, so none; test/fixtures/codex-subagents/nested, nine deep): its rollout says so as the
// session's does, and its runs hang under its calls (subagent-nesting.ts bounds them).
import { basename } from 'node:path'
import { isObject, stringOrNull, type Json } from '../json'
import { SubagentFiles, type Transcript } from './subagent-files'
import type { SubagentNesting } from './subagent-nesting'
import type { SubagentRun } from './types'

/** The most sub-agent threads of one rollout read. */
const MAX_SUBAGENTS = 500

/** A `spawn_agent` call: the drawn record holding it and what it asked. */
interface SpawnCall {
  uuid: string
  taskName: string | null
  message: string | null
}

interface Started {
  callId: string
  thread: string
  agentPath: string | null
}

/**
 * The sub-agents of one rollout, fed its lines (`saw`) and the tool calls drawn from them
 * (`sawCall`); each thread's rollout is found and read when the runs are asked for.
 */
export class CodexSubagents {
  private readonly calls = new Map<string, SpawnCall>()
  private readonly started: Started[] = []
  private readonly files: SubagentFiles
  /** Each thread's rollout once found (a walk of the sessions folder finds it). */
  private readonly found = new Map<string, string>()

  constructor(
    /** The rollout of `thread` beside the session's, or null when there is none. */
    private readonly rolloutOf: (thread: string) => string | null,
    /** A rollout read as a session is (codex.ts's mapper), with the runs it starts. */
    readRollout: (file: string) => Transcript | null
  ) {
    this.files = new SubagentFiles(readRollout)
  }

  /** A line of the rollout: a sub-agent's start is an event_msg naming its thread. */
  saw(value: unknown): void {
    const start = subagentStarted(value)
    if (start === null || this.started.length >= MAX_SUBAGENTS) return
    if (this.started.some((s) => s.thread === start.thread)) return
    this.started.push(start)
  }

  /** A tool call drawn as the record `uuid`: a spawn_agent call is kept by its call id. */
  sawCall(uuid: string, callId: string, name: string | null, input: unknown): void {
    if (name !== 'spawn_agent' || this.calls.size >= MAX_SUBAGENTS) return
    const args = isObject(input) ? input : {}
    this.calls.set(callId, {
      uuid,
      taskName: stringOrNull(args.task_name),
      message: stringOrNull(args.message)
    })
  }

  /**
   * Each started thread whose rollout is found, under the call that started it, each followed by
   * the runs its own rollout starts; `nesting` is this rollout's place among them.
   */
  runs(nesting: SubagentNesting): SubagentRun[] {
    const runs: SubagentRun[] = []
    for (const start of this.started) {
      if (!nesting.allows(start.thread)) continue
      const file = this.found.get(start.thread) ?? this.rolloutOf(start.thread)
      if (file !== null) this.found.set(start.thread, file)
      const rollout = file === null ? null : this.files.transcript(start.thread, file)
      if (rollout === null) continue
      nesting.take(start.thread)
      const call = this.calls.get(start.callId)
      runs.push({
        id: start.thread,
        toolUseId: call === undefined ? null : start.callId,
        parentUuid: call?.uuid ?? null,
        parentRunId: nesting.runId,
        title: call?.message ?? call?.taskName ?? start.agentPath ?? 'sub-agent',
        source: basename(rollout.file),
        tree: rollout.tree
      })
      runs.push(...(rollout.runs?.(nesting.within(start.thread)) ?? []))
    }
    return runs
  }
}

/** The sub-agent thread an `event_msg` says a call started, or null for any other line. */
export function subagentStarted(value: unknown): Started | null {
  const payload = isObject(value) && value.type === 'event_msg' ? value.payload : null
  if (!isObject(payload) || payload.type !== 'item_completed') return null
  const item: Json | null = isObject(payload.item) ? payload.item : null
  if (item === null || item.type !== 'SubAgentActivity' || item.kind !== 'started') return null
  const callId = stringOrNull(item.id)
  const thread = stringOrNull(item.agent_thread_id)
  if (callId === null || thread === null || !THREAD_ID.test(thread)) return null
  return { callId, thread, agentPath: stringOrNull(item.agent_path) }
}

/**
 * The thread that spawned a sub-agent's thread, from its session_meta's payload (`source.subagent
 * .thread_spawn.parent_thread_id`, else `parent_thread_id`), or null for a thread of a person's.
 */
export function subagentParentOf(meta: Json): string | null {
  const source = isObject(meta.source) ? meta.source : {}
  const subagent = isObject(source.subagent) ? source.subagent : {}
  const spawn = isObject(subagent.thread_spawn) ? subagent.thread_spawn : {}
  const parent = stringOrNull(spawn.parent_thread_id) ?? stringOrNull(meta.parent_thread_id)
  return parent !== null && THREAD_ID.test(parent) ? parent : null
}

/** A thread id as Codex names rollouts by it (a uuid). */
const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
