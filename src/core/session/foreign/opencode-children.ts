// OpenCode's sub-agents: the `task` tool runs one as a child session, a session whose parentID is
// the session's id (sst/opencode packages/opencode/src/tool/task.ts: `sessions.create({parentID:
// ctx.sessionID, title: description + " (@agent subagent)"})`), and sets the task part's
// `state.metadata` to `{parentSessionId, sessionId, model}` as the child starts. What the reader
// (opencode.ts) and the session list need of that: each session's children in the order they were
// made; which call started a child; and which sessions are drawn as another's sub-agent.
import { isObject, stringOrNull, type Json } from '../json'
import { drawnAsRuns } from './subagent-nesting'

/** What a session names of itself and its parent (a row of the database, or a session read). */
type SessionLike = Record<string, unknown>

export function isSessionId(id: unknown): id is string {
  return typeof id === 'string' && /^ses_[A-Za-z0-9]{1,64}$/.test(id)
}

/**
 * Each session's children (the sessions naming it their parent), in the order they were made:
 * by creation time, then id (a child's id descends, newest first, so the id alone will not do).
 */
export function childrenByParent<T extends SessionLike>(sessions: readonly T[]): Map<string, T[]> {
  const children = new Map<string, T[]>()
  for (const session of sessions) {
    const parent = session.parent_id
    if (!isSessionId(session.id) || !isSessionId(parent) || parent === session.id) continue
    const list = children.get(parent) ?? []
    list.push(session)
    children.set(parent, list)
  }
  for (const list of children.values()) list.sort(byCreation)
  return children
}

function byCreation(a: SessionLike, b: SessionLike): number {
  const at = (s: SessionLike) => (typeof s.time_created === 'number' ? s.time_created : 0)
  return at(a) - at(b) || (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0)
}

/**
 * The ids of the sessions drawn as a sub-agent run of a listed session (subagent-nesting.ts's
 * drawnAsRuns, each session's children in the order they were made), so not listed themselves.
 */
export function drawnAsSubagents(sessions: readonly SessionLike[]): Set<string> {
  const ids = sessions.map((s) => s.id).filter(isSessionId)
  const parents = new Map(sessions.map((s) => [s.id, s.parent_id]))
  const children = childrenByParent(sessions)
  return drawnAsRuns(
    ids,
    (id) => {
      const parent = parents.get(id)
      return isSessionId(parent) ? parent : null
    },
    (id) => (children.get(id) ?? []).map((child) => String(child.id))
  )
}

/** A `task` tool call: what finds the child session it started. */
export interface TaskCall {
  callId: string
  /** The drawn record holding the call. */
  uuid: string
  /** The child session the part names (state.metadata.sessionId), when it names one. */
  sessionId: string | null
  description: string | null
  /** When the task started (its state's time.start, else its message's creation), in ms. */
  started: number | null
}

/** The task call of a tool part (`part.tool` is "task"), drawn as the record `uuid`. */
export function taskCall(part: Json, callId: string, uuid: string, message: Json): TaskCall {
  const state = isObject(part.state) ? part.state : {}
  const input = isObject(state.input) ? state.input : {}
  const metadata = isObject(state.metadata) ? state.metadata : {}
  const time = isObject(state.time) ? state.time : {}
  const created = isObject(message.time) ? message.time.created : message.time_created
  const started = [time.start, created].find(
    (t): t is number => typeof t === 'number' && Number.isFinite(t)
  )
  return {
    callId,
    uuid,
    sessionId: stringOrNull(metadata.sessionId),
    description: stringOrNull(input.description) ?? stringOrNull(state.title),
    started: started ?? null
  }
}

/**
 * The call of `calls` that started nearest `createdAt` (the child's row is made a few ms before
 * the part's start), taken out of `calls`; none when there are no times to go by.
 */
export function takeNearestCall(calls: TaskCall[], createdAt: number | null): TaskCall | undefined {
  if (createdAt === null) return undefined
  let best = -1
  let bestFar = Infinity
  for (const [index, call] of calls.entries()) {
    const far = call.started === null ? Infinity : Math.abs(call.started - createdAt)
    if (far < bestFar) [best, bestFar] = [index, far]
  }
  return best === -1 ? undefined : calls.splice(best, 1)[0]
}
