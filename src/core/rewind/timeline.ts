// The timeline: every rewind, branch switch and continue of a session, in order, with what undo
// and redo did to them, and where the files stand. Replayed from the session log alone (pure: no
// I/O), so it is the same after a restart and in every host.
//
// Records, in file order (docs/session-format.md, "The timeline"):
//   rewind / navigate switch-branch / navigate continue, with a restoreId: a new action. It drops
//     the actions undone before it (the redo tail), like any editor.
//   merge (core/merge): a new action too, the merge record itself (its leaf before is its parent,
//     its leaf after itself, the files after it at it: it is its own turn).
//   navigate undo-rewind: undoes the action whose latest journal is its restoreId.
//   navigate redo: does the action `redoes` again; its restoreId is the redo's own journal.
//   navigate summarize (Summarize from / up to here): a new action, from where the summary
//     took the conversation (the end of the branch it summarized, or the compaction's parent)
//     to the summary; the files stay.
//
// Undo acts on the last action done, redo on the first one undone, and each only while the leaf
// is where that step left it: a prompt sent since (or the agent's own rewind) moved the
// conversation on, and undoing from there would drop that turn's changes unseen. A summary of the
// branch the action left, appended right after it on its new leaf, counts as where it left it:
// undoing then goes back to that branch and leaves the summary in the log, off the branch, and a
// redo lands on the summary again (its conversation goes on after it, as it did).
//
// Where the files are ("files at"): a prompt sets it to itself (its turn starts from the files
// where they were: the replay keeps that node, the prompt's base, for file-lineage.ts); any other
// message of the same turn as the files' node sets it to itself (the agent's turn changed them), a
// message of another turn leaves it (a summary written after a conversation-only rewind did not
// bring the files there); a rewind of mode both or code to where the files were when its
// checkpoint's prompt was sent (its base), conversation leaves it; a switch or continue to its
// target; an undo back to what the action found, a redo to what it left.
import type { RewindMode } from '../../shared/messages'
import { type SessionTree, isPrompt, summarizedLeafOf } from '../session/tree'
import type { BranchSummaryRecord } from '../session/records'

export type ActionKind = 'rewind' | 'switch-branch' | 'continue' | 'merge' | 'summary'

export interface TimelineAction {
  /** The restore id of its first doing: the action's id. */
  id: string
  kind: ActionKind
  /** When it was first done. */
  timestamp: string
  /** A rewind's checkpoint (the prompt) and mode. */
  checkpointUuid: string | null
  mode: RewindMode | null
  leafBefore: string | null
  leafAfter: string | null
  /**
   * The summary of the branch it left, appended on its new leaf right after it was first done:
   * where it left the conversation, so a redo lands there again (null: none).
   */
  summary: string | null
  /** The record whose state the files held before it, and after it (see the header). */
  filesBefore: string | null
  filesAfter: string | null
  /** The journal of its latest doing (its first, or a redo's): what an undo writes back. */
  journalId: string
  state: 'done' | 'undone'
}

export interface Timeline {
  /**
   * In the order they were first done: those done, then those undone that a redo can bring back
   * (an undo takes the last done one, a redo the first undone one, so the two stay apart).
   */
  actions: TimelineAction[]
  /** The record whose state the files hold; null: as before the first message. */
  filesAt: string | null
  /** What Undo would reverse now, or null. */
  undoable: TimelineAction | null
  /** What Redo would do again now, or null. */
  redoable: TimelineAction | null
  /**
   * For each prompt sent while the files were elsewhere than at its parent: the record whose
   * state the files held then (its base). Any other prompt's base is its parent (filesWhenSent).
   */
  bases: ReadonlyMap<string, string | null>
  /**
   * The actions a walk of Undo, step after step, reaches (the last done first, each while the
   * leaf is where the one after it left it), and those Redo reaches (the undone, oldest first,
   * while each starts where the one before ended): past them no step can be taken.
   */
  reach: { undo: readonly TimelineAction[]; redo: readonly TimelineAction[] }
}

interface LeafMove {
  type: 'rewind' | 'navigate'
  uuid: string
  parentUuid: string | null
  timestamp: string
  leafUuid: string | null
  restoreId?: unknown
  checkpointUuid?: string
  mode?: RewindMode
  reason?: string
  redoes?: unknown
}

/** The last replay of each tree, while it holds as many records (a tree only grows). */
const replayed = new WeakMap<SessionTree, { records: number; timeline: Timeline }>()

/**
 * The timeline of the tree's records. Asked several times per graph and per restore (the files'
 * place, the lineage of a node's files), so one replay serves them until the next record: the
 * answer is shared, never to be changed by a caller.
 */
export function replayTimeline(tree: SessionTree): Timeline {
  const known = replayed.get(tree)
  if (known !== undefined && known.records === tree.records.length) return known.timeline
  const timeline = replay(tree)
  replayed.set(tree, { records: tree.records.length, timeline })
  return timeline
}

function replay(tree: SessionTree): Timeline {
  let actions: TimelineAction[] = []
  let filesAt: string | null = null
  const bases = new Map<string, string | null>()
  /** Where the files were when the prompt `uuid` was sent (its parent, for one never replayed). */
  const baseOf = (uuid: string | undefined): string | null => {
    const base = bases.get(uuid ?? '')
    return base !== undefined ? base : (tree.get(uuid ?? '')?.parentUuid ?? null)
  }
  const add = (
    move: Pick<LeafMove, 'timestamp' | 'parentUuid' | 'leafUuid'>,
    restoreId: string,
    action: Partial<TimelineAction>
  ) => {
    actions = actions.filter((a) => a.state === 'done')
    actions.push({
      id: restoreId,
      kind: 'rewind',
      timestamp: move.timestamp,
      checkpointUuid: null,
      mode: null,
      leafBefore: move.parentUuid,
      leafAfter: move.leafUuid,
      summary: null,
      filesBefore: filesAt,
      filesAfter: filesAt,
      journalId: restoreId,
      state: 'done',
      ...action
    })
  }
  for (const record of tree.records) {
    // A parallel run joined into the session (SessionStore.appendRun) worked in its own folder:
    // its records moved neither these files nor the leaf for good, and its prompt's base is its
    // parent, the node it started from (filesWhenSent's default for a prompt not replayed).
    if ((record as { run?: unknown } | null)?.run !== undefined) continue
    const type = (record as { type?: unknown } | null)?.type
    if (type === 'merge') {
      const node = acceptedNode(tree, record)
      const merge = record as { parentUuid: string | null; timestamp: string; restoreId: string }
      if (node === null) continue
      const before = filesAt
      filesAt = node
      add(
        { timestamp: merge.timestamp, parentUuid: merge.parentUuid, leafUuid: node },
        merge.restoreId,
        {
          kind: 'merge',
          filesBefore: before,
          filesAfter: node
        }
      )
      continue
    }
    if (
      type === 'user' ||
      type === 'assistant' ||
      type === 'branch_summary' ||
      type === 'compaction' ||
      type === 'custom_message'
    ) {
      const node = acceptedNode(tree, record)
      if (node === null) continue
      const last = actions.at(-1)
      // An adopt summarizes the runs it leaves too: a chain of summaries, the last one its leaf.
      const parent = (record as { parentUuid?: unknown }).parentUuid
      if (last !== undefined && last.state === 'done' && (last.summary ?? parent) === parent) {
        if (summarizes(tree, node, last)) last.summary = node
      }
      if (isPrompt(record as Parameters<typeof isPrompt>[0])) {
        // Kept only where it is not the prompt's parent (baseOf's answer without it): a 500 MB
        // log's 120,000 prompts were as many entries, and a lookup each for the files' lineage.
        if (filesAt !== (typeof parent === 'string' ? parent : null)) bases.set(node, filesAt)
        filesAt = node
      } else if (
        // A child of the files' node is of its turn (no lookup: the common case by far).
        (record as { parentUuid?: unknown }).parentUuid === filesAt ||
        tree.turnOf(node) === tree.turnOf(filesAt)
      ) {
        filesAt = node
      }
      continue
    }
    if (type !== 'rewind' && type !== 'navigate') continue
    const move = record as LeafMove
    // The tree ignores a move to a leaf that is not in the file: so does the timeline.
    if (move.leafUuid !== null && tree.get(move.leafUuid) === undefined) continue
    const restoreId = typeof move.restoreId === 'string' ? move.restoreId : null
    if (type === 'rewind') {
      const before = filesAt
      if (move.mode === 'both' || move.mode === 'code') filesAt = baseOf(move.checkpointUuid)
      if (restoreId !== null) {
        add(move, restoreId, {
          kind: 'rewind',
          checkpointUuid: move.checkpointUuid ?? null,
          mode: move.mode ?? null,
          filesBefore: before,
          filesAfter: filesAt
        })
      }
      continue
    }
    switch (move.reason) {
      case 'undo-rewind': {
        const undone = lastWhere(actions, (a) => a.state === 'done' && a.journalId === restoreId)
        if (undone === undefined) {
          filesAt = move.leafUuid
          break
        }
        undone.state = 'undone'
        filesAt = undone.filesBefore
        break
      }
      case 'redo': {
        const redone = actions.find((a) => a.state === 'undone' && a.id === move.redoes)
        if (redone === undefined || restoreId === null) {
          filesAt = move.leafUuid
          break
        }
        redone.state = 'done'
        redone.journalId = restoreId
        filesAt = redone.filesAfter
        break
      }
      case 'switch-branch':
      case 'continue': {
        const before = filesAt
        filesAt = move.leafUuid
        if (restoreId !== null) {
          add(move, restoreId, { kind: move.reason, filesBefore: before, filesAfter: filesAt })
        }
        break
      }
      case 'summarize':
        // The summary is the new leaf; the files stay where they were.
        if (restoreId !== null) {
          add(move, restoreId, { kind: 'summary', leafBefore: summarizedFrom(tree, move) })
        }
        break
      default:
        filesAt = move.leafUuid
    }
  }
  // Undo takes the last done action, Redo the first undone one: each the first of its reach.
  const reach = reachOf(tree, actions)
  return {
    actions,
    filesAt,
    undoable: reach.undo[0] ?? null,
    redoable: reach.redo[0] ?? null,
    bases,
    reach
  }
}

function reachOf(tree: SessionTree, actions: readonly TimelineAction[]): Timeline['reach'] {
  const undo: TimelineAction[] = []
  let leaf = tree.leafUuid
  const done = actions.filter((a) => a.state === 'done')
  for (let i = done.length - 1; i >= 0; i--) {
    const action = done[i] as TimelineAction
    if (!isWhereItLeft(tree, action, leaf)) break
    undo.push(action)
    leaf = action.leafBefore
  }
  const redo: TimelineAction[] = []
  leaf = tree.leafUuid
  for (const action of actions) {
    if (action.state !== 'undone') continue
    if (action.leafBefore !== leaf) break
    redo.push(action)
    leaf = action.leafAfter
  }
  return { undo, redo }
}

/**
 * The actions timeline:walkTo can bring the timeline to stand right after: a done one whose
 * later done actions are all within Undo's reach, an undone one within Redo's. One pass.
 */
export function walkableActions(timeline: Timeline): Set<string> {
  const walkable = new Set(timeline.reach.redo.map((a) => a.id))
  let doneAfter = 0
  for (let i = timeline.actions.length - 1; i >= 0; i--) {
    const action = timeline.actions[i] as TimelineAction
    if (action.state !== 'done') continue
    if (doneAfter <= timeline.reach.undo.length) walkable.add(action.id)
    doneAfter++
  }
  return walkable
}

/**
 * Where the conversation was before a summary the user asked for: the end of the branch a
 * "from here" summary summarizes, the parent of an "up to here" compaction (the leaf then).
 */
function summarizedFrom(tree: SessionTree, move: LeafMove): string | null {
  const summary = tree.get(move.leafUuid ?? '')
  if (summary?.type === 'branch_summary') return summarizedLeafOf(summary) ?? move.parentUuid
  return summary?.parentUuid ?? move.parentUuid
}

/** The leaf is the action's new leaf, or the summary of the branch it left appended there. */
function isWhereItLeft(tree: SessionTree, action: TimelineAction, leaf: string | null): boolean {
  return action.leafAfter === leaf || summarizes(tree, leaf, action)
}

/**
 * Whether the record `uuid` ends the summaries `action` appended on its new leaf: the summary of
 * the branch it left, or a chain of leave summaries from there (an adopt's, one per run left).
 */
function summarizes(tree: SessionTree, uuid: string | null, action: TimelineAction): boolean {
  let record = uuid === null ? undefined : tree.get(uuid)
  while (record?.type === 'branch_summary' && isLeaveSummary(record)) {
    if (record.parentUuid === action.leafAfter) return true
    record = record.parentUuid === null ? undefined : tree.get(record.parentUuid)
  }
  return false
}

/**
 * A summary a move appended for a branch it left (fromLeafUuid), not "Summarize from here"'s
 * (fromPromptUuid: made in place of a prompt, which no undo of an earlier move may drop).
 */
function isLeaveSummary(record: BranchSummaryRecord): boolean {
  const details = record.details as { fromPromptUuid?: unknown } | null | undefined
  return summarizedLeafOf(record) !== null && details?.fromPromptUuid === undefined
}

/**
 * The restore journals undo and redo can still reach from the leaf, however many steps: what
 * retention keeps (an action's first journal, which a redo re-applies, and its latest, which an
 * undo reverses). Past a step whose leaf does not match, nothing is within reach.
 */
export function journalsWithinReach(tree: SessionTree): Set<string> {
  const { reach } = replayTimeline(tree)
  const ids = new Set<string>()
  for (const action of reach.undo) ids.add(action.id).add(action.journalId)
  for (const action of reach.redo) ids.add(action.id)
  return ids
}

/** The record's uuid when the tree took it as a node (not a duplicate), else null. */
function acceptedNode(tree: SessionTree, record: unknown): string | null {
  const uuid = (record as { uuid?: unknown }).uuid
  return typeof uuid === 'string' && tree.get(uuid) === record ? uuid : null
}

function lastWhere<T>(list: T[], test: (item: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i] as T
    if (test(item)) return item
  }
  return undefined
}

/**
 * The step that brings the timeline nearer to standing right after the action `id` (it done,
 * every action after it undone): 'undo' while a later one is done, 'redo' while it is undone,
 * 'there' once it stands there. Null when no action has that id.
 */
export function stepToward(timeline: Timeline, id: string): 'undo' | 'redo' | 'there' | null {
  const at = timeline.actions.findIndex((a) => a.id === id)
  if (at === -1) return null
  const lastDone = timeline.actions.findLastIndex((a) => a.state === 'done')
  if (lastDone > at) return 'undo'
  return timeline.actions[at]?.state === 'undone' ? 'redo' : 'there'
}
