// The moves (the studio's rewinds section): a rewind to a checkpoint, a branch switch, a continue
// from any node, each previewed first, and the timeline's undo and redo. The apply confirms the
// preview the page showed: that plan is kept (the context's lastPlan) and applied while it still
// fits (same target, leaf unchanged), so "Restore" does exactly what the preview showed; any
// other apply plans afresh. Each apply runs alone (the context's exclusive()) and the graph is
// pushed after it, done or not.
import type { Handlers } from '../../shared/contract'
import { maskSecretsIn } from '../../shared/mask-secrets'
import type { RewindMode } from '../../shared/messages'
import type { FileDiff, LeaveChoice, RewindPreview, RewindResult } from '../../shared/views'
import type { RewindPlan } from '../rewind/rewind-engine'
import type { StudioForeign } from './foreign-handlers'
import type { StudioContext } from './studio-context'
import { StudioError } from './studio-error'

type RewindChannel =
  | 'rewind:preview'
  | 'rewind:apply'
  | 'rewind:undo'
  | 'rewind:fileDiff'
  | 'branch:preview'
  | 'branch:switch'
  | 'continue:preview'
  | 'continue:apply'
  | 'timeline:undo'
  | 'timeline:redo'

/** `foreign`: while another tool's session is shown, undo and redo step its rescue restores. */
export function rewindHandlers(
  ctx: StudioContext,
  foreign: StudioForeign
): Pick<Handlers, RewindChannel> {
  const undo = () => {
    if (ctx.viewed !== null) return foreign.rescueStep('an undo', (engine) => engine.undo())
    ctx.requireWritable()
    return applied(ctx, 'an undo', () => ctx.work.undo())
  }
  return {
    'rewind:preview': ({ checkpointUuid, mode }) => previewRewind(ctx, checkpointUuid, mode),
    'rewind:apply': ({ checkpointUuid, mode, summary }) =>
      rewind(ctx, checkpointUuid, mode, summary),
    'rewind:undo': undo,
    'rewind:fileDiff': async ({ path }) => previewFileDiff(ctx, path),
    'branch:preview': ({ leafUuid }) => {
      ctx.requireOwnSession()
      return remember(ctx, ctx.work.planSwitch(leafUuid))
    },
    'branch:switch': ({ leafUuid, summary }) => switchBranch(ctx, leafUuid, summary),
    'continue:preview': async ({ nodeId }) => {
      ctx.requireOwnSession()
      return remember(ctx, ctx.work.planContinue(await ctx.endOfNode(nodeId)))
    },
    'continue:apply': ({ nodeId, summary }) => continueFrom(ctx, nodeId, summary),
    'timeline:undo': undo,
    'timeline:redo': () => {
      if (ctx.viewed !== null) return foreign.rescueStep('a redo', (engine) => engine.redo())
      ctx.requireWritable()
      return applied(ctx, 'a redo', () => ctx.work.redo())
    }
  }
}

/** Keeps the plan previewed (the context's lastPlan) and answers its preview, masked. */
export async function remember(
  ctx: StudioContext,
  plan: Promise<RewindPlan>
): Promise<RewindPreview> {
  ctx.lastPlan = await plan
  return maskSecretsIn(ctx.lastPlan.preview)
}

function previewRewind(
  ctx: StudioContext,
  checkpointUuid: string,
  mode: RewindMode
): Promise<RewindPreview> {
  ctx.requireOwnSession()
  return remember(ctx, ctx.work.planRewind(checkpointUuid, mode))
}

/** One file's diff from the preview shown last (a big preview leaves most diffs out). */
function previewFileDiff(ctx: StudioContext, path: string): FileDiff {
  if (ctx.lastPlan === null) {
    throw new StudioError('not_found', 'No rewind preview is open: preview the rewind again.')
  }
  return maskSecretsIn(ctx.work.engine.fileDiff(ctx.lastPlan, path))
}

function rewind(
  ctx: StudioContext,
  checkpointUuid: string,
  mode: RewindMode,
  summary: LeaveChoice | undefined
): Promise<RewindResult> {
  ctx.requireWritable()
  return applied(ctx, 'a rewind', async () => {
    const plan =
      ctx.lastPlan?.kind === 'rewind' &&
      ctx.lastPlan.checkpointUuid === checkpointUuid &&
      ctx.lastPlan.mode === mode &&
      ctx.lastPlan.leafBefore === ctx.store.leafUuid
        ? ctx.lastPlan
        : await ctx.work.planRewind(checkpointUuid, mode)
    return ctx.work.apply(plan, leaveChoice(ctx, summary))
  })
}

function switchBranch(
  ctx: StudioContext,
  leafUuid: string,
  summary: LeaveChoice | undefined
): Promise<RewindResult> {
  ctx.requireWritable()
  return applied(ctx, 'a branch switch', async () => {
    const plan =
      ctx.lastPlan?.kind === 'switch-branch' &&
      ctx.lastPlan.leafAfter === leafUuid &&
      ctx.lastPlan.leafBefore === ctx.store.leafUuid
        ? ctx.lastPlan
        : await ctx.work.planSwitch(leafUuid)
    return ctx.work.apply(plan, leaveChoice(ctx, summary))
  })
}

/** Moves the conversation and the files to a node, as continue:preview showed. */
function continueFrom(
  ctx: StudioContext,
  nodeId: string,
  summary: LeaveChoice | undefined
): Promise<RewindResult> {
  ctx.requireWritable()
  return applied(ctx, 'a continue', async () => {
    const target = await ctx.endOfNode(nodeId)
    const plan =
      ctx.lastPlan?.kind === 'continue' &&
      ctx.lastPlan.leafAfter === target &&
      ctx.lastPlan.leafBefore === ctx.store.leafUuid
        ? ctx.lastPlan
        : await ctx.work.planContinue(target)
    return ctx.work.apply(plan, leaveChoice(ctx, summary))
  })
}

/** The choice a move request made for the branch it leaves, else the remembered one. */
function leaveChoice(ctx: StudioContext, asked: LeaveChoice | undefined): LeaveChoice {
  if (asked !== undefined) return asked
  return { mode: ctx.models.settings().summaryOnLeave === 'summarize' ? 'summarize' : 'none' }
}

/**
 * Runs a move (or a summary, summary-handlers.ts) as the studio's one job; the plan previewed is
 * forgotten and the graph pushed after it, done or not.
 */
export function applied<T>(
  ctx: StudioContext,
  operation: string,
  run: () => Promise<T>
): Promise<T> {
  return ctx.exclusive(operation, async () => {
    try {
      return await run()
    } finally {
      ctx.lastPlan = null
      ctx.shapeChanged()
    }
  })
}
