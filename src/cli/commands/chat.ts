// `rewind-studio chat`: the agent in the terminal. Prompts are read line by line from stdin (a
// TTY or a pipe); /rewind, /undo, /redo and /exit steer the session the way the desktop app does,
// over the same WorkspaceSession.
import { createInterface, type Interface } from 'node:readline'
import type { RewindMode } from '../../shared/messages'
import { RewindMode as RewindModeSchema } from '../../shared/messages'
import type { AgentEvent, PermissionRequest, RewindResult } from '../../shared/views'
import { openSessionStore, demoWorkspace } from '../../core/studio/launch'
import { parseLaunchArgs, UsageError } from '../../core/studio/launch-options'
import { ModelSetup } from '../../core/studio/model-setup'
import { memorySecrets } from '../../core/studio/secret-store'
import { WorkspaceSession } from '../../core/studio/workspace-session'
import type { SessionStore } from '../../core/session/store'
import { indexTurns } from '../../core/studio/graph-view'
import { actionLabel } from '../../core/studio/timeline-view'
import { appRoot, failWith, wantsHelp } from '../cli-support'
import { escapeControlCharsOneLine } from '../../shared/control-chars'
import { maskSecrets } from '../../shared/mask-secrets'
import { type ChatSession, forkCommand, labelCommand, treeCommand } from '../chat-nodes'
import { formatPermissionDetail, formatToolResult, restoreLines, say } from '../format'

const usage = `Usage: rewind-studio chat [--cwd DIR] [--model M] [--permission-mode MODE]
                          [--continue | --resume ID] [--setting key=value ...]

Reads prompts line by line from standard input. Commands:
  /rewind                 list the checkpoints of the current branch
  /rewind N [MODE]        go back to before checkpoint N; MODE: both (default), conversation, code
  /undo                   undo the last rewind, branch switch or continue; again to go back further
  /redo                   do again what /undo undid
  /tree [all]             the tree of turns with their numbers and labels; then pick one to
                          continue from (its files come back too; Enter stays)
  /fork [N|ID] [--restore] go on in a new session holding the path to turn N (default: here);
                          --restore brings that turn's files back too
  /label [N|ID] TEXT      label turn N (default: the current one); /label [N|ID] --clear
  /exit                   leave (the session is saved as you go; --continue resumes it)
  Ctrl-C                  stop the running turn; with no turn running, leave as /exit does
--model M naming an Anthropic model needs ANTHROPIC_API_KEY; without --model and without a key,
the built-in demo script answers.`

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
      if (!process.stdin.isTTY) process.stdout.write(`${prompt}${queued}\n`)
      return Promise.resolve(queued)
    }
    if (this.ended) return Promise.resolve(null)
    return new Promise((resolve) => {
      this.waiting = (line) => {
        if (line !== null && !process.stdin.isTTY) process.stdout.write(`${prompt}${line}\n`)
        resolve(line)
      }
    })
  }
}

class TerminalChat implements ChatSession {
  private readonly toolNames = new Map<string, string>()
  private current: WorkspaceSession | null = null

  constructor(
    private readonly input: LineReader,
    readonly home: string,
    private readonly open: (store: SessionStore) => Promise<WorkspaceSession>
  ) {}

  get work(): WorkspaceSession {
    if (this.current === null) throw new Error('The chat has no session open')
    return this.current
  }

  async start(store: SessionStore): Promise<void> {
    this.current = await this.open(store)
  }

  async switchTo(store: SessionStore): Promise<void> {
    await this.current?.close()
    this.current = null
    await this.start(store)
  }

  async close(): Promise<void> {
    await this.current?.close()
    this.current = null
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
        break
    }
  }

  /**
   * Ctrl-C (SIGINT from a terminal or a signal to the process): stops the running turn, which
   * leaves every tool call answered in the session, and goes back to the prompt; when no turn
   * runs, leaves as /exit does, so the session is closed properly either way.
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

  async rewind(args: string[]): Promise<string | null> {
    const [indexText, modeText = 'both'] = args
    const checkpoints = this.work.store.tree().checkpoints()
    const index = Number(indexText)
    const checkpoint = checkpoints[index - 1]
    if (!Number.isInteger(index) || checkpoint === undefined) {
      say(`✘ No checkpoint ${indexText}: choose 1 to ${checkpoints.length} (see /rewind).`)
      return null
    }
    const mode = RewindModeSchema.safeParse(modeText)
    if (!mode.success) {
      say(`✘ Unknown mode "${modeText}": use both, conversation or code.`)
      return null
    }
    const result = await this.work.rewind(checkpoint.uuid, mode.data as RewindMode)
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
    if (result.prefill !== null) {
      say(`Original prompt: ${result.prefill} (put back in the input: edit it and send)`)
    }
    return result.prefill
  }

  /** /undo or /redo: one step along the timeline, named as the timeline names the action. */
  async step(undo: boolean): Promise<void> {
    const timeline = await this.work.engine.timeline()
    const action = undo ? timeline.undoable : timeline.redoable
    const result = undo ? await this.work.undo() : await this.work.redo()
    this.printRestore(result)
    const tree = this.work.store.tree()
    const label = action === null ? 'the action' : actionLabel(tree, indexTurns(tree), action)
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
      const [command, ...words] = text.split(/\s+/)
      try {
        if (text === '/rewind') this.listCheckpoints()
        else if (text.startsWith('/rewind '))
          prefill = await this.rewind(text.split(/\s+/).slice(1))
        else if (text === '/undo' || text === '/redo') await this.step(text === '/undo')
        else if (command === '/tree') await treeCommand(this, words)
        else if (command === '/fork') await forkCommand(this, words)
        else if (command === '/label') labelCommand(this, words)
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
    const settings = models.settings()
    // Before the session: a model that cannot be set up creates no empty session.
    const model = await models.client()
    const terminal: TerminalChat = new TerminalChat(input, options.home, (store) =>
      WorkspaceSession.open({
        home: options.home,
        store,
        model,
        permissionMode: settings.permissionMode,
        checkpointTools: settings.checkpointEnabled,
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
