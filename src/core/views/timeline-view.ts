// The timeline as people read it: each action named by what it did (Rewind to before prompt 3
// "add tests" (code only); Switch to branch "…"; Continue from "…"; Adopt run "…"), for the Undo / Redo
// buttons, the timeline list, and the CLI's and chat's lines. Prompt text is masked
// (shared/mask-secrets.ts) like every title the studio shows.
import { shownFirstLine } from '../../shared/shown-text'
import type { RewindMode } from '../../shared/messages'
import type { TimelineEntry, TimelineStep } from '../../shared/views'
import { type Timeline, type TimelineAction, walkableActions } from '../rewind/timeline'
import { type SessionTree, promptText } from '../session/tree'
import { type TurnIndex, graphNodeTitle, ownerNode, ownerTitle } from './session-graph'

const QUOTED_CHARS = 60

const MODE_NAMES: Record<RewindMode, string> = {
  both: 'code and conversation',
  conversation: 'conversation only',
  code: 'code only'
}

function quoted(text: string): string {
  return `"${shownFirstLine(text, QUOTED_CHARS)}"`
}

export function actionLabel(tree: SessionTree, index: TurnIndex, action: TimelineAction): string {
  switch (action.kind) {
    case 'rewind': {
      const prompt = tree.get(action.checkpointUuid ?? '')
      const mode = MODE_NAMES[action.mode ?? 'both']
      if (prompt?.type !== 'user') return `Rewind (${mode})`
      // Numbered along its own branch, as the rewind picker numbers it.
      const number = tree.checkpoints(tree.pathTo(prompt.uuid)).length
      return `Rewind to before prompt ${number} ${quoted(promptText(prompt))} (${mode})`
    }
    case 'switch-branch':
      // A switch that leaves the leaf where it is: a fork bringing its node's files back.
      return action.leafBefore === action.leafAfter
        ? `Restore the files of ${target(tree, index, action)}`
        : `Switch to branch ${target(tree, index, action)}`
    case 'continue':
      return adoptsRun(tree, action)
        ? `Adopt run ${target(tree, index, action)}`
        : `Continue from ${target(tree, index, action)}`
    case 'summary': {
      // From here: the summary names its prompt; up to here: the compaction keeps from it.
      const summary = tree.get(action.leafAfter ?? '')
      const details = (summary as { details?: { fromPromptUuid?: unknown } } | undefined)?.details
      const from = typeof details?.fromPromptUuid === 'string' ? details.fromPromptUuid : null
      const prompt = tree.get(
        from ?? (summary?.type === 'compaction' ? summary.firstKeptUuid : '') ?? ''
      )
      const title = prompt?.type === 'user' ? ` ${quoted(promptText(prompt))}` : ''
      return from !== null ? `Summarize from${title}` : `Summarize up to${title}`
    }
    case 'merge': {
      // The merge node's own title says what it brought in and from where.
      const merge = tree.get(action.leafAfter ?? '')
      return merge === undefined
        ? 'Bring in from another branch'
        : graphNodeTitle(tree, index, merge)
    }
  }
}

/**
 * A continue onto a parallel run's branch from outside it: what Adopt this run does (the run's
 * joined records carry its id, session/joined-run.ts), or a continue from a run's node, which
 * takes its files and conversation the same way.
 */
function adoptsRun(tree: SessionTree, action: TimelineAction): boolean {
  const run = runOf(tree.get(action.leafAfter ?? ''))
  return run !== null && runOf(tree.get(action.leafBefore ?? '')) !== run
}

function runOf(record: object | undefined): string | null {
  const run = (record as { run?: unknown } | undefined)?.run
  return typeof run === 'string' ? run : null
}

/** The node a move went to, quoted; "the start" for a record before the first prompt. */
function target(tree: SessionTree, index: TurnIndex, action: TimelineAction): string {
  const title = ownerTitle(tree, index, action.leafAfter)
  return title === '' ? 'the start' : quoted(title)
}

export function timelineEntries(
  tree: SessionTree,
  index: TurnIndex,
  timeline: Timeline
): TimelineEntry[] {
  const walkable = walkableActions(timeline)
  return timeline.actions.map((action) => ({
    id: action.id,
    kind: action.kind,
    label: actionLabel(tree, index, action),
    nodeId: ownerNode(index, action.leafAfter),
    timestamp: action.timestamp,
    state: action.state,
    walkable: walkable.has(action.id)
  }))
}

export function timelineStep(
  tree: SessionTree,
  index: TurnIndex,
  action: TimelineAction | null
): TimelineStep | null {
  return action === null ? null : { id: action.id, label: actionLabel(tree, index, action) }
}
