// The contract's merge channels over a studio ("Bring into this branch…", core/merge): the
// preview of bringing a node of another branch into the conversation's branch, and its apply
// with the page's choice for every conflict.
import type { Handlers } from '../../shared/contract'
import type { MergeResolution } from '../../shared/merge-views'
import type { MergeChoice, Resolution } from '../merge/merge-apply'
import type { Studio } from './studio'

type MergeChannel = 'merge:preview' | 'merge:apply'

/** A merge as the page names it: a graph node, its files or not, that turn's changes only. */
export interface MergeRequest {
  nodeId: string
  files: boolean
  turn?: boolean | undefined
}

/** Which preview an apply confirms: the same request, from the same leaf. */
export function mergeKey(ask: MergeRequest, leafUuid: string | null): string {
  return JSON.stringify([ask.nodeId, ask.files, ask.turn === true, leafUuid])
}

export function mergeHandlers(studio: Studio): Pick<Handlers, MergeChannel> {
  return {
    'merge:preview': (ask) => studio.previewMerge(ask),
    'merge:apply': ({ conversation, resolutions, ...ask }) =>
      studio.applyMerge(ask, choiceOf(resolutions), conversation ?? null)
  }
}

function choiceOf(resolutions: readonly MergeResolution[]): MergeChoice {
  return {
    resolutions: new Map(
      resolutions.map((r): [string, Resolution] => [
        r.path,
        r.take === 'edited'
          ? { take: 'edited', content: Buffer.from(r.content, 'utf8') }
          : { take: r.take }
      ])
    )
  }
}
