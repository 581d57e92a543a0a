// Projects a session tree onto the branch explorer's nodes: one node per turn (a prompt with the
// assistant and tool messages after it), plus one per branch summary and rewind report. A turn's
// id is its prompt record's uuid, so the graph, the CLI's checkpoints and rewinds name the same
// thing. Pure: the studio recomputes it only when the tree's shape changes.
import { maskSecrets } from '../../shared/mask-secrets'
import type {
  FilesAt,
  GraphNode,
  GraphNodeKind,
  SessionGraph,
  TimelineStep,
  TranscriptEntry
} from '../../shared/views'
import {
  REWIND_REPORT_TYPE,
  type SessionTree,
  type TreeRecord,
  contentText,
  isPrompt,
  promptText
} from '../session/tree'

const TITLE_CHARS = 120

function nodeKind(record: TreeRecord): GraphNodeKind | null {
  if (record.type === 'user' && isPrompt(record)) return 'turn'
  if (record.type === 'branch_summary') return 'branch_summary'
  if (record.type === 'custom_message' && record.customType === REWIND_REPORT_TYPE) {
    return 'rewind_report'
  }
  return null
}

/** Keys masked (shared/mask-secrets.ts) before the cut, so no piece of one is left unmasked. */
function firstLine(text: string): string {
  const line = maskSecrets(text.trim()).split('\n', 1)[0] ?? ''
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line
}

function nodeTitle(record: TreeRecord): string {
  switch (record.type) {
    case 'user':
      return firstLine(promptText(record))
    case 'branch_summary':
      return firstLine(record.summary)
    case 'custom_message': {
      const details = record.details as { report?: unknown } | undefined
      return firstLine(
        typeof details?.report === 'string' ? details.report : contentText(record.content)
      )
    }
    case 'assistant':
      return firstLine(contentText(record.message.content))
  }
}

function maskOrNull(label: string | undefined): string | null {
  return label === undefined ? null : maskSecrets(label)
}

/** Each conversation record mapped to the graph node it belongs to, in parents-first order. */
export interface TurnIndex {
  /** record uuid → owning graph node id (null: before the first prompt). */
  owner: Map<string, string | null>
  /** Graph-node records, parents first. */
  heads: TreeRecord[]
}

export function indexTurns(tree: SessionTree): TurnIndex {
  const owner = new Map<string, string | null>()
  const heads: TreeRecord[] = []
  const stack: { record: TreeRecord; parentOwner: string | null }[] = tree
    .children(null)
    .map((record) => ({ record, parentOwner: null }))
    .reverse()
  while (stack.length > 0) {
    const { record, parentOwner } = stack.pop() as (typeof stack)[number]
    const own = nodeKind(record) === null ? parentOwner : record.uuid
    if (own === record.uuid) heads.push(record)
    owner.set(record.uuid, own)
    const children = tree.children(record.uuid)
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ record: children[i] as TreeRecord, parentOwner: own })
    }
  }
  return { owner, heads }
}

/** What the graph shows beside the tree: the files' marker and the timeline's next steps. */
export interface GraphMarks {
  filesAt: FilesAt
  undo: TimelineStep | null
  redo: TimelineStep | null
}

export function buildSessionGraph(
  tree: SessionTree,
  sessionId: string,
  index: TurnIndex = indexTurns(tree),
  marks: GraphMarks = { filesAt: { nodeId: null, changedSince: false }, undo: null, redo: null }
): SessionGraph {
  const { owner, heads } = index
  const activeOwners = new Set<string>()
  for (const record of tree.activePath()) {
    const own = owner.get(record.uuid)
    if (own !== null && own !== undefined) activeOwners.add(own)
  }

  // The newest leaf below each node: walk up from each leaf, newest first, stopping at nodes a
  // newer leaf already claimed, so every record is visited once.
  const branchLeaf = new Map<string, string>()
  const leaves = tree.leaves()
  for (let i = leaves.length - 1; i >= 0; i--) {
    const leaf = leaves[i] as string
    let at: string | null = leaf
    while (at !== null && !branchLeaf.has(at)) {
      branchLeaf.set(at, leaf)
      at = tree.get(at)?.parentUuid ?? null
      if (at !== null && tree.get(at) === undefined) at = null
    }
  }

  const labels = tree.labels()
  const nodes: GraphNode[] = heads.map((record) => {
    const parentRecord = record.parentUuid
    const parentId = parentRecord === null ? null : (owner.get(parentRecord) ?? null)
    const kind = nodeKind(record) as GraphNodeKind
    return {
      id: record.uuid,
      parentId,
      kind,
      title: nodeTitle(record),
      timestamp: record.timestamp,
      filesChanged:
        kind === 'turn' ? new Set(tree.fileChanges(record.uuid).map((c) => c.path)).size : 0,
      onActivePath: activeOwners.has(record.uuid),
      branchLeafUuid: branchLeaf.get(record.uuid) ?? record.uuid,
      label: maskOrNull(labels.get(record.uuid))
    }
  })

  // An agent checkpoint is drawn from the turn that called it to the report it produced.
  const checkpointLinks: SessionGraph['checkpointLinks'] = []
  for (const summary of tree.summaries()) {
    if (summary.kind !== 'rewind_report') continue
    const report = tree.get(summary.uuid)
    const branchSummary = report?.parentUuid ? tree.get(report.parentUuid) : undefined
    if (branchSummary?.type !== 'branch_summary' || branchSummary.fromId === 'root') continue
    const from = owner.get(branchSummary.fromId)
    if (from) checkpointLinks.push({ from, to: summary.uuid })
  }

  return {
    sessionId,
    nodes,
    leafUuid: tree.leafUuid,
    checkpointLinks,
    canUndo: marks.undo !== null,
    ...marks
  }
}

/** The graph node a record belongs to (null: a record before the first prompt, or unknown). */
export function ownerNode(index: TurnIndex, uuid: string | null): string | null {
  return uuid === null ? null : (index.owner.get(uuid) ?? null)
}

/** The title of the node a record belongs to ("" for none). */
export function ownerTitle(tree: SessionTree, index: TurnIndex, uuid: string | null): string {
  const node = ownerNode(index, uuid)
  const record = node === null ? undefined : tree.get(node)
  return record === undefined ? '' : nodeTitle(record)
}

/** The messages from the root to `leafUuid`, as the transcript panel shows them. */
export function buildTranscript(
  tree: SessionTree,
  leafUuid: string | null,
  index: TurnIndex = indexTurns(tree)
): TranscriptEntry[] {
  return tree.pathTo(leafUuid).map((record) => {
    const nodeId = index.owner.get(record.uuid) ?? record.uuid
    const base = { uuid: record.uuid, nodeId, timestamp: record.timestamp }
    switch (record.type) {
      case 'user':
        return {
          ...base,
          role: 'user',
          isPrompt: isPrompt(record),
          hidden: record.isMeta === true,
          content: record.message.content
        }
      case 'assistant':
        return {
          ...base,
          role: 'assistant',
          isPrompt: false,
          hidden: false,
          content: record.message.content
        }
      case 'branch_summary':
        return { ...base, role: 'summary', isPrompt: false, hidden: false, content: record.summary }
      case 'custom_message':
        return {
          ...base,
          role: 'note',
          isPrompt: false,
          hidden: record.hidden,
          content: record.content
        }
    }
  })
}
