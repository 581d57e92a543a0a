// `rewind-studio summarize FILE --from N | --up-to N`: Claude Code's "Summarize from here" and
// "Summarize up to here" without the app, on checkpoint N (the Nth prompt on the active path, as
// /rewind lists them). From here: that prompt and what follows become one summary and the
// conversation goes on from before it (the prompt is printed, to send again). Up to here: what
// comes before it becomes one summary (a compaction record); the turns from it on stay verbatim.
// Records are appended, none rewritten; no file of the workspace is touched.
import { summarizeFromHere } from '../../core/agent/summary/branch-summary'
import { compactUpTo } from '../../core/agent/summary/compaction'
import { type SummaryContext, SummaryError } from '../../core/agent/summary/summarize'
import { checkpointAt } from '../../core/rewind/checkpoint-at'
import { maskSecrets } from '../../shared/mask-secrets'
import { commandModels, runOnSession, startFileCommand } from '../cli-support'
import { say } from '../format'
import { UsageError, optionValue } from '../args'

const USAGE = `Usage: rewind-studio summarize SESSION_FILE (--from N | --up-to N) [--instructions TEXT]
                               [--model M] [--setting key=value ...]

Summarizes part of the session's active branch with the model, around its checkpoint N (the Nth
prompt on the active path, as /rewind lists them):
  --from N     checkpoint N and everything after it become one summary; the conversation goes on
               from before it, and the prompt is printed to send again
  --up-to N    everything before checkpoint N becomes one summary; the later turns stay verbatim
--instructions TEXT tells the model what to focus on. The model: --model, the settings, then
ANTHROPIC_MODEL (an Anthropic model needs ANTHROPIC_API_KEY; without a key and without --model
the built-in demo script answers). Ctrl-C stops the summary; nothing is changed then. Records are
appended to SESSION_FILE, none rewritten; no workspace file is touched.`

interface Options {
  file: string
  from: number | null
  upTo: number | null
  instructions: string | undefined
  model: string | undefined
  settings: string[]
}

function parse(args: string[]): Options {
  const options: Options = {
    file: '',
    from: null,
    upTo: null,
    instructions: undefined,
    model: undefined,
    settings: []
  }
  const files: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    const value = () => optionValue(args, ++i)
    const checkpoint = () => {
      const raw = value()
      const n = Number(raw)
      if (!Number.isInteger(n) || n < 1) {
        throw new UsageError(`${arg} needs a checkpoint number (1, 2, ...), not "${raw}"`)
      }
      return n
    }
    if (arg === '--from') options.from = checkpoint()
    else if (arg === '--up-to') options.upTo = checkpoint()
    else if (arg === '--instructions') options.instructions = value()
    else if (arg === '--model') options.model = value()
    else if (arg === '--setting') options.settings.push(value())
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`)
    else files.push(arg)
  }
  if (files.length !== 1) throw new UsageError('give exactly one SESSION_FILE')
  options.file = files[0] ?? ''
  if ((options.from === null) === (options.upTo === null)) {
    throw new UsageError('give either --from N or --up-to N')
  }
  return options
}

export async function run(args: string[]): Promise<number> {
  const options = startFileCommand('summarize', args, USAGE, parse)
  if (typeof options === 'number') return options
  // The model set up before the session is opened: one that cannot be changes nothing.
  const before = async () => {
    const models = commandModels(options.model, options.settings)
    return { models, model: await models.client() }
  }
  return runOnSession(
    options.file,
    { before },
    async ({ store, signal, stopOnInterrupt }, { models, model }) => {
      const cwd = store.cwd
      const ctx: SummaryContext = {
        store,
        model,
        cwd,
        window: models.compaction().contextWindow,
        // The built-in tools' definitions, loaded only for a branch whose size must be estimated.
        frame: async () =>
          (await import('../../core/agent/summary/request-frame')).builtinRequestFrame(cwd),
        signal
      }
      stopOnInterrupt()
      const n = options.from ?? options.upTo ?? 0
      const promptUuid = checkpointAt(store, n)
      if (options.from !== null) {
        const { record, prefill } = await summarizeFromHere(ctx, promptUuid, options.instructions)
        printSummary(record.summary)
        say(`Checkpoint ${n} and what followed are one summary now (${record.uuid}).`)
        say(`Prompt to send again: ${prefill}`)
        return 0
      }
      const record = await compactUpTo(ctx, promptUuid, options.instructions)
      if (record === null) {
        throw new SummaryError(
          'conflict',
          `what comes before checkpoint ${n} is already a single summary. Nothing was changed.`
        )
      }
      printSummary(record.summary)
      say(`What came before checkpoint ${n} is one summary now (${record.uuid}); the rest stays.`)
      return 0
    }
  )
}

function printSummary(text: string): void {
  for (const line of maskSecrets(text).split('\n')) say(`  │ ${line}`)
}
