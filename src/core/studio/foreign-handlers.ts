// Another tool's sessions (the studio's foreign section): a session of Claude Code, pi, oh-my-pi,
// Codex CLI, Gemini CLI or OpenCode shown read-only in place of ours (viewed-session.ts), followed
// while that tool writes it. The views read its tree (the context's viewTree()), everything that
// would write refuses, and what is left is "Restore files here" (a rescue restore from that
// tool's backups, rewind/rescue.ts, previewed first; undone and redone from the timeline) and
// "Continue in Rewind Studio" (a new session of ours holding the path to a node).
import type { Handlers } from '../../shared/contract'
import { maskSecretsIn } from '../../shared/mask-secrets'
import {
  type AppInfo,
  type RescuePreview,
  type RescueResult,
  type RewindResult,
  TOOL_NAMES
} from '../../shared/views'
import type { RewindPlan } from '../rewind/rewind-engine'
import { planRescue } from '../rewind/rescue'
import { continueForeign } from '../session/continue-foreign'
import { readerOf } from '../session/load'
import { realPathOf } from '../session/paths'
import type { StudioContext } from './studio-context'
import { StudioError } from './studio-error'
import { ViewedSession } from './viewed-session'

type ForeignChannel =
  'session:openFile' | 'session:continueForeign' | 'rescue:preview' | 'rescue:apply'

export function foreignHandlers(foreign: StudioForeign): Pick<Handlers, ForeignChannel> {
  return {
    'session:openFile': ({ file }) => foreign.openFile(file),
    'session:continueForeign': ({ nodeId }) => foreign.continueForeign(nodeId),
    'rescue:preview': ({ nodeId }) => foreign.previewRescue(nodeId),
    'rescue:apply': ({ nodeId }) => foreign.applyRescue(nodeId)
  }
}

/** Why another tool's session is read-only here, and what can be done with it. */
export function foreignReadOnly(viewed: ViewedSession): string {
  return `This ${TOOL_NAMES[viewed.format]} session is shown read-only: it is never written. "Continue in Rewind Studio" carries it on as a new session of ours${viewed.hasBackups ? '; "Restore files here" puts its files back from its backups' : ''}.`
}

type RescueEngine = ReturnType<ViewedSession['rescue']>['engine']

export class StudioForeign {
  private shown: ViewedSession | null = null
  /** The rescue restore last previewed, applied as shown when it still fits. */
  private lastRescue: { nodeId: string; plan: RewindPlan } | null = null

  constructor(private readonly ctx: StudioContext) {}

  /** Another tool's session shown instead of ours, read-only; null: ours is shown. */
  get viewed(): ViewedSession | null {
    return this.shown
  }

  /**
   * Shows another tool's session file read-only, followed while that tool writes it. Only a file
   * the discovery lists (a session file in a project folder of a known home, sources/homes.ts)
   * is opened: never an arbitrary path from the page.
   */
  openFile(file: string): Promise<AppInfo> {
    const ctx = this.ctx
    return ctx.exclusive('opening a session', async () => {
      const source = ctx.sources.sourceOf(file)
      const reader = source === null || source === 'rewind-studio' ? null : readerOf(source)
      if (reader === null) {
        throw new StudioError(
          'not_found',
          source === 'rewind-studio'
            ? `${file} is a Rewind Studio session: open it by its id.`
            : `${file} is no session where Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI or OpenCode keep theirs: only those are opened. Nothing was opened.`
        )
      }
      let viewed: ViewedSession
      try {
        viewed = new ViewedSession(file, reader, {
          home: ctx.home,
          claudeHome: ctx.sources.homes['claude-code']
        })
      } catch (error) {
        throw new StudioError('not_found', `Cannot read ${file}: ${(error as Error).message}`)
      }
      this.stopViewing()
      this.shown = viewed
      viewed.follow(
        () => ctx.shapeChanged(),
        (notice) => ctx.notice('error', notice)
      )
      ctx.shapeChanged()
      return ctx.info()
    })
  }

  stopViewing(): void {
    if (this.shown === null) return
    this.shown.close()
    this.shown = null
    this.lastRescue = null
    this.ctx.shapeChanged()
  }

  /**
   * "Restore files here" on a prompt of the viewed session: its files as the tool's backups say
   * they were before that prompt (rewind/rescue.ts), previewed.
   */
  async previewRescue(nodeId: string): Promise<RescuePreview> {
    const { viewed, root } = this.rescueTarget()
    // A preview writes nothing, not even the companion log's first line.
    const space = viewed.rescue(root, true)
    try {
      const plan = await planRescue(space, viewed.rescued(), this.promptOf(nodeId))
      this.lastRescue = { nodeId, plan }
      return maskSecretsIn({
        ...plan.preview,
        promptUuid: nodeId,
        promptIndex: viewed.tree.checkpoints(viewed.tree.pathTo(nodeId)).length,
        skipped: plan.unrestorable
      })
    } finally {
      space.close()
    }
  }

  /** Applies the rescue restore previewed for `nodeId` (planned afresh when it no longer fits). */
  applyRescue(nodeId: string): Promise<RescueResult> {
    const { viewed, root } = this.rescueTarget()
    return this.ctx.exclusive('a restore', async () => {
      const space = viewed.rescue(root)
      try {
        const previewed = this.lastRescue?.nodeId === nodeId ? this.lastRescue.plan : null
        const plan = previewed ?? (await planRescue(space, viewed.rescued(), this.promptOf(nodeId)))
        const result = await space.engine.apply(plan)
        return { ...result, skipped: plan.unrestorable }
      } finally {
        space.close()
        this.lastRescue = null
        this.ctx.shapeChanged()
      }
    })
  }

  /** The timeline's undo or redo of the viewed session's rescue restores (rewind-handlers.ts). */
  rescueStep(
    operation: string,
    run: (engine: RescueEngine) => Promise<RewindResult>
  ): Promise<RewindResult> {
    const { viewed, root } = this.rescueTarget()
    return this.ctx.exclusive(operation, async () => {
      const space = viewed.rescue(root)
      try {
        return await run(space.engine)
      } finally {
        space.close()
        this.ctx.shapeChanged()
      }
    })
  }

  /**
   * The viewed session and the folder its files are restored into: this workspace, which must be
   * the one the session recorded (its paths are relative to it).
   */
  private rescueTarget(): { viewed: ViewedSession; root: string } {
    const viewed = this.viewed
    if (viewed === null) {
      throw new StudioError(
        'not_found',
        "No other tool's session is shown: nothing to restore from."
      )
    }
    const root = realPathOf(this.ctx.cwd)
    if (realPathOf(viewed.cwd) !== root) {
      throw new StudioError(
        'conflict',
        `This session ran in ${viewed.cwd || '(no folder recorded)'}, not in ${this.ctx.cwd}: open that folder to restore its files. Nothing was changed.`
      )
    }
    return { viewed, root }
  }

  /** A prompt node of the viewed session, or not_found saying what a restore goes back to. */
  private promptOf(nodeId: string): string {
    const tree = this.ctx.viewTree()
    const record = tree.get(nodeId)
    if (record === undefined || tree.checkpoints(tree.pathTo(nodeId)).at(-1)?.uuid !== nodeId) {
      throw new StudioError(
        'not_found',
        `${nodeId} is no prompt of this session: files are restored to how they were before a prompt (the tool keeps only the content before each change, so the state after a turn cannot be rebuilt). Nothing was changed.`
      )
    }
    return nodeId
  }

  /**
   * Continue in Rewind Studio: a new session of ours holding the path to `nodeId` (its end on its
   * branch) converted from the viewed session (session/continue-foreign.ts), opened with the
   * agent ready. No file is touched.
   */
  continueForeign(nodeId: string): Promise<AppInfo> {
    const ctx = this.ctx
    const viewed = this.viewed
    if (viewed === null) {
      return Promise.reject(
        new StudioError('not_found', "No other tool's session is shown: nothing to continue.")
      )
    }
    return ctx.endOfNode(nodeId).then((at) => {
      if (viewed.tree.get(at) === undefined) {
        throw new StudioError(
          'not_found',
          `${nodeId} is no point of the conversation (a sub-agent's transcript is not): continue from a turn. Nothing was written.`
        )
      }
      return ctx.replaceSession(() =>
        continueForeign({
          home: ctx.home,
          cwd: ctx.cwd,
          origin: { file: viewed.file, format: viewed.format, sessionId: viewed.sessionId },
          tree: viewed.tree,
          at
        })
      )
    })
  }
}
