// `--check CMD` run in a run's workspace once the run has ended (`npm test`, say): its exit code
// and the last lines of its output, for the compare table. Bounded like every command: a time
// limit and an output cap, its whole process group killed past either; inside the Bash sandbox
// when the setting bash.sandbox is on, as the run's own commands were; never with the API key
// in its environment (os/child-env.ts).
import { sandboxedBash } from '../os/bash-sandbox'
import { ChildRunError, runChild } from '../os/child-env'
import type { CheckResult } from './run-manifest'

export const CHECK_TIMEOUT_MS = 10 * 60_000
const CHECK_OUTPUT_BYTES = 16 * 1024 * 1024
/** Lines of its output the table keeps. */
export const CHECK_TAIL_LINES = 20

export async function runCheck(
  workspace: string,
  command: string,
  options: { sandbox: boolean; timeoutMs?: number }
): Promise<CheckResult> {
  // Its stderr joins its stdout in order: the tail reads as a terminal would show it.
  const line = `exec 2>&1\n${command}`
  const run = options.sandbox
    ? await sandboxedBash(workspace, line)
    : { file: 'bash', args: ['-c', line], finish: () => Promise.resolve([]) }
  try {
    const result = await runChild(run.file, run.args, {
      cwd: workspace,
      timeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS,
      maxStdoutBytes: CHECK_OUTPUT_BYTES
    })
    return { command, exitCode: result.status, tail: lastLines(result.stdout.toString('utf8')) }
  } catch (error) {
    if (error instanceof ChildRunError) return { command, exitCode: null, tail: error.message }
    throw error
  } finally {
    await run.finish().catch(() => [])
  }
}

function lastLines(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n')
  return lines.slice(-CHECK_TAIL_LINES).join('\n')
}
