// Bash: runs a command with `bash -c` in the workspace: with the user's rights, or confined to
// the workspace when the setting bash.sandbox is on (core/os/bash-sandbox.ts). The command gets
// its own process group so a timeout or a cancel ends everything it started; whatever it leaves
// running when bash exits is ended too (there is no background shell, and file history must see
// every change before it reports). File history snapshots around it and says what it changed.
import { StringDecoder } from 'node:string_decoder'
import * as z from 'zod'
import { escapeControlCharsOneLine } from '../../../shared/control-chars'
import { bashSandboxUnavailable, sandboxedBash } from '../../os/bash-sandbox'
import { runCommand } from '../../os/command-runner'
import { COMMAND_MARK, type LeftRunning, leftRunning, newCommandMark } from '../../os/left-running'
import { signalGroup } from '../../os/process-group'
import type { CommandChanges } from '../../files/write-guard'
import { ToolError } from './tool'
import type { Tool } from './tool'
import { groupedNumber } from '../../../shared/grouped-number'

const DEFAULT_TIMEOUT_MS = 120_000
const MAX_TIMEOUT_MS = 600_000
/** Output kept for the model; the middle of a longer output is cut. */
export const MAX_OUTPUT_CHARS = 30_000
/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 2_000

const BashInput = z.strictObject({
  command: z.string().min(1).describe('The command to run'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS})`)
})
type BashInput = z.infer<typeof BashInput>

/** Keeps the head and the tail of a stream of text, so memory stays bounded. */
class CappedOutput {
  private head = ''
  private tail = ''
  private dropped = 0

  constructor(private readonly cap: number) {}

  append(text: string): void {
    const headRoom = this.cap / 2 - this.head.length
    if (headRoom > 0) {
      this.head += text.slice(0, headRoom)
      text = text.slice(headRoom)
    }
    this.tail += text
    const excess = this.tail.length - this.cap / 2
    if (excess > 0) {
      this.dropped += excess
      this.tail = this.tail.slice(excess)
    }
  }

  toString(): string {
    if (this.dropped === 0) return this.head + this.tail
    return `${this.head}\n\n... [${this.dropped} characters of output cut] ...\n\n${this.tail}`
  }
}

interface CommandResult {
  output: string
  exitCode: number | null
  /** Why the command was ended before it finished by itself. */
  ended: 'timeout' | 'cancelled' | null
  /** What it started that left its process group and still runs (a setsid daemon). */
  leftRunning: LeftRunning[]
}

/** What runs: `bash -c command`, or that inside the sandbox. */
interface CommandLine {
  file: string
  args: string[]
}

function runBash(
  line: CommandLine,
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal,
  onOutput: (text: string) => void
): Promise<CommandResult> {
  // Cancelled while file history was snapshotting: the command never starts.
  if (signal.aborted) {
    return Promise.resolve({ output: '', exitCode: null, ended: 'cancelled', leftRunning: [] })
  }
  const mark = newCommandMark()
  const output = new CappedOutput(MAX_OUTPUT_CHARS)
  // One decoder per stream: a multi-byte character may be split across chunks.
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') }
  let ended: CommandResult['ended'] = null
  let pid: number | null = null
  let killTimer: NodeJS.Timeout | undefined
  // In the sandbox the group is bwrap's: ending bwrap ends everything inside (--die-with-parent).
  const signalEnded = () => {
    if (pid === null || ended === null) return
    signalGroup(pid, 'SIGTERM')
    const group = pid
    killTimer = setTimeout(() => signalGroup(group, 'SIGKILL'), KILL_GRACE_MS)
  }
  const end = (reason: 'timeout' | 'cancelled') => {
    if (ended !== null) return
    ended = reason
    // Before the command has started, it is signalled as soon as it has.
    signalEnded()
  }
  const timer = setTimeout(() => end('timeout'), timeoutMs)
  const onAbort = () => end('cancelled')
  signal.addEventListener('abort', onAbort, { once: true })
  return runCommand(
    line.file,
    line.args,
    cwd,
    {
      onStart: (started) => {
        pid = started
        signalEnded()
      },
      onOutput: (stream, chunk) => {
        const text = decoders[stream].write(chunk)
        output.append(text)
        onOutput(text)
      }
    },
    { [COMMAND_MARK]: mark }
  )
    .then(({ exitCode }) => {
      for (const decoder of Object.values(decoders)) output.append(decoder.end())
      // The group was ended; what carries the command's mark outside it escaped (left-running.ts).
      const left = pid === null ? [] : leftRunning(mark, pid, pid)
      return { output: output.toString(), exitCode, ended, leftRunning: left }
    })
    .finally(() => {
      clearTimeout(timer)
      clearTimeout(killTimer)
      signal.removeEventListener('abort', onAbort)
    })
}

function describeChanges(changes: CommandChanges): string {
  const groups: [string, string[]][] = [
    ['Created', changes.created],
    ['Modified', changes.modified],
    ['Deleted', changes.deleted]
  ]
  // A path on one line, whatever its name holds: a newline in a name forged a line here.
  const lines = groups
    .filter(([, paths]) => paths.length > 0)
    .map(([label, paths]) => `${label}: ${paths.map(escapeControlCharsOneLine).join(', ')}`)
  for (const { path, reason } of changes.untracked) {
    lines.push(
      `Not tracked (a rewind cannot restore it): ${escapeControlCharsOneLine(path)} (${reason})`
    )
  }
  for (const { folder, files, reason } of changes.notBackedUp) {
    const what =
      files === null ? 'changed' : `${groupedNumber(files)} ignored file${files === 1 ? '' : 's'}`
    lines.push(`Not backed up (a rewind cannot restore them): ${folder}: ${what} (${reason})`)
  }
  for (const warning of changes.warnings) lines.push(`Warning: ${warning}`)
  const before =
    changes.unknownOrigin.length === 0
      ? ''
      : `\n\nChanged before the command, of unknown origin (a process an earlier command left running, or a hand edit), filed under no command: ${changes.unknownOrigin.join(', ')}`
  return (
    before + (lines.length === 0 ? '' : `\n\nFiles changed by the command:\n${lines.join('\n')}`)
  )
}

function describeLeftRunning(processes: readonly LeftRunning[]): string {
  if (processes.length === 0) return ''
  const named = processes.map((p) => `${p.name} (process ${p.pid})`).join(', ')
  return `\n\nStill running, outside the command's process group (setsid, a daemon): ${named}. What changes between commands while it runs is reported at the next command as of unknown origin, filed under no command; a later command's report says when its changes may come from it.`
}

/**
 * The command's first line for the one-line summary, cut at 100 characters, saying how many
 * lines follow: the lines after the first are never out of sight unannounced. A permission
 * prompt shows the whole command too (approvalDetail).
 */
function commandLine(command: string): string {
  const [first = '', ...rest] = command.split('\n')
  const line =
    first.length > 100 ? `${first.slice(0, 100)}…` : `${first}${rest.length > 0 ? ' …' : ''}`
  return rest.length === 0 ? line : `${line} +${rest.length} line${rest.length === 1 ? '' : 's'}`
}

export interface BashOptions {
  /** The setting bash.sandbox: confine commands to the workspace (core/os/bash-sandbox.ts). */
  sandbox: boolean
}

export function createBashTool(options: BashOptions): Tool<BashInput> {
  return {
    name: 'Bash',
    description: [
      'Runs a command with bash in the workspace root and returns its output (stdout and stderr as they came) and exit code.',
      `The command ends after its timeout (default ${DEFAULT_TIMEOUT_MS / 1000} s); processes it starts in the background are ended when it exits.`,
      `Output beyond ${MAX_OUTPUT_CHARS} characters is cut in the middle. stdin is empty.`,
      ...(options.sandbox
        ? [
            'It runs in a sandbox: it may write only inside the workspace (not in any git repository there: git init fails in the root, and a repository it makes further down is disarmed after the command) and /tmp (emptied after each command), and has no network and no unix socket of the host.'
          ]
        : []),
      'Files the command creates, changes or deletes are reported. Prefer Read, Edit, Write, Glob and Grep for files.'
    ].join('\n'),
    inputSchema: BashInput,
    permission: 'execute',
    describeCall: (input) => `Bash(${commandLine(input.command)})`,
    approvalDetail: (input) => ({ label: 'Command', text: input.command }),
    async execute(input, ctx) {
      // Where the sandbox cannot run, nothing runs, before anything is snapshotted.
      if (options.sandbox) refuseWithoutSandbox()
      try {
        await ctx.guard.beforeCommand('Bash')
      } catch (error) {
        throw new ToolError(
          `could not snapshot the workspace before the command: ${error instanceof Error ? error.message : String(error)}; the command was not run`
        )
      }
      const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS
      // afterCommand runs even when the command could not start: beforeCommand expects its pair.
      const line = await commandToRun(options.sandbox, ctx.cwd, input.command).catch(
        (error: Error) => error
      )
      const result =
        line instanceof Error
          ? line
          : await runBash(
              line,
              ctx.cwd,
              timeoutMs,
              ctx.signal,
              ctx.onOutput ?? (() => undefined)
            ).catch((error: Error) => error)
      // Before file history looks: what the sandbox renames is the command's doing.
      const notes =
        line instanceof Error
          ? []
          : await line
              .finish()
              .catch((error: unknown) => [
                `Warning: the sandbox could not check the workspace for git repositories the command made (${error instanceof Error ? error.message : String(error)}).`
              ])
      const changes = await ctx.guard
        .afterCommand('Bash', result instanceof Error ? [] : result.leftRunning)
        .catch(
          (error: unknown) => new Error(error instanceof Error ? error.message : String(error))
        )
      if (result instanceof ToolError) throw result
      if (result instanceof Error) throw new ToolError(`Bash could not start: ${result.message}`)

      const status =
        result.ended === 'timeout'
          ? `Command timed out after ${timeoutMs} ms and was killed.`
          : result.ended === 'cancelled'
            ? 'Command was cancelled and killed.'
            : result.exitCode !== 0
              ? `Exit code ${result.exitCode ?? 'unknown (killed by a signal)'}`
              : ''
      const changeText =
        (changes instanceof Error
          ? `\n\nWarning: file history could not check what the command changed (${changes.message}).`
          : describeChanges(changes)) + describeLeftRunning(result.leftRunning)
      // Trailing newlines carry nothing for the model and would pile up before the notes.
      const output = result.output.replace(/\n+$/, '')
      const body = output === '' ? '(no output)' : output
      const noteText = notes.length === 0 ? '' : `\n\n${notes.join('\n')}`
      return {
        isError: status !== '',
        content: (status === '' ? body : `${status}\n${body}`) + changeText + noteText,
        details: {
          exitCode: result.exitCode,
          ended: result.ended,
          changes: changes instanceof Error ? null : changes
        }
      }
    }
  }
}

/** What runs, and what to do once it ended: `bash -c command`, or that inside the sandbox. */
async function commandToRun(
  sandbox: boolean,
  workspace: string,
  command: string
): Promise<CommandLine & { finish(): Promise<string[]> }> {
  if (!sandbox) return { file: 'bash', args: ['-c', command], finish: () => Promise.resolve([]) }
  try {
    return await sandboxedBash(workspace, command)
  } catch (error) {
    throw new ToolError(
      `The Bash sandbox refused the command: ${error instanceof Error ? error.message : String(error)}. The command was not run.`
    )
  }
}

/** Refuses (nothing runs) where the sandbox cannot run. */
function refuseWithoutSandbox(): void {
  const unavailable = bashSandboxUnavailable()
  if (unavailable !== null) {
    throw new ToolError(
      `The Bash sandbox (setting bash.sandbox) cannot run here: ${unavailable}. The command was not run.\n` +
        "The user can install bubblewrap, or turn bash.sandbox off to run commands with the user's own rights."
    )
  }
}
