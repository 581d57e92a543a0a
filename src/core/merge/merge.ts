// Bringing another branch's conclusions and code into this one (issue 31), as the CLI's `merge`
// and the app's "Bring into this branch…" both do it: preview (the file plan, and where the
// conversation would come from), then apply with a choice for every conflict, as one action.
// The modules: merge-plan.ts (the three sides per file), merge-file.ts (git merge-file),
// merge-apply.ts (choices → the rewind engine's journaled apply), conversation.ts (the report or
// the summary).
import { join } from 'node:path'
import { looksBinary } from '../files/binary-content'
import type { RewindEngine } from '../rewind/rewind-engine'
import type { RestoreSpace } from '../rewind/workspace-files'
import type { SessionTree } from '../session/tree'
import type { MergePreview, MergePreviewFile } from '../../shared/merge-views'
import { type MergeChoice, applyMerge } from './merge-apply'
import { MergeRunner } from './merge-file'
import { type MergePlan, partingPoint, planBranchMerge, planTurnMerge } from './merge-plan'
import { conclusionsHere, retainedReport } from './conversation'

export interface MergeWorkspace {
  tree: () => SessionTree
  leafUuid: () => string | null
  engine: RewindEngine
  space: RestoreSpace
}

export interface MergeAsk {
  /** The record brought in (a node's last record on its branch). */
  fromUuid: string
  /** A cherry-pick: the turn (its prompt) whose changes alone are merged. */
  turnUuid?: string
  /** Plan the files (else the merge brings the conversation only). */
  files: boolean
}

/** A preview and the plan it shows, for the apply. */
export interface PreparedMerge {
  ask: MergeAsk
  baseUuid: string | null
  plan: MergePlan | null
  preview: MergePreview
}

/** Where a merge's three-way merges write their copies: a private folder of the data home. */
function scratchOf(space: RestoreSpace): string {
  return join(space.paths.root, 'merging')
}

/** The plan of `ask`, nothing written (the runner's copies are removed before it returns). */
export async function prepareMerge(ws: MergeWorkspace, ask: MergeAsk): Promise<PreparedMerge> {
  const tree = ws.tree()
  const leaf = ws.leafUuid()
  let plan: MergePlan | null = null
  if (ask.files) {
    const runner = new MergeRunner(scratchOf(ws.space))
    try {
      const src = { tree, blobs: ws.space.blobs, root: ws.space.root, runner }
      plan =
        ask.turnUuid === undefined
          ? await planBranchMerge(src, ask.fromUuid, leaf)
          : await planTurnMerge(src, ask.turnUuid)
    } finally {
      runner.close()
    }
  }
  const baseUuid = plan?.baseUuid ?? partingPoint(tree, ask.fromUuid, leaf)
  const report = retainedReport(tree, ask.fromUuid)
  const conversation: MergePreview['conversation'] = conclusionsHere(
    tree,
    ask.fromUuid,
    leaf,
    report
  )
    ? { source: 'here', report: null }
    : report !== null
      ? { source: 'report', report: report.report }
      : { source: 'summary', report: null }
  return { ask, baseUuid, plan, preview: previewOf(ask, baseUuid, plan, conversation) }
}

/** Applies a prepared merge with `choice`; returns the merge record's uuid. */
export async function runMerge(
  ws: MergeWorkspace,
  prepared: PreparedMerge,
  choice: MergeChoice
): Promise<{ uuid: string; paths: string[] }> {
  const { ask } = prepared
  const done = await applyMerge(
    ws.engine,
    scratchOf(ws.space),
    {
      fromUuid: ask.fromUuid,
      baseUuid: prepared.baseUuid,
      ...(ask.turnUuid === undefined ? {} : { turnUuid: ask.turnUuid })
    },
    prepared.plan,
    choice
  )
  return { uuid: done.uuid, paths: done.files.map((f) => f.path) }
}

/** Most bytes of one side the side-by-side view is sent (a bigger file is chosen whole). */
const SHOWN_BYTES = 1_000_000

/** Text the side-by-side view shows of one side (null: no file, binary, or too big to show). */
function shownText(content: Buffer | null): string | null {
  if (content === null || content.length > SHOWN_BYTES || looksBinary(content)) return null
  return content.toString('utf8')
}

function previewOf(
  ask: MergeAsk,
  baseUuid: string | null,
  plan: MergePlan | null,
  conversation: MergePreview['conversation']
): MergePreview {
  const files = (plan?.files ?? []).map((f): MergePreviewFile => {
    return {
      path: f.path,
      change: f.change,
      ...(f.renamedFrom === undefined ? {} : { renamedFrom: f.renamedFrom }),
      ...(f.renamedHere === undefined ? {} : { renamedHere: f.renamedHere.from }),
      ...(f.similarity === undefined && f.renamedHere === undefined
        ? {}
        : { similarity: f.renamedHere?.similarity ?? f.similarity }),
      status: f.status,
      ...(f.conflict === undefined ? {} : { conflict: f.conflict }),
      ...(f.hunks === undefined ? {} : { hunks: f.hunks }),
      ...(f.status === 'conflict'
        ? {
            ours: shownText(f.ours ?? f.oursFrom?.content ?? null),
            theirs: shownText(f.theirs),
            marked: f.text ? shownText(f.merged) : null
          }
        : {})
    }
  })
  return {
    fromUuid: ask.fromUuid,
    baseUuid,
    ...(ask.turnUuid === undefined ? {} : { turnUuid: ask.turnUuid }),
    files,
    clean: files.filter((f) => f.status === 'clean').length,
    conflicts: files.filter((f) => f.status === 'conflict').length,
    unmergeable: plan?.unmergeable ?? [],
    conversation
  }
}
