// The summaries (the studio's summaries section): a prompt and what follows it made one summary,
// what comes before a prompt made one, the whole conversation compacted. No file changes. A
// summary runs alone like a rewind (refused as busy while the agent works); the agent shows it as
// running, so Stop (agent:stop) cancels it.
import type { Handlers } from '../../shared/contract'
import { applied } from './rewind-handlers'
import type { StudioContext } from './studio-context'

type SummaryChannel = 'summary:fromHere' | 'summary:upToHere' | 'summary:compact'

export function summaryHandlers(ctx: StudioContext): Pick<Handlers, SummaryChannel> {
  const summarized = <T>(run: () => Promise<T>): Promise<T> => {
    ctx.requireWritable()
    return applied(ctx, 'a summary', run)
  }
  return {
    // The prompt and what follows it become one summary.
    'summary:fromHere': ({ nodeId, instructions }) =>
      summarized(() => ctx.work.summarizeFromHere(nodeId, instructions)),
    // What comes before the prompt becomes one summary; the later turns stay verbatim.
    'summary:upToHere': ({ nodeId, instructions }) =>
      summarized(() => ctx.work.summarizeUpToHere(nodeId, instructions)),
    'summary:compact': ({ instructions }) => summarized(() => ctx.work.compact(instructions))
  }
}
