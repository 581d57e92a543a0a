// The agent loop: a prompt goes into the session, then model and tools take turns until the model
// ends its turn. Every message is appended to the session as it completes and the next request is
// built from the session's active branch (context.ts), so what the model sees is always what the
// log holds: a stop, an API error or a killed process leaves a session the next turn can continue.
//
// One "step" is a model answer plus the results of the tools it called. Things that must not
// happen in the middle of a step happen between steps: a rewind requested by the rewind tool is
// applied there (checkpoint/apply.ts), and a checkpoint's reminder is appended there.
//
// Before each request the context's size is checked (summary/tokens.ts): over the threshold of
// the model's window, the older part of the branch is compacted first (summary/compaction.ts);
// a request the API still refuses as too long is compacted and sent once more. Summaries the user
// asks for (a branch left, from here, up to here, /compact) run as the agent's one job too
// (runSummaryJob): a prompt waits for them, and stop() cancels them.
import { uuidv7 } from '../session/uuid-v7'
import type { ContentBlock, PermissionMode, ToolUseBlock } from '../../shared/messages'
import type { AgentEvent, ContextUsage, PermissionRequest } from '../../shared/views'
import { MAX_PERMISSION_DETAIL_CHARS } from '../../shared/permission-limit'
import { promptSizeProblem } from '../../shared/prompt-limit'
import { maskSecretsIn } from '../../shared/mask-secrets'
import type { WriteGuard } from '../files/write-guard'
import type { AssistantRecord, UserRecord } from '../session/records'
import type { SessionStore } from '../session/store'
import { TURN_STOPPED_TYPE, isPrompt, promptText } from '../session/tree'
import type { SessionTree } from '../session/tree'
import { applyRewind } from './checkpoint/apply'
import { checkpointToolNames } from './checkpoint/registration'
import { CheckpointState } from './checkpoint/state'
import {
  REMINDER_TYPE,
  REWIND_REMINDER_CAP,
  REWIND_REQUIRED_TYPE,
  checkpointActiveReminder,
  checkpointLeftOpen,
  rewindNotice,
  rewindRequiredWarning
} from './checkpoint/texts'
import { createCheckpointTools } from './checkpoint/tools'
import { INTERRUPTED_RESULT, MessageBuilder, isInterrupted, modelView } from './context'
import { FileStateTable, writtenOnBranch } from './file-state'
import { ModelCallError } from './model/model-client'
import type { ModelClient, ModelErrorCode, ModelReply, ScriptPosition } from './model/model-client'
import { needsPermission } from './permissions'
import {
  type CompactionSettings,
  DEFAULT_COMPACTION_THRESHOLD,
  compactBranch,
  overThreshold
} from './summary/compaction'
import type { SummaryContext } from './summary/summarize'
import { DEFAULT_CONTEXT_WINDOW, contextUsage, type RequestFrame } from './summary/tokens'
import { buildSystemPrompt, localDate } from './system-prompt'
import { latestEvery } from '../os/latest-every'
import { watchOutput } from './tools/live-output'
import { describeToolCall, runTool, toolDefinition } from './tools/tool'
import type { Tool, ToolContext, ToolDefinition, ToolOutput } from './tools/tool'

/** How often, at most, a summary's progress is sent again. */
const PROGRESS_EVERY_MS = 200

export interface AgentOptions {
  session: SessionStore
  /** Workspace root. */
  cwd: string
  model: ModelClient
  /** The session's tools (builtinTools()); the checkpoint pair is added here when enabled. */
  tools: Tool[]
  permissionMode: PermissionMode
  /** Asks the user before a tool that needs it; false is a denial the model sees. */
  askPermission(request: PermissionRequest): Promise<boolean>
  /** File history's hooks, passed to the tools. */
  guard: WriteGuard
  /**
   * Called right after each prompt the user typed is appended, before the model is called:
   * file history opens the checkpoint for that prompt here.
   */
  onCheckpoint(promptUuid: string): Promise<void>
  onEvent(event: AgentEvent): void
  /** The setting checkpoint.enabled: offer the checkpoint/rewind pair. */
  checkpointTools: boolean
  /** Roots outside the workspace the user allowed (default none). */
  allowedOutsideRoots?: string[]
  /** The clock (system prompt date, checkpoint times). */
  now?: () => Date
  /** Settings compaction.threshold and compaction.contextWindow (default 0.8 of 200,000). */
  compaction?: CompactionSettings
}

export type TurnOutcome =
  /** The model ended its turn. */
  | { status: 'completed'; stopReason: string | null }
  /** stop() was called; the session holds everything up to the stop, tool calls answered. */
  | { status: 'stopped' }
  /** The model kept ending its turn with a checkpoint open; the checkpoint is still active. */
  | { status: 'checkpoint_left_open' }
  | { status: 'failed'; code: ModelErrorCode | 'session' | 'checkpoint'; message: string }

export class Agent {
  /** Read-before-edit table: made again from the branch when the leaf moves (rehydrateFileState). */
  readonly fileState = new FileStateTable()
  readonly checkpoint = new CheckpointState()
  private readonly options: AgentOptions
  private readonly tools: Tool[]
  private readonly toolsByName: Map<string, Tool>
  private readonly definitions: ToolDefinition[]
  private readonly now: () => Date
  private readonly compaction: CompactionSettings
  /** Each request's messages, built on the previous request's (context.ts). */
  private readonly messages = new MessageBuilder()
  private abort: AbortController | null = null
  /** The latest turn or job, so stop() can wait until it has wound down (settled once it has). */
  private turn: Promise<unknown> | null = null

  constructor(options: AgentOptions) {
    this.options = options
    this.now = options.now ?? (() => new Date())
    this.compaction = options.compaction ?? {
      threshold: DEFAULT_COMPACTION_THRESHOLD,
      contextWindow: DEFAULT_CONTEXT_WINDOW
    }
    const offered = new Set<string>(
      checkpointToolNames({ enabled: options.checkpointTools, taskDepth: 0 })
    )
    const pair = createCheckpointTools(this.checkpoint, this.now).filter((t) => offered.has(t.name))
    this.tools = [...options.tools, ...pair]
    this.toolsByName = new Map()
    for (const tool of this.tools) {
      if (this.toolsByName.has(tool.name)) throw new Error(`Two tools are named ${tool.name}`)
      this.toolsByName.set(tool.name, tool)
    }
    this.definitions = this.tools.map(toolDefinition)
    this.checkpoint.rehydrate(this.tree.activePath())
    this.rehydrateFileState()
  }

  get running(): boolean {
    return this.abort !== null
  }

  get toolNames(): string[] {
    return this.tools.map((t) => t.name)
  }

  /** One line for a tool call, as the transcript shows it: "Edit(config.py)". */
  describeToolCall(name: string, input: unknown): string {
    return describeToolCall(this.toolsByName.get(name), name, input, this.options.cwd)
  }

  /** The system prompt the next request will carry. */
  systemPrompt(): string {
    return buildSystemPrompt({
      cwd: this.options.cwd,
      date: localDate(this.now()),
      tools: this.definitions,
      platform: process.platform
    })
  }

  /** How full the context of the next request is (the header's meter). */
  contextUsage(): ContextUsage {
    return contextUsage(this.tree.activePath(), this.requestFrame, this.compaction.contextWindow)
  }

  /** What the next request carries besides its messages. */
  private readonly requestFrame = (): RequestFrame => ({
    system: this.systemPrompt(),
    tools: this.definitions
  })

  /**
   * Runs a summary operation as the agent's one job: refused while a turn runs (and a prompt is
   * refused while it runs), shown as running, cancelled by stop() (the model call then throws
   * ModelCallError 'aborted' and the job appends nothing).
   */
  async runSummaryJob<T>(job: (ctx: SummaryContext) => Promise<T>): Promise<T> {
    if (this.running) throw new Error('The agent is already running a turn')
    const abort = new AbortController()
    this.abort = abort
    const run = (async () => {
      this.emit({ type: 'status', running: true })
      try {
        return await this.withSummaryContext(abort.signal, job)
      } finally {
        this.abort = null
        this.emit({ type: 'context_usage', usage: this.contextUsage() })
        this.emit({ type: 'status', running: false })
      }
    })()
    // stop() waits for the job to wind down, not for its result: its failure is the caller's.
    this.turn = run.then(
      () => undefined,
      () => undefined
    )
    return run
  }

  /**
   * Runs `job` with a summary's context; its progress is shown (summary_progress) as the model
   * writes it, and nothing of it after the job ended.
   */
  private async withSummaryContext<T>(
    signal: AbortSignal,
    job: (ctx: SummaryContext) => Promise<T>
  ): Promise<T> {
    const progress = latestEvery<number>(
      (chars) => this.emit({ type: 'summary_progress', chars }),
      PROGRESS_EVERY_MS
    )
    try {
      return await job({
        store: this.options.session,
        model: this.options.model,
        cwd: this.options.cwd,
        window: this.compaction.contextWindow,
        frame: this.requestFrame,
        signal,
        onWritten: progress.push
      })
    } finally {
      progress.close()
    }
  }

  /**
   * Cancels the running turn at whatever point it is; send() then resolves with 'stopped'. Resolves
   * once the turn has wound down (a killed command has exited, the interrupted results are
   * appended), so the caller can send again or close the session right away. Harmless when idle.
   */
  async stop(): Promise<void> {
    this.abort?.abort()
    await this.turn
  }

  /**
   * After the leaf moved under the agent (a rewind, a branch switch): take the checkpoint state
   * from the new active branch. The next request is built from that branch anyway.
   */
  reloadFromSession(): void {
    if (this.running) throw new Error('reloadFromSession() while a turn is running')
    this.checkpoint.rehydrate(this.tree.activePath())
  }

  /**
   * After the conversation moved to another branch (or on a resumed session, or a run starting
   * from a node): the read-before-edit table holds what the model wrote on the branch it is on
   * now, so an Edit after a rewind needs no new Read of a file the kept turns wrote.
   */
  rehydrateFileState(): void {
    const tree = this.tree
    const view = modelView(tree.activePath())
    const held = tree.records.length
    this.fileState.rehydrate(() => writtenOnBranch(tree, view, this.options.cwd, held))
  }

  async send(prompt: string): Promise<TurnOutcome> {
    if (this.running) throw new Error('The agent is already running a turn')
    if (prompt.trim() === '') throw new Error('The prompt is empty')
    // The contract checks this for the windows; the terminal chat reaches the agent directly.
    const tooLong = promptSizeProblem(prompt)
    if (tooLong !== null) throw new Error(tooLong)
    const abort = new AbortController()
    this.abort = abort
    const turn = this.runTurn(prompt, abort)
    this.turn = turn
    return turn
  }

  /**
   * A turn's records are made durable in groups (docs/session-format.md, "Crash safety"): the
   * prompt before the model is called; a tool's file_change records, with everything before
   * them, before its result is shown (file history appends them durably); the rest when the
   * turn ends. The other records are written at once but not synced on their own.
   */
  private async runTurn(prompt: string, abort: AbortController): Promise<TurnOutcome> {
    this.emit({ type: 'status', running: true })
    try {
      const record = this.append({ role: 'user', content: prompt }, { durable: true })
      this.checkpoint.remindersThisTurn = 0
      await this.options.onCheckpoint(record.uuid)
      const outcome = await this.loop(abort.signal)
      const leaf = this.tree.get(this.options.session.leafUuid ?? '')
      const unanswered =
        (leaf?.type === 'user' && !isInterrupted(leaf)) || leaf?.type === 'compaction'
      if (outcome.status === 'stopped' && unanswered) {
        // Stopped before the model answered what it was last sent (the prompt, tool results it
        // had in full, or the conversation just compacted): the log says so (it would read like
        // a failed call), and the next request tells the model that turn went unanswered.
        this.note(TURN_STOPPED_TYPE, 'The user stopped the turn above before you answered it.')
      }
      this.options.session.sync()
      return outcome
    } catch (error) {
      // Appends failing (read-only session, disk full) or file history refusing the checkpoint:
      // expected errors, reported as one line.
      const message = error instanceof Error ? error.message : String(error)
      this.emit({ type: 'notice', level: 'error', message })
      return { status: 'failed', code: 'session', message }
    } finally {
      syncQuietly(this.options.session)
      // The state in memory ends every turn equal to what the branch says. A rewind that a stop or
      // a failure kept from being applied is dropped here: its checkpoint is still open on the
      // branch, so the model can rewind again.
      this.checkpoint.rehydrate(this.tree.activePath())
      this.checkpoint.batchResultUuid = null
      this.abort = null
      this.emit({ type: 'status', running: false })
    }
  }

  private get tree(): SessionTree {
    return this.options.session.tree()
  }

  private emit(event: AgentEvent): void {
    this.options.onEvent(event)
  }

  private append(
    message: {
      role: 'user' | 'assistant'
      content: string | ContentBlock[]
      model?: string
      stop_reason?: string | null
      usage?: object
    },
    extra: { uuid?: string; toolDetails?: Record<string, unknown>; durable?: boolean }
  ): UserRecord | AssistantRecord {
    // Durable with the turn's next group (see runTurn), unless asked now.
    const record = this.options.session.appendMessage(message, { durable: false, ...extra })
    const content = record.message.content
    this.emit({
      type: 'message_end',
      id: record.uuid,
      role: record.message.role,
      content: typeof content === 'string' ? [{ type: 'text', text: content }] : content
    })
    return record
  }

  private note(customType: string, text: string): void {
    this.options.session.appendCustomMessage(
      { customType, hidden: true, content: text },
      { durable: false }
    )
  }

  private async loop(signal: AbortSignal): Promise<TurnOutcome> {
    for (;;) {
      if (signal.aborted) return { status: 'stopped' }
      if ((await this.compactIfOver(signal)) === 'stopped') return { status: 'stopped' }
      const step = await this.callModelCompactingOnOverflow(signal)
      if (step.kind === 'outcome') return step.outcome
      const calls = step.reply.content.filter(
        (b): b is ToolUseBlock => b.type === 'tool_use' && 'id' in b && 'name' in b
      )
      if (calls.length === 0) {
        const open = this.checkpoint.active
        if (open === null) return { status: 'completed', stopReason: step.reply.stopReason }
        // Enforce before yield: a checkpoint must end with a rewind before the turn ends.
        if (this.checkpoint.remindersThisTurn >= REWIND_REMINDER_CAP) {
          const message = checkpointLeftOpen(open.goal)
          this.emit({ type: 'notice', level: 'warning', message })
          return { status: 'checkpoint_left_open' }
        }
        this.checkpoint.remindersThisTurn += 1
        this.note(REWIND_REQUIRED_TYPE, rewindRequiredWarning(this.checkpoint.remindersThisTurn))
        continue
      }
      await this.runCalls(calls, signal)
      if (signal.aborted) return { status: 'stopped' }
      this.endStep()
    }
  }

  /** Between steps: apply a requested rewind, or remind the model of a checkpoint it just took. */
  private endStep(): void {
    const state = this.checkpoint
    if (state.pending !== null) {
      const applied = applyRewind(this.options.session, state, this.now(), (line) =>
        this.emit({ type: 'notice', level: 'warning', message: line })
      )
      // Files read during the exploration are no longer in the model's context.
      this.rehydrateFileState()
      this.emit({ type: 'notice', level: 'info', message: rewindNotice(applied.completed.report) })
    } else if (state.active !== null && state.active.entryUuid === state.batchResultUuid) {
      // After the checkpoint entry, so the rewind's cut removes it with the exploration.
      this.note(REMINDER_TYPE, checkpointActiveReminder(state.active.goal))
    }
    state.batchResultUuid = null
  }

  private scriptPosition(): ScriptPosition {
    const path = this.tree.activePath()
    for (let i = path.length - 1; i >= 0; i--) {
      const r = path[i]
      if (r !== undefined && r.type === 'user' && isPrompt(r)) {
        return { prompt: promptText(r), answered: this.answersUnder(r.uuid) }
      }
    }
    return { prompt: null, answered: 0 }
  }

  /**
   * Assistant messages below a prompt, on every branch. Off the active branch there are only the
   * explorations an agent rewind pruned: they were said, so a script goes on after them.
   */
  private answersUnder(uuid: string): number {
    let count = 0
    const queue = [...this.tree.children(uuid)]
    for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
      if (node.type === 'assistant') count += 1
      if (node.type === 'user' && isPrompt(node)) continue
      queue.push(...this.tree.children(node.uuid))
    }
    return count
  }

  /**
   * Before a request: when the context would pass the threshold, compacts the branch first. A
   * compaction that fails is a warning and the request goes as it is (the API's "too long", if it
   * comes, compacts once more); only a stop ends the turn.
   */
  private async compactIfOver(signal: AbortSignal): Promise<'stopped' | 'done'> {
    const usage = this.contextUsage()
    if (!overThreshold(usage.tokens, this.compaction)) return 'done'
    const share = Math.round((100 * usage.tokens) / usage.window)
    this.emit({
      type: 'notice',
      level: 'info',
      message: `The context holds ${usage.tokens} of ${usage.window} tokens (${share}%): compacting the earlier conversation first.`
    })
    const result = await this.compactNow('auto', signal)
    return result === 'stopped' ? 'stopped' : 'done'
  }

  /** Appends a compaction of the branch now; says how it went (a failure also as a notice). */
  private async compactNow(
    trigger: 'auto' | 'overflow',
    signal: AbortSignal
  ): Promise<'compacted' | 'nothing' | 'failed' | 'stopped'> {
    try {
      const record = await this.withSummaryContext(signal, (ctx) => compactBranch(ctx, trigger))
      if (record === null) {
        this.emit({
          type: 'notice',
          level: 'warning',
          message: 'The context is over the threshold, but there is nothing older left to compact.'
        })
        return 'nothing'
      }
      // The read-before-edit table stays: the branch is the same, and a file changed since it was
      // read is refused anyway.
      const usage = this.contextUsage()
      this.emit({
        type: 'notice',
        level: 'info',
        message: `Compacted the conversation: about ${record.tokensBefore} → ${usage.tokens} tokens.`
      })
      this.emit({ type: 'context_usage', usage })
      return 'compacted'
    } catch (error) {
      if (signal.aborted) return 'stopped'
      const message = error instanceof Error ? error.message : String(error)
      this.emit({
        type: 'notice',
        level: 'warning',
        message: `Could not compact the conversation: ${message}`
      })
      return 'failed'
    }
  }

  /**
   * One model call; a request the API refuses as longer than the window is compacted and sent
   * once more. A failure that stays is reported (one notice) and ends the turn.
   */
  private async callModelCompactingOnOverflow(
    signal: AbortSignal
  ): Promise<{ kind: 'reply'; reply: ModelReply } | { kind: 'outcome'; outcome: TurnOutcome }> {
    let step = await this.callModel(signal)
    if (step.kind === 'failure' && step.error.modelCode === 'prompt_too_long') {
      const compacted = await this.compactNow('overflow', signal)
      if (compacted === 'stopped') return { kind: 'outcome', outcome: { status: 'stopped' } }
      if (compacted === 'compacted') step = await this.callModel(signal)
    }
    if (step.kind !== 'failure') return step
    this.emit({ type: 'notice', level: 'error', message: step.error.message })
    return {
      kind: 'outcome',
      outcome: { status: 'failed', code: step.error.modelCode, message: step.error.message }
    }
  }

  private async callModel(
    signal: AbortSignal
  ): Promise<
    | { kind: 'reply'; reply: ModelReply }
    | { kind: 'outcome'; outcome: TurnOutcome }
    | { kind: 'failure'; error: ModelCallError }
  > {
    const id = uuidv7()
    const request = {
      system: this.systemPrompt(),
      tools: this.definitions,
      messages: this.messages.build(this.tree.activePath()),
      script: this.scriptPosition()
    }
    this.emit({ type: 'message_start', id, role: 'assistant' })
    let reply: ModelReply
    try {
      reply = await this.options.model.complete(request, {
        signal,
        onDelta: (index, blockType, text) =>
          this.emit({ type: 'block_delta', messageId: id, index, blockType, text })
      })
    } catch (error) {
      const failure =
        error instanceof ModelCallError ? error : new ModelCallError('api', String(error))
      if (failure.modelCode === 'aborted' || signal.aborted) {
        // Keep the text the user already saw; tool calls cut mid-stream are dropped.
        const text = failure.partialText.filter((t) => t !== '')
        if (text.length > 0)
          this.append(
            { role: 'assistant', content: text.map((t) => ({ type: 'text', text: t })) },
            { uuid: id }
          )
        return { kind: 'outcome', outcome: { status: 'stopped' } }
      }
      return { kind: 'failure', error: failure }
    }
    this.append(
      {
        role: 'assistant',
        content: reply.content,
        model: reply.model,
        stop_reason: reply.stopReason,
        ...(reply.usage ? { usage: reply.usage } : {})
      },
      { uuid: id }
    )
    this.emit({ type: 'context_usage', usage: this.contextUsage() })
    return { kind: 'reply', reply }
  }

  /**
   * Runs a step's tool calls one after another and appends their results as one user message.
   * After a stop, every call not yet answered gets an "interrupted" result, so the session never
   * holds a tool_use without its tool_result.
   */
  private async runCalls(calls: ToolUseBlock[], signal: AbortSignal): Promise<void> {
    const resultsUuid = uuidv7()
    this.checkpoint.batchResultUuid = resultsUuid
    const results: ContentBlock[] = []
    const details: Record<string, unknown> = {}
    for (const call of calls) {
      // Keys a tool met (a .env read, `env`, /proc) are masked before the log, the stream and
      // the model get the result: once logged, a key stays in the session for good.
      const output = maskSecretsIn(
        signal.aborted
          ? { content: INTERRUPTED_RESULT, isError: true }
          : await this.runCall(call, signal)
      )
      results.push({
        type: 'tool_result',
        tool_use_id: call.id,
        content: output.content,
        ...(output.isError ? { is_error: true } : {})
      })
      if (output.details !== undefined) details[call.id] = output.details
      this.emit({
        type: 'tool_end',
        toolUseId: call.id,
        isError: output.isError,
        text: output.content
      })
    }
    this.append(
      { role: 'user', content: results },
      { uuid: resultsUuid, ...(Object.keys(details).length > 0 ? { toolDetails: details } : {}) }
    )
  }

  private async runCall(call: ToolUseBlock, signal: AbortSignal): Promise<ToolOutput> {
    this.emit({ type: 'tool_start', toolUseId: call.id, name: call.name, input: call.input })
    const tool = this.toolsByName.get(call.name)
    if (tool === undefined) {
      return {
        content: `Unknown tool: ${call.name}. Available tools: ${this.toolNames.join(', ')}.`,
        isError: true
      }
    }
    const parsed = tool.inputSchema.safeParse(call.input)
    if (needsPermission(this.options.permissionMode, tool.permission) && parsed.success) {
      const summary = tool.describeCall(parsed.data, this.options.cwd)
      const detail = tool.approvalDetail?.(parsed.data) ?? null
      // What cannot be shown whole cannot be approved: refused without asking.
      if (detail !== null && detail.text.length > MAX_PERMISSION_DETAIL_CHARS) {
        return {
          content: `${summary} was not run: its ${detail.label.toLowerCase()} is ${detail.text.length} characters, more than the ${MAX_PERMISSION_DETAIL_CHARS} a permission prompt shows, so the user could not be asked.`,
          isError: true
        }
      }
      const allowed = await untilAborted(
        this.options.askPermission({
          requestId: uuidv7(),
          tool: call.name,
          summary,
          detail
        }),
        signal
      )
      if (allowed === 'aborted') return { content: INTERRUPTED_RESULT, isError: true }
      if (!allowed) return { content: `The user denied permission for ${summary}.`, isError: true }
    }
    // The call runs from here, not from tool_start: a permission it waited on is no running
    // time. The first (empty) view tells the page when it began.
    const startedAt = this.now().toISOString()
    this.emit({ type: 'tool_output', toolUseId: call.id, startedAt, text: '' })
    const output = watchOutput((text) =>
      this.emit({ type: 'tool_output', toolUseId: call.id, startedAt, text })
    )
    const ctx: ToolContext = {
      cwd: this.options.cwd,
      fileState: this.fileState,
      guard: this.options.guard,
      allowedOutsideRoots: this.options.allowedOutsideRoots ?? [],
      signal,
      onOutput: output.append
    }
    try {
      return await runTool(tool, call.input, ctx)
    } finally {
      output.close()
    }
  }
}

/**
 * After a turn that failed or stopped: what it wrote is made durable if the disk lets it (a
 * failure here was already reported, or is reported by the next append).
 */
function syncQuietly(session: SessionStore): void {
  try {
    session.sync()
  } catch {
    // See above.
  }
}

/** Resolves with the promise's value, or 'aborted' as soon as the signal fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | 'aborted'> {
  if (signal.aborted) return Promise.resolve('aborted')
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve('aborted')
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    )
  })
}
