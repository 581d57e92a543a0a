// The checkpoint/rewind state machine of one agent: at most one active checkpoint, the report a
// rewind call left pending until the end of the step, and the last completed rewind. Only the
// active checkpoint and the completed rewind can be rebuilt from the session (rehydrate); a pending
// report lives only in memory, so a rewind result left on the log by a killed process is never
// applied again (oh-my-pi #7739).
import * as z from 'zod'
import type { TreeRecord } from '../../session/tree'
import { REWIND_REPORT_TYPE } from './texts'

export interface ActiveCheckpoint {
  goal: string
  startedAt: string
  /**
   * The session entry the rewind branches from: the user message holding the checkpoint's tool
   * result. Branching there keeps the checkpoint call answered (no dangling tool_use) and cuts
   * everything the exploration added after it, its reminders included.
   */
  entryUuid: string
}

export interface CompletedRewind {
  report: string
  startedAt: string
  rewoundAt: string
}

export interface PendingRewind {
  report: string
}

/** What checkpoint's tool result carries, and what resume reads back. */
export const CheckpointDetails = z.object({ goal: z.string(), startedAt: z.string() })
export type CheckpointDetails = z.infer<typeof CheckpointDetails>

export const RewindReportDetails = z.object({
  report: z.string(),
  startedAt: z.string(),
  rewoundAt: z.string()
})

export class CheckpointState {
  active: ActiveCheckpoint | null = null
  pending: PendingRewind | null = null
  lastCompleted: CompletedRewind | null = null
  /** Reminders sent since the user's last prompt (enforce-before-yield budget). */
  remindersThisTurn = 0
  /**
   * The uuid the current tool batch's result message will get. The loop sets it before running a
   * batch, so a checkpoint taken in the batch can name its entry before the entry is written.
   */
  batchResultUuid: string | null = null

  /** Replaces the state by what the active branch says (resume, branch switch, rewind). */
  rehydrate(path: readonly TreeRecord[]): void {
    const found = rehydrated(path)
    this.active = found.active
    this.lastCompleted = found.lastCompleted
    this.pending = null
  }

  complete(rewoundAt: string): CompletedRewind {
    const active = this.active
    const pending = this.pending
    if (active === null || pending === null)
      throw new Error('complete() needs an active checkpoint and a pending report')
    const done = { report: pending.report, startedAt: active.startedAt, rewoundAt }
    this.active = null
    this.pending = null
    this.lastCompleted = done
    return done
  }
}

interface Walked {
  active: ActiveCheckpoint | null
  lastCompleted: CompletedRewind | null
  /** The ids of the checkpoint calls on the path (a result names its call by id). */
  checkpointCalls: ReadonlySet<string>
  /** The path this state is of: its first record and its length. */
  first: TreeRecord
  length: number
}

/**
 * The state a path ends in, kept by the path's last record: records never change once in the
 * tree, so the state at the end of a turn goes on from the state at the end of the turn before
 * (a few records) instead of walking the whole branch again, as the context's count does
 * (summary/tokens.ts).
 */
const walked = new WeakMap<TreeRecord, Walked>()

/**
 * Walks the branch root first: a successful checkpoint result opens a checkpoint (entry = the
 * message holding it); a rewind-report closes it and becomes the last completed rewind. rewind
 * tool results are ignored on purpose: only a rewind-report proves a rewind was applied.
 */
export function rehydrated(path: readonly TreeRecord[]): {
  active: ActiveCheckpoint | null
  lastCompleted: CompletedRewind | null
} {
  const first = path[0]
  if (first === undefined) return { active: null, lastCompleted: null }
  let start = 0
  let state: Walked = {
    active: null,
    lastCompleted: null,
    checkpointCalls: new Set(),
    first,
    length: 0
  }
  for (let i = path.length - 1; i >= 0; i--) {
    const kept = walked.get(path[i] as TreeRecord)
    if (kept !== undefined && kept.first === first && kept.length === i + 1) {
      state = kept
      start = i + 1
      break
    }
  }
  let { active, lastCompleted, checkpointCalls } = state
  const calls = (change: (set: Set<string>) => void) => {
    const copy = new Set(checkpointCalls)
    change(copy)
    checkpointCalls = copy
  }
  for (const r of path.slice(start)) {
    if (r.type === 'assistant' && typeof r.message.content !== 'string') {
      for (const b of r.message.content) {
        if (
          b.type === 'tool_use' &&
          'id' in b &&
          'name' in b &&
          typeof b.id === 'string' &&
          typeof b.name === 'string'
        ) {
          // The latest call of an id is the one its results answer.
          const id = b.id
          if (b.name === 'checkpoint') {
            if (!checkpointCalls.has(id)) calls((set) => set.add(id))
          } else if (checkpointCalls.has(id)) calls((set) => set.delete(id))
        }
      }
    } else if (r.type === 'user' && typeof r.message.content !== 'string') {
      for (const b of r.message.content) {
        if (b.type !== 'tool_result' || !('tool_use_id' in b) || typeof b.tool_use_id !== 'string')
          continue
        if (!checkpointCalls.has(b.tool_use_id) || b.is_error === true) continue
        const details = CheckpointDetails.safeParse(r.toolDetails?.[b.tool_use_id])
        active = {
          goal: details.success ? details.data.goal : '',
          startedAt: details.success ? details.data.startedAt : r.timestamp,
          entryUuid: r.uuid
        }
        lastCompleted = null
      }
    } else if (r.type === 'custom_message' && r.customType === REWIND_REPORT_TYPE) {
      const details = RewindReportDetails.safeParse(r.details)
      active = null
      lastCompleted = details.success
        ? details.data
        : { report: '', startedAt: r.timestamp, rewoundAt: r.timestamp }
    }
  }
  walked.set(path[path.length - 1] as TreeRecord, {
    active,
    lastCompleted,
    checkpointCalls,
    first,
    length: path.length
  })
  return { active, lastCompleted }
}
