// The records a merge appends (core/merge; docs/session-format.md, "merge"): the merge node, the
// child of the leaf it was made on, then one file_change per file it wrote, filed under the merge
// itself (its own turn, source `merge`), at one time. Built here, written by the store in one
// write: all of them, or none.
import { type FileChangeRecord, MergeRecord, type MergeIntent } from './records'
import { limitPersistedText } from './truncate'
import { uuidv7 } from './uuid-v7'

/** What a merge wrote to one file, as its file_change record says it. */
export type MergeFileChange = Pick<
  FileChangeRecord,
  'path' | 'before' | 'after' | 'beforeMode' | 'afterMode'
>

export function mergeRecords(
  merge: MergeIntent,
  parentUuid: string | null,
  changes: readonly MergeFileChange[],
  timestamp: string
): [MergeRecord, ...FileChangeRecord[]] {
  const record = MergeRecord.parse({
    type: 'merge',
    ...merge,
    parentUuid,
    timestamp,
    ...(merge.summary !== undefined ? { summary: limitPersistedText(merge.summary) } : {})
  })
  const fileChanges = changes.map((change): FileChangeRecord => ({
    type: 'file_change',
    uuid: uuidv7(),
    parentUuid: record.uuid,
    timestamp,
    checkpointUuid: record.uuid,
    ...change,
    source: 'merge'
  }))
  return [record, ...fileChanges]
}
