// What an export holds: the session's tree as the graph projects it (views/session-graph.ts: one node per
// turn, summary and report, the same titles, labels and active-path marks), each node with its
// messages, in the order /tree lists them (views/node-refs.ts). The JSON export is this model;
// the Markdown and HTML exports render it. Strings that look like API keys are masked here
// (shared/mask-secrets.ts), so no format can leak one.
import * as z from 'zod'
import { maskSecretsIn } from '../../shared/mask-secrets'
import { GraphNode, TranscriptEntry } from '../../shared/views'
import type { SessionHeader } from '../session/records'
import type { SessionTree, TreeRecord } from '../session/tree'
import {
  type TurnIndex,
  buildSessionGraph,
  indexTurns,
  nodeSummary,
  transcriptEntry
} from '../views/session-graph'
import { listNodes } from '../views/node-refs'
import { promptNumbers } from '../../shared/prompt-numbers'

export const EXPORT_FORMAT_VERSION = 1

export const ExportedNode = GraphNode.extend({
  /** Its turn number, as the CLI and the chat count them (null for summaries and reports). */
  number: z.number().int().nullable(),
  /**
   * Its prompt's number along its branch, as the app's cards count it and the HTML and Markdown
   * show it (shared/prompt-numbers.ts; null for summaries and reports).
   */
  promptNumber: z.number().int().nullable(),
  /** Forks deep in the listing: a chain stays at one depth, each other branch indents. */
  depth: z.number().int(),
  /** It starts a branch beside an earlier sibling. */
  fork: z.boolean(),
  /** The full text of a summary or report node. */
  summary: z.string().nullable(),
  /** The files the turn changed. */
  files: z.array(z.string()),
  /** A merge node: the node it brought in (from another branch: the graph's merge link). */
  mergedFrom: z.string().nullable().optional(),
  /** Its messages (on a branch export, only those on the branch). */
  entries: z.array(TranscriptEntry)
})
export type ExportedNode = z.infer<typeof ExportedNode>

export const ExportModel = z.object({
  format: z.literal('rewind-studio-export'),
  version: z.number().int(),
  exportedAt: z.string(),
  session: z.object({
    sessionId: z.string(),
    cwd: z.string(),
    file: z.string(),
    forkedFrom: z
      .object({
        sessionId: z.string(),
        leafUuid: z.string().nullable(),
        file: z.string().optional()
      })
      .nullable()
  }),
  /** The whole tree, or one branch: the path from a root to `branchLeafUuid`. */
  scope: z.enum(['all', 'branch']),
  /** The session's leaf (where the conversation is). */
  leafUuid: z.string().nullable(),
  /** For a branch export, the last record of the branch. */
  branchLeafUuid: z.string().nullable(),
  nodes: z.array(ExportedNode),
  /** Records before the first prompt (harness messages), if any. */
  preamble: z.array(TranscriptEntry)
})
export type ExportModel = z.infer<typeof ExportModel>

/** What a node's heading says before its title: nothing for a turn, else what kind of node. */
export function kindPrefix(kind: ExportedNode['kind']): string {
  switch (kind) {
    case 'turn':
      return ''
    case 'branch_summary':
      return 'Summary: '
    case 'compaction':
      return 'Compaction: '
    case 'exploration':
      return 'Exploration: '
    case 'rewind_report':
      return 'Report: '
    case 'subagent':
      return 'Sub-agent: '
    case 'merge':
      return 'Brought in: '
  }
}

export type ExportScope = { kind: 'all' } | { kind: 'branch'; leafUuid: string | null }

export interface ExportSource {
  tree: SessionTree
  /** What the page names: our header, or what another tool's session says of itself. */
  header: Pick<SessionHeader, 'sessionId' | 'cwd' | 'forkedFrom'>
  file: string
}

export function buildExportModel(
  source: ExportSource,
  scope: ExportScope,
  exportedAt = new Date().toISOString()
): ExportModel {
  const { tree, header } = source
  const index = indexTurns(tree)
  const graph = buildSessionGraph(tree, header.sessionId, index)
  const listed = listNodes(graph)
  const promptNumberOf = promptNumbers(graph.nodes)
  const mergedFrom = new Map((graph.mergeLinks ?? []).map((link) => [link.to, link.from]))
  // The records each node shows: every record it owns, or only those on the branch.
  const records = scope.kind === 'branch' ? tree.pathTo(scope.leafUuid) : everyRecord(tree, index)
  const entries = new Map<string | null, z.infer<typeof TranscriptEntry>[]>()
  for (const record of records) {
    const owner = index.owner.get(record.uuid) ?? null
    const entry = transcriptEntry(record, owner ?? record.uuid)
    const list = entries.get(owner)
    if (list === undefined) entries.set(owner, [entry])
    else list.push(entry)
  }
  // A branch is one chain: its nodes in branch order, none indented.
  const position = new Map(records.map((r, i) => [r.uuid, i]))
  const shown =
    scope.kind === 'all'
      ? listed
      : listed
          .filter((l) => entries.has(l.node.id))
          .sort((a, b) => (position.get(a.node.id) ?? 0) - (position.get(b.node.id) ?? 0))
          .map((l) => ({ ...l, depth: 0, fork: false }))
  const nodes = shown.map(({ node, number, depth, fork }): ExportedNode => {
    const record = tree.get(node.id)
    return {
      ...node,
      number,
      promptNumber: node.kind === 'turn' ? (promptNumberOf.get(node.id) ?? null) : null,
      depth,
      fork,
      summary: record === undefined ? null : (nodeSummary(record)?.text ?? null),
      files: [...new Set(tree.fileChanges(node.id).map((c) => c.path))],
      ...(node.kind === 'merge' ? { mergedFrom: mergedFrom.get(node.id) ?? null } : {}),
      entries: entries.get(node.id) ?? []
    }
  })
  return maskSecretsIn({
    format: 'rewind-studio-export',
    version: EXPORT_FORMAT_VERSION,
    exportedAt,
    session: {
      sessionId: header.sessionId,
      cwd: header.cwd,
      file: source.file,
      forkedFrom: header.forkedFrom ?? null
    },
    scope: scope.kind,
    leafUuid: tree.leafUuid,
    branchLeafUuid: scope.kind === 'branch' ? scope.leafUuid : null,
    nodes,
    preamble: entries.get(null) ?? []
  })
}

/** Every conversation record, in the order indexTurns walked them (depth first, parents first). */
function everyRecord(tree: SessionTree, index: TurnIndex): TreeRecord[] {
  const records: TreeRecord[] = []
  for (const uuid of index.owner.keys()) {
    const record = tree.get(uuid)
    if (record !== undefined) records.push(record)
  }
  return records
}
