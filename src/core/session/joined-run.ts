// A parallel run's records as the session appends them when the run joins it
// (SessionStore.appendRun, core/parallel/run-join.ts): each checked as a record of ours, marked
// `run: <run id>`, its uuid new to the session and its parent in it (or earlier in the run), then
// a navigate back to the session's leaf, marked too. docs/session-format.md ("Runs joined into a
// session") says what the marks mean; the timeline reads no marked record.
import { CodedError, NotFoundError } from '../../shared/coded-error'
import { KnownRecord, NavigateRecord } from './records'
import type { SessionTree } from './tree'

export function joinedRunRecords(
  tree: SessionTree,
  run: string,
  records: readonly unknown[],
  back: { uuid: string; parentUuid: string | null; timestamp: string }
): { uuid: string }[] {
  const taken = new Set<string>()
  const joined = records.map((record) => {
    const parsed = KnownRecord.safeParse({ ...(record as object), run })
    if (!parsed.success || parsed.data.type === 'session') {
      throw new CodedError(
        'conflict',
        `A record of run ${run} cannot be joined: ${parsed.success ? 'it is a header' : (parsed.error.issues[0]?.message ?? 'it is not valid')}; nothing was appended`
      )
    }
    const { uuid, parentUuid } = parsed.data
    if (taken.has(uuid) || tree.has(uuid)) {
      throw new CodedError(
        'conflict',
        `Record ${uuid} of run ${run} cannot be joined: its uuid is taken; nothing was appended`
      )
    }
    if (parentUuid !== null && !taken.has(parentUuid) && tree.get(parentUuid) === undefined) {
      throw new NotFoundError(`Entry ${parentUuid} not found: run ${run} was not joined`)
    }
    taken.add(uuid)
    return parsed.data
  })
  const navigate = NavigateRecord.parse({
    type: 'navigate',
    ...back,
    leafUuid: tree.leafUuid,
    reason: 'switch-branch',
    run
  })
  return [...joined, navigate]
}
