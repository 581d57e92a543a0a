// Applying a merge (issue 31): the plan (merge-plan.ts) with a choice for every conflict becomes
// one action of the rewind engine, never a mover beside it: the engine backs up what it will
// overwrite, journals, writes each file (old or merged, never partial, through a crash too) and
// only then appends the merge record with its file_change records (source `merge`). Undo takes it
// back as any action of the timeline. Nothing is written while a conflict has no choice: the
// error lists them all.
//
// A choice: `ours` / `theirs` on a text conflict keeps the other side's clean hunks and takes
// that side's lines where both changed (git merge-file --ours / --theirs, as git's -X); on any
// other conflict (a deletion, a binary file) it takes that side's file whole. `edited` gives the
// file the content the user wrote.
import { sha256 } from '../files/blob-store'
import {
  ContentMissingError,
  type ContentSource,
  type ExternalTarget
} from '../rewind/content-source'
import type { RewindEngine, RewindPlan } from '../rewind/rewind-engine'
import { MAX_MERGE_FILES, type MergeIntent } from '../session/records'
import { uuidv7 } from '../session/uuid-v7'
import { type Favor, MergeRunner } from './merge-file'
import { type MergeFilePlan, type MergePlan, MergeError, mergeLabels } from './merge-plan'

export type Resolution = { take: 'ours' } | { take: 'theirs' } | { take: 'edited'; content: Buffer }

export interface MergeChoice {
  /** A choice per conflicted path. */
  resolutions?: ReadonlyMap<string, Resolution>
  /** The choice for every conflict without one (the CLI's --strategy). */
  strategy?: 'ours' | 'theirs'
  /** The conversation brought in (conversation.ts), if any. */
  conversation?: { summary: string; source: 'report' | 'summary' }
}

/** What the engine is to write: targets in a source of merged contents, and the record's list. */
export interface MergeWrites {
  targets: (ExternalTarget & { targetMode?: number | undefined })[]
  source: ContentSource
  files: MergeIntent['files']
}

/** The paths of the plan's conflicts that `choice` leaves without a resolution. */
export function unresolved(plan: MergePlan, choice: MergeChoice): string[] {
  if (choice.strategy !== undefined) return []
  return plan.files
    .filter((f) => f.status === 'conflict' && choice.resolutions?.get(f.path) === undefined)
    .map((f) => f.path)
}

/** The contents each file gets with `choice`, in a content source for the engine. */
export async function mergeWrites(
  plan: MergePlan,
  choice: MergeChoice,
  runner: () => MergeRunner
): Promise<MergeWrites> {
  const missing = unresolved(plan, choice)
  if (missing.length > 0) {
    throw new MergeError(
      'conflict',
      `${missing.length} conflict${missing.length === 1 ? '' : 's'} without a resolution: ${missing.join(', ')}. Nothing was changed.`
    )
  }
  const contents = new Map<string, Buffer>()
  const ref = (content: Buffer | null): string | null => {
    if (content === null) return null
    const hash = sha256(content)
    contents.set(hash, content)
    return `merge:${hash}`
  }
  const targets: MergeWrites['targets'] = []
  const files: MergeIntent['files'] = []
  for (const file of plan.files) {
    const resolution: Resolution['take'] | 'clean' =
      file.status === 'clean'
        ? 'clean'
        : (choice.resolutions?.get(file.path)?.take ?? choice.strategy ?? 'ours')
    const result = await resultOf(file, resolution, choice, plan, runner)
    if (result === 'keep') {
      files.push(listed(file, resolution))
      continue
    }
    targets.push({
      path: file.path,
      target: ref(result),
      ...(file.theirsMode === undefined ? {} : { targetMode: file.theirsMode })
    })
    // A rename taken: the old path goes (where this branch still has it).
    if (file.renamedFrom !== undefined && file.oursFrom?.content !== null) {
      targets.push({ path: file.renamedFrom, target: null })
    }
    files.push(listed(file, resolution))
  }
  const source: ContentSource = {
    read: (r) => {
      const content = contents.get(r.slice('merge:'.length))
      if (content === undefined) throw new ContentMissingError(`no merged content ${r}`)
      return content
    },
    hashOf: (r) => r.slice('merge:'.length)
  }
  return { targets, source, files }
}

function listed(
  file: MergeFilePlan,
  resolution: Resolution['take'] | 'clean'
): MergeIntent['files'][number] {
  return {
    path: file.path,
    change: file.change,
    ...(file.renamedFrom === undefined ? {} : { renamedFrom: file.renamedFrom }),
    ...(file.renamedHere === undefined ? {} : { renamedHere: file.renamedHere.from }),
    resolution
  }
}

/** A file's content with its resolution; 'keep': this branch's file stays as it is. */
async function resultOf(
  file: MergeFilePlan,
  resolution: Resolution['take'] | 'clean',
  choice: MergeChoice,
  plan: MergePlan,
  runner: () => MergeRunner
): Promise<Buffer | null | 'keep'> {
  if (resolution === 'clean') return file.merged
  if (resolution === 'edited') {
    const edited = choice.resolutions?.get(file.path)
    return edited?.take === 'edited' ? edited.content : 'keep'
  }
  if (file.text && file.ours !== null && file.theirs !== null) {
    const favor: Favor = resolution
    const merged = await runner().merge(
      file.base,
      file.ours,
      file.theirs,
      favor,
      mergeLabels(plan.fromUuid)
    )
    return merged.content
  }
  return resolution === 'ours' ? 'keep' : file.theirs
}

/**
 * Applies the merge: its files (when `plan` is given) and its record, as one action. Returns
 * the record appended and what was written. `baseUuid`: where the branches part (the plan's).
 */
export async function applyMerge(
  engine: RewindEngine,
  scratch: string,
  from: { fromUuid: string; baseUuid: string | null; turnUuid?: string },
  plan: MergePlan | null,
  choice: MergeChoice
): Promise<{ uuid: string; files: RewindPlan['files'] }> {
  let runner: MergeRunner | null = null
  try {
    const writes =
      plan === null
        ? null
        : await mergeWrites(plan, choice, () => (runner ??= new MergeRunner(scratch)))
    if ((writes === null || writes.files.length === 0) && choice.conversation === undefined) {
      throw new MergeError(
        'not_found',
        'Nothing to bring in: that branch changed no file this one does not have already, and no conversation was asked for. Nothing was changed.'
      )
    }
    const listed = writes?.files ?? []
    const intent: MergeIntent = {
      uuid: uuidv7(),
      fromUuid: from.fromUuid,
      baseUuid: from.baseUuid,
      ...(from.turnUuid === undefined ? {} : { turnUuid: from.turnUuid }),
      ...(choice.conversation === undefined
        ? {}
        : { summary: choice.conversation.summary, summarySource: choice.conversation.source }),
      files: listed.slice(0, MAX_MERGE_FILES),
      ...(listed.length > MAX_MERGE_FILES ? { moreFiles: listed.length - MAX_MERGE_FILES } : {}),
      // The engine names its journal here when it writes it.
      restoreId: ''
    }
    const emptySource: ContentSource = {
      read: (r) => {
        throw new ContentMissingError(`no content ${r}`)
      },
      hashOf: (r) => r
    }
    const planned = await engine.planMerge(
      writes?.targets ?? [],
      writes?.source ?? emptySource,
      intent
    )
    requireUnchanged(plan, planned)
    await engine.apply(planned)
    return { uuid: intent.uuid, files: planned.files }
  } finally {
    // The runner's folder holds copies of the user's files: never left behind.
    ;(runner as MergeRunner | null)?.close()
  }
}

/** Each file the engine will write holds what the merge read: else the merge used stale bytes. */
function requireUnchanged(plan: MergePlan | null, planned: RewindPlan): void {
  if (plan === null) return
  const read = new Map<string, string | null>()
  for (const file of plan.files) {
    read.set(file.path, file.oursHash)
    if (file.renamedFrom !== undefined && file.oursFrom !== undefined) {
      read.set(file.renamedFrom, file.oursFrom.hash)
    }
  }
  for (const file of planned.files) {
    if (read.has(file.path) && read.get(file.path) !== file.seen) {
      throw new MergeError(
        'conflict',
        `${file.path} changed while the merge was being made: preview it again. Nothing was changed.`
      )
    }
  }
}
