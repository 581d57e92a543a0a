// The contract's merge channels over a studio ("Bring into this branch…", core/merge): the
// preview of bringing a node of another branch into the conversation's branch, and its apply
// with the page's choice for every conflict. The apply confirms the preview the page showed: that
// plan is kept (per studio) and used while the request and the leaf are the same, so "Bring in"
// writes what was previewed; any other apply plans again (and a conflict without a choice there
// refuses it).
import type { Handlers } from '../../shared/contract'
import type { MergePreview, MergeResolution } from '../../shared/merge-views'
import { maskSecretsIn } from '../../shared/mask-secrets'
import type { MergeAsk, PreparedMerge } from '../merge/merge'
import type { MergeChoice, Resolution } from '../merge/merge-apply'
import type { StudioContext } from './studio-context'
import type { WorkspaceSession } from '../workspace/workspace-session'

type MergeChannel = 'merge:preview' | 'merge:apply'

/** What a studio lends a merge (mergeAccess): its session at work, and a way to run alone. */
export interface MergeAccess {
  work: WorkspaceSession
  leafUuid: string | null
  /** The last record of a graph node on its branch. */
  endOfNode(nodeId: string): Promise<string>
  /** Runs the apply as the studio's one job (busy otherwise), the graph told after. */
  apply<T>(run: () => Promise<T>): Promise<T>
}

/** A merge as the page names it: a graph node, its files or not, that turn's changes only. */
interface MergeRequest {
  nodeId: string
  files: boolean
  turn?: boolean | undefined
}

export function mergeHandlers(studio: StudioContext): Pick<Handlers, MergeChannel> {
  let previewed: { key: string; prepared: PreparedMerge } | null = null
  const prepare = async (access: MergeAccess, ask: MergeRequest) =>
    access.work.prepareMerge(await mergeAsk(access, ask))
  return {
    'merge:preview': async (ask): Promise<MergePreview> => {
      const access = mergeAccess(studio)
      const prepared = await prepare(access, ask)
      previewed = { key: keyOf(ask, access.leafUuid), prepared }
      return maskSecretsIn(prepared.preview)
    },
    'merge:apply': ({ conversation, resolutions, ...ask }) => {
      const access = mergeAccess(studio)
      return access.apply(async () => {
        const kept = previewed
        previewed = null
        const prepared =
          kept !== null && kept.key === keyOf(ask, access.leafUuid)
            ? kept.prepared
            : await prepare(access, ask)
        const done = await access.work.merge(prepared, choiceOf(resolutions), conversation ?? null)
        return { mergeUuid: done.uuid, written: done.paths.length }
      })
    }
  }
}

/** The session at work, one job at a time: refused while another tool's session is shown. */
function mergeAccess(studio: StudioContext): MergeAccess {
  studio.requireOwnSession()
  return {
    work: studio.work,
    leafUuid: studio.store.leafUuid,
    endOfNode: (nodeId) => studio.endOfNode(nodeId),
    apply: (run) => {
      studio.requireWritable()
      return studio.exclusive('a merge', () => run().finally(() => studio.shapeChanged()))
    }
  }
}

async function mergeAsk(access: MergeAccess, ask: MergeRequest): Promise<MergeAsk> {
  return {
    fromUuid: await access.endOfNode(ask.nodeId),
    ...(ask.turn === true ? { turnUuid: ask.nodeId } : {}),
    files: ask.files
  }
}

/** Which preview an apply confirms: the same request, from the same leaf. */
function keyOf(ask: MergeRequest, leafUuid: string | null): string {
  return JSON.stringify([ask.nodeId, ask.files, ask.turn === true, leafUuid])
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
