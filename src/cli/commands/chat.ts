// `rewind-studio chat`: the agent in the terminal. Prompts are read line by line from stdin (a
// TTY or a pipe); /rewind, /undo, /redo, the summaries (/summarize-from, /summarize-up-to,
// /compact) and /exit steer the session the way the desktop app does, over the same
// WorkspaceSession.
import { createInterface, type Interface } from 'node:readline'
import type { RewindMode } from '../../shared/messages'
import { RewindMode as RewindModeSchema } from '../../shared/messages'
import type {
  AgentEvent,
  LeaveChoice,
  PermissionRequest,
  RewindResult,
  SummaryOnLeave
} from '../../shared/views'
import { openSessionStore, demoWorkspace } from '../../core/studio/open-session-store'
import { parseLaunchArgs } from '../../core/studio/launch-options'
import { UsageError } from '../../core/studio/usage-error'
import { ModelSetup } from '../../core/studio/model-setup'
import { memorySecrets } from '../../core/studio/secret-store'
import { WorkspaceSession } from '../../core/workspace/workspace-session'
import type { SessionStore } from '../../core/session/store'
import type { SessionTree } from '../../core/session/tree'
import type { TimelineAction } from '../../core/rewind/timeline'
import { appRoot } from '../cli-support'
import { failWith, wantsHelp } from '../command-failure'
import { escapeControlCharsOneLine } from '../../shared/control-chars'
import { maskSecrets } from '../../shared/mask-secrets'
import type { ChatSession } from '../chat-nodes'
import { formatPermissionDetail, formatToolResult, restoreLines, say } from '../format'
import { groupedNumber } from '../../shared/grouped-number'

const usage = `Usage: rewind-studio chat [--cwd DIR] [--model M] [--permission-mode MODE]
                          [--continue | --resume ID] [--setting key=value ...]

Reads prompts line by line from standard input. Commands:
  /rewind                 list the checkpoints of the current branch
  /rewind N [MODE] [--summary [TEXT] | --no-summary]
                          go back to before checkpoint N; MODE: both (default), conversation, code;
                          --summary: summarize the branch left (TEXT: your instructions for it)
  /undo                   undo the last rewind, branch switch or continue; again to go back further
  /redo                   do again what /undo undid
  /summarize-from N [TEXT]   checkpoint N and what follows become one summary; its prompt comes back
  /summarize-up-to N [TEXT]  what comes before checkpoint N becomes one summary; the rest stays
  /compact [TEXT]         summarize the older part of the conversation now, keep the recent turns
  /context                how full the model's context is
  /tree [all]             the tree of turns with their numbers and labels; then pick one to
                          continue from (its files come back too; Enter stays)
  /fork [N|ID] [--restore] go on in a new session holding the path to turn N (default: here);
                          --restore brings that turn's files back too
  /label [N|ID] TEXT      label turn N (default: the current one); /label [N|ID] --clear
  /exit                   leave (the session is saved as you go; --continue resumes it)
  Ctrl-C                  stop the running turn or summary; with none running, leave as /exit does
Leaving a branch with /rewind or /tree follows the setting summary.onLeave: ask (asks in a terminal; no
summary when reading a pipe), none or summarize. Compaction: compaction.threshold (default 0.8)
of compaction.contextWindow (default 200000 tokens).
--model M naming an Anthropic model needs ANTHROPIC_API_KEY; without --model and without a key,
the built-in demo script answers.`

/**
 * A piped line shown after its prompt, as a terminal would have shown it typed: its control
 * characters escaped (a prompts file someone else wrote must not retitle the terminal or write
 * its clipboard, OSC 52) and keys masked, as everything else the chat prints.
 */
function echo(prompt: string, line: string): void {
  say(`${prompt}${maskSecrets(line)}`)
}

/** Lines from stdin, one at a time, whether a person types them or a pipe delivers them. */
class LineReader {
  private readonly queue: string[] = []
  private waiting: ((line: string | null) => void) | null = null
  private ended = false

  constructor(readonly rl: Interface) {
    rl.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting
        this.waiting = null
        resolve(line)
      } else this.queue.push(line)
    })
    rl.on('close', () => {
      this.ended = true
      this.waiting?.(null)
      this.waiting = null
    })
  }

  next(prompt: string): Promise<string | null> {
    if (process.stdin.isTTY) this.rl.setPrompt(prompt)
    if (process.stdin.isTTY) this.rl.prompt()
    const queued = this.queue.shift()
    if (queued !== undefined) {
      if (!process.stdin.isTTY) echo(prompt, queued)
      return Promise.resolve(queued)
    }
    if (this.ended) return Promise.resolve(null)
    return new Promise((resolve) => {
      this.waiting = (line) => {
        if (line !== null && !process.stdin.isTTY) echo(prompt, line)
        resolve(line)
      }
    })
  }
}

/**
 * The commands on nodes (/tree, /fork, /label) and the views they draw, loaded when one is typed:
 * a chat that never uses them (a prompt, a /compact) does not compile their modules at its start
 * (bench/summarize-process.ts).
 */
const nodeCommands = () => import('../chat-nodes')

/** An action as the timeline names it, for /undo and /redo (its views loaded then, as above). */
async function actionName(tree: SessionTree, action: TimelineAction): Promise<string> {
  const [{ actionLabel }, { indexTurns }] = await Promise.all([
    import('../../core/views/timeline-view'),
    import('../../core/views/session-graph')
  ])
  return actionLabel(tree, indexTurns(tree), action)
}

class TerminalChat implements ChatSession {
  private readonly toolNames = new Map<string, string>()
  private current: WorkspaceSession | null = null
  /** The sessions opened here whose retention runs beside them (at most one a day claims it). */
  private readonly pruning: WorkspaceSession[] = []

  constructor(
    private readonly input: LineReader,
    private readonly onLeave: SummaryOnLeave,
    readonly home: string,
    private readonly open: (store: SessionStore) => Promise<WorkspaceSession>
  ) {}

  get work(): WorkspaceSession {
    if (this.current === null) throw new Error('The chat has no session open')
    return this.current
  }

  async start(store: SessionStore): Promise<void> {
    this.current = await this.open(store)
    if (this.current.retentionGoing) this.pruning.push(this.current)
  }

  async switchTo(store: SessionStore): Promise<void> {
    await this.current?.close()
    this.current = null
    await this.start(store)
  }

  async close(): Promise<void> {
    await this.current?.close()
    this.current = null
    // The process stays until the worker ends; a user who leaves then is told why it waits.
    if (this.pruning.some((work) => work.retentionGoing)) {
      say(
        "! Finishing today's backup retention before leaving (Ctrl-C stops it; it is safe to stop)."
      )
    }
  }

  ask(question: string): Promise<string | null> {
    return this.input.next(question)
  }

  onEvent = (event: AgentEvent): void => {
    switch (event.type) {
      case 'message_end':
        if (event.role === 'assistant') {
          for (const block of event.content) {
            if (block.type === 'text' && typeof block.text === 'string' && block.text.trim()) {
              say(`● ${maskSecrets(block.text.trim())}`)
            }
          }
        }
        break
      case 'tool_start':
        this.toolNames.set(event.toolUseId, event.name)
        say(`⏺ ${maskSecrets(this.work.agent.describeToolCall(event.name, event.input))}`)
        break
      case 'tool_end':
        say(
          formatToolResult(this.toolNames.get(event.toolUseId) ?? 'tool', {
            ...event,
            text: maskSecrets(event.text)
          })
        )
        break
      case 'notice':
        say(`${event.level === 'error' ? '✘' : '!'} ${event.message}`)
        break
      case 'status':
      case 'message_start':
      case 'block_delta':
      case 'tool_output':
      case 'summary_progress':
      case 'restore_progress':
      case 'context_usage':
        break
    }
  }

  /**
   * Ctrl-C (SIGINT from a terminal or a signal to the process): stops the running turn (or
   * summary), which leaves every tool call answered in the session, and goes back to the prompt;
   * when none runs, leaves as /exit does, so the session is closed properly either way.
   */
  interrupt = (): void => {
    if (this.work.agent.running) {
      say('⏹ Interrupted: stopping the turn.')
      void this.work.agent.stop()
    } else this.input.rl.close()
  }

  /**
   * Asks before a tool runs. The whole command (or content) is printed first, every line, never
   * masked, with control characters escaped: what the user reads is exactly what would run.
   */
  askPermission = async (request: PermissionRequest): Promise<boolean> => {
    if (request.detail !== null) say(formatPermissionDetail(request.detail))
    const question = `Allow ${escapeControlCharsOneLine(request.summary)}? [y/n] `
    for (;;) {
      const answer = await this.input.next(question)
      if (answer === null) return false
      if (/^y(es)?$/i.test(answer.trim())) return true
      if (/^no?$/i.test(answer.trim())) return false
    }
  }

  listCheckpoints(): void {
    const checkpoints = this.work.store.tree().checkpoints()
    if (checkpoints.length === 0) {
      say('No checkpoints yet: each prompt you send opens one.')
      return
    }
    for (const c of checkpoints) {
      const files = `changed ${c.filesChanged} file${c.filesChanged === 1 ? '' : 's'}`
      say(`${c.index}. ${c.prompt}  (${files})`)
    }
    say(
      'Type /rewind <N> [both|conversation|code] to go back to before that prompt (default: both)'
    )
  }

  printRestore(result: RewindResult): void {
    for (const line of restoreLines(result)) say(line)
  }

  /** The checkpoint numbered `indexText` on the current branch, or null (said why). */
  private checkpointNamed(indexText: string | undefined): { index: number; uuid: string } | null {
    const checkpoints = this.work.store.tree().checkpoints()
    const index = Number(indexText)
    const checkpoint = checkpoints[index - 1]
    if (!Number.isInteger(index) || checkpoint === undefined) {
      say(`✘ No checkpoint ${indexText ?? ''}: choose 1 to ${checkpoints.length} (see /rewind).`)
      return null
    }
    return { index, uuid: checkpoint.uuid }
  }

  async rewind(args: string[]): Promise<string | null> {
    const at = args.findIndex((a) => a === '--summary' || a === '--no-summary')
    const [indexText, modeText = 'both', ...extra] = at === -1 ? args : args.slice(0, at)
    if (extra.length > 0) {
      say(`✘ Unexpected "${extra.join(' ')}": /rewind N [MODE] [--summary [TEXT] | --no-summary]`)
      return null
    }
    const checkpoint = this.checkpointNamed(indexText)
    if (checkpoint === null) return null
    const { index } = checkpoint
    const mode = RewindModeSchema.safeParse(modeText)
    if (!mode.success) {
      say(`✘ Unknown mode "${modeText}": use both, conversation or code.`)
      return null
    }
    const asked: LeaveChoice | null =
      at === -1
        ? null
        : args[at] === '--no-summary'
          ? { mode: 'none' }
          : { mode: 'summarize', instructions: args.slice(at + 1).join(' ') }
    const leave =
      mode.data === 'code' ? { mode: 'none' as const } : (asked ?? (await this.leaveChoice()))
    if (leave.mode === 'summarize') say('Summarizing the branch you leave… (Ctrl-C stops)')
    const result = await this.work.rewind(checkpoint.uuid, mode.data as RewindMode, leave)
    this.printRestore(result)
    if (mode.data === 'code') {
      say(`Files are back as they were before checkpoint ${index}; the conversation stays.`)
      return null
    }
    const kept = this.work.store
      .tree()
      .activePath()
      .filter((r) => r.type === 'user' || r.type === 'assistant').length
    say(`Back to before checkpoint ${index}; ${kept} messages left on this branch.`)
    if (result.summaryUuid) this.printSummary('Summary of the branch left', result.summaryUuid)
    if (result.prefill !== null) {
      say(`Original prompt: ${result.prefill} (put back in the input: edit it and send)`)
    }
    return result.prefill
  }

  /** What to do with the branch a move leaves: the setting; asked in a terminal for "ask". */
  async leaveChoice(): Promise<LeaveChoice> {
    if (this.onLeave !== 'ask') return { mode: this.onLeave }
    if (!process.stdin.isTTY) return { mode: 'none' }
    for (;;) {
      const answer = await this.input.next(
        'Summarize the branch you leave? [n]o / [s]ummarize / [i]nstructions first: '
      )
      const choice = answer?.trim().toLowerCase() ?? 'n'
      if (choice === 'n' || choice === 'no' || choice === '') return { mode: 'none' }
      if (choice === 's' || choice === 'summarize') return { mode: 'summarize' }
      if (choice === 'i' || choice === 'instructions') {
        const instructions = (await this.input.next('Instructions for the summary: ')) ?? ''
        return { mode: 'summarize', instructions }
      }
    }
  }

  async summarizeFrom(args: string[]): Promise<string | null> {
    const checkpoint = this.checkpointNamed(args[0])
    if (checkpoint === null) return null
    say('Summarizing… (Ctrl-C stops)')
    const { summaryUuid, prefill } = await this.work.summarizeFromHere(
      checkpoint.uuid,
      args.slice(1).join(' ')
    )
    say(
      `Checkpoint ${checkpoint.index} and what followed are one summary now; the conversation goes on from before it.`
    )
    this.printSummary('Summary', summaryUuid)
    say(`Original prompt: ${prefill} (put back in the input: edit it and send)`)
    return prefill
  }

  async summarizeUpTo(args: string[]): Promise<void> {
    const checkpoint = this.checkpointNamed(args[0])
    if (checkpoint === null) return
    say('Summarizing… (Ctrl-C stops)')
    const { summaryUuid } = await this.work.summarizeUpToHere(
      checkpoint.uuid,
      args.slice(1).join(' ')
    )
    say(
      `What came before checkpoint ${checkpoint.index} is one summary now; from checkpoint ${checkpoint.index} on, the turns stay as they were.`
    )
    this.printSummary('Summary', summaryUuid)
  }

  async compact(args: string[]): Promise<void> {
    say('Compacting… (Ctrl-C stops)')
    const { summaryUuid } = await this.work.compact(args.join(' '))
    this.printSummary('Compacted; summary', summaryUuid)
    this.printContext()
  }

  printContext(): void {
    const { tokens, window, estimated } = this.work.agent.contextUsage()
    const share = Math.round((100 * tokens) / window)
    say(
      `Context: ${groupedNumber(tokens)} of ${groupedNumber(window)} tokens (${share}%)${estimated ? ', estimated' : ''}.`
    )
  }

  /** A summary record's text, each line behind a bar; keys masked. */
  printSummary(title: string, uuid: string): void {
    const record = this.work.store.tree().get(uuid)
    const text =
      record?.type === 'branch_summary' || record?.type === 'compaction' ? record.summary : ''
    say(`${title}:`)
    for (const line of maskSecrets(text).split('\n')) say(`  │ ${line}`)
  }

  /** /undo or /redo: one step along the timeline, named as the timeline names the action. */
  async step(undo: boolean): Promise<void> {
    const timeline = await this.work.engine.timeline()
    const action = undo ? timeline.undoable : timeline.redoable
    const result = undo ? await this.work.undo() : await this.work.redo()
    this.printRestore(result)
    const tree = this.work.store.tree()
    const label = action === null ? 'the action' : await actionName(tree, action)
    say(
      undo
        ? `Undone: ${label}. Files and conversation are back as they were before it.`
        : `Redone: ${label}.`
    )
  }

  async run(): Promise<void> {
    let prefill: string | null = null
    for (;;) {
      if (prefill !== null && process.stdin.isTTY) this.input.rl.write(prefill)
      prefill = null
      const line = await this.input.next('❯ ')
      if (line === null) return
      const text = line.trim()
      if (text === '') continue
      if (text === '/exit' || text === '/quit') return
      const [command = '', ...args] = text.split(/\s+/)
      try {
        if (text === '/rewind') this.listCheckpoints()
        else if (command === '/rewind') prefill = await this.rewind(args)
        else if (command === '/summarize-from') prefill = await this.summarizeFrom(args)
        else if (command === '/summarize-up-to') await this.summarizeUpTo(args)
        else if (command === '/compact') await this.compact(args)
        else if (text === '/context') this.printContext()
        else if (text === '/undo' || text === '/redo') await this.step(text === '/undo')
        else if (command === '/tree') await (await nodeCommands()).treeCommand(this, args)
        else if (command === '/fork') await (await nodeCommands()).forkCommand(this, args)
        else if (command === '/label') (await nodeCommands()).labelCommand(this, args)
        else if (text.startsWith('/')) say(`✘ Unknown command ${text}. ${usage.split('\n')[3]}`)
        else await this.work.agent.send(text)
      } catch (error) {
        say(`✘ ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }
}

export async function run(args: string[]): Promise<number> {
  if (wantsHelp(args)) {
    say(usage)
    return 0
  }
  let chat: TerminalChat | null = null
  let interrupt: (() => void) | null = null
  const rl = createInterface({ input: process.stdin, terminal: process.stdin.isTTY === true })
  // Listening from the start: lines a pipe delivers while the session opens are kept.
  const input = new LineReader(rl)
  try {
    const options = parseLaunchArgs(args, { kind: 'new' })
    if (options.port !== undefined) throw new UsageError('chat takes no --port')
    const cwd = options.demo ? demoWorkspace(options.home, appRoot) : (options.cwd as string)
    const models = new ModelSetup({
      ...options,
      appRoot,
      secrets: memorySecrets(),
      demoFallback: options.model === undefined
    })
    const settings = models.runSettings()
    // Before the session: a model that cannot be set up creates no empty session.
    const model = await models.client()
    const terminal: TerminalChat = new TerminalChat(
      input,
      settings.summaryOnLeave,
      options.home,
      (store) =>
        WorkspaceSession.open({
          home: options.home,
          store,
          model,
          permissionMode: settings.permissionMode,
          checkpointTools: settings.checkpointEnabled,
          compaction: models.compaction(),
          ignoredFiles: models.ignoredFiles(),
          bashSandbox: settings.bashSandbox,
          askPermission: terminal.askPermission,
          onEvent: terminal.onEvent
        })
    )
    chat = terminal
    const store = openSessionStore(options.home, cwd, options.session)
    await chat.start(store)
    interrupt = chat.interrupt
    process.on('SIGINT', interrupt)
    rl.on('SIGINT', interrupt)
    say(`Session ${store.sessionId} in ${cwd} (${settings.model}, ${settings.permissionMode})`)
    for (const notice of [...models.notices(), ...chat.work.notices]) say(`! ${notice}`)
    await chat.run()
    return 0
  } catch (error) {
    return failWith(error)
  } finally {
    if (interrupt !== null) process.off('SIGINT', interrupt)
    rl.close()
    await chat?.close()
  }
}
