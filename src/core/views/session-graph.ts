// Projects a session tree onto the branch explorer's nodes: one node per turn (a prompt with the
// assistant and tool messages after it), plus one per branch summary and rewind report. A turn's
// id is its prompt record's uuid, so the graph, the CLI's checkpoints and rewinds name the same
// thing. Pure: the studio recomputes it only when the tree's shape changes.
//
// An agent's rewind writes two records, a branch summary and the rewind report under it: the
// graph draws them as ONE node, the report. What the agent explored between its checkpoint and
// that rewind (an abandoned branch off the checkpoint's turn) is drawn under the report as an
// `exploration` node, so the explored steps hang off the report that replaced them.
import { shownFirstLine, shownOneLine } from '../../shared/shown-text'
import type {
  FilesAt,
  GraphNode,
  GraphNodeKind,
  NodeDetail,
  SessionGraph,
  TimelineStep,
  TranscriptEntry,
  TurnOutcome
} from '../../shared/views'
import { isInterrupted, mergeText } from '../agent/context'
import { listsOf } from '../agent/summary/files-touched'
import { isForeignRecord } from '../session/foreign/raw'
import type { SubagentRun } from '../session/foreign/types'
import {
  REWIND_REPORT_TYPE,
  isCompactionRecord,
  TURN_STOPPED_TYPE,
  type SessionTree,
  type TreeRecord,
  contentText,
  distinctPaths,
  isKnownRecordType,
  isPrompt,
  promptText,
  summarizedLeafOf
} from '../session/tree'
import {
  type CutNotice,
  type EntriesNotice,
  limitEntries,
  limitText,
  MAX_PERSIST_CHARS
} from '../session/truncate'
import type { MergeRecord } from '../session/records'
import { RecordOwners } from './record-owners'

const TITLE_CHARS = 120
/** Tool names an exploration's title lists before "…". */
const EXPLORATION_TOOLS_SHOWN = 4

function isRewindReport(record: TreeRecord | undefined): boolean {
  return record?.type === 'custom_message' && record.customType === REWIND_REPORT_TYPE
}

/** The rewind report written under an agent's branch summary, which the report node stands for. */
function reportUnder(tree: SessionTree, record: TreeRecord): TreeRecord | undefined {
  if (record.type !== 'branch_summary') return undefined
  return tree.children(record.uuid).find(isRewindReport)
}

function nodeKind(record: TreeRecord): GraphNodeKind | null {
  if (record.type === 'user' && isPrompt(record)) return 'turn'
  if (isCompactionRecord(record)) return 'compaction'
  if (record.type === 'branch_summary') return 'branch_summary'
  if (record.type === 'merge') return 'merge'
  if (isRewindReport(record)) return 'rewind_report'
  return null
}

function firstLine(text: string): string {
  return shownFirstLine(text, TITLE_CHARS)
}

function nodeTitle(record: TreeRecord): string {
  switch (record.type) {
    case 'user':
      return firstLine(promptText(record))
    case 'branch_summary':
    case 'compaction':
      return firstLine(summaryHeadline(record.summary))
    case 'custom_message': {
      const details = record.details as { report?: unknown; headline?: unknown } | undefined
      return firstLine(
        typeof details?.report === 'string'
          ? details.report
          : typeof details?.headline === 'string'
            ? details.headline
            : contentText(record.content)
      )
    }
    case 'assistant':
      return firstLine(contentText(record.message.content))
    case 'merge':
      return firstLine(mergeTitle(record, ''))
  }
}

/**
 * A merge node's title: what it brought in, and from where: the title of the node it came from
 * (`origin`), else that record's id cut short.
 */
function mergeTitle(record: MergeRecord, origin: string): string {
  const files = record.files.length + (record.moreFiles ?? 0)
  const parts = [
    ...(record.summary === undefined ? [] : ['conclusions']),
    ...(files === 0 ? [] : [`${files} file${files === 1 ? '' : 's'}`])
  ]
  const what = record.turnUuid === undefined ? 'Brought in' : 'Cherry-picked'
  const from = origin === '' ? `…${record.fromUuid.slice(-8)}` : `“${origin}”`
  return `${what} ${parts.join(' and ') || 'nothing'} from ${from}`
}

/** A node's title as the graph shows it: a merge's names the node it brought in. */
export function graphNodeTitle(tree: SessionTree, index: TurnIndex, record: TreeRecord): string {
  if (record.type !== 'merge') return nodeTitle(record)
  return firstLine(mergeTitle(record, ownerTitle(tree, index, record.fromUuid)))
}

/**
 * A structured summary opens with headings ("## Goal"): its title is the first line under one,
 * what the goal is. A summary without headings (an agent's report) is its own first line.
 */
function summaryHeadline(summary: string): string {
  const lines = summary.split('\n').map((line) => line.trim())
  return lines.find((line) => line !== '' && !line.startsWith('#')) ?? summary
}

function shownLabel(label: string | undefined): string | null {
  return label === undefined ? null : shownOneLine(label)
}

/** Each conversation record mapped to the graph node it belongs to, in parents-first order. */
export interface TurnIndex {
  /** record uuid → owning graph node id (null: before the first prompt), in visit order. */
  owner: ReadonlyMap<string, string | null>
  /** Graph-node records, parents first. */
  heads: TreeRecord[]
  /** Graph node id → its kind and the node it is drawn under (null: a root). */
  nodes: Map<string, { kind: GraphNodeKind; parentId: string | null }>
  /** Per node, the last record of its own (the turn's end), for its outcome. */
  ends: Map<string, TreeRecord>
  /**
   * Records with a child drawn in a node that is no turn (a report, summary or exploration under
   * them): a turn ending on one went on in that node (outcomeOf).
   */
  wentOn: Set<string>
}

/**
 * The explorations off `record`: for each agent rewind whose checkpoint is `record` (its branch
 * summary's fromId), the other children of `record` written while that checkpoint was open.
 * Maps each exploration's first record to the report it is drawn under.
 */
function explorationsOff(
  tree: SessionTree,
  record: TreeRecord,
  children: readonly TreeRecord[]
): ReadonlyMap<string, string> {
  let found: Map<string, string> | null = null
  for (const child of children) {
    if (child.type !== 'branch_summary' || child.fromId !== record.uuid) continue
    const report = reportUnder(tree, child)
    if (report === undefined) continue
    const details = child.details as { startedAt?: unknown } | undefined
    const startedAt = typeof details?.startedAt === 'string' ? details.startedAt : ''
    for (const other of children) {
      if (other === child || found?.has(other.uuid) || reportUnder(tree, other) !== undefined) {
        continue
      }
      if (other.timestamp >= startedAt && other.timestamp <= child.timestamp) {
        found ??= new Map()
        found.set(other.uuid, report.uuid)
      }
    }
  }
  return found ?? NO_EXPLORATIONS
}

const NO_EXPLORATIONS: ReadonlyMap<string, string> = new Map()

interface Visit {
  record: TreeRecord
  /** The record it is a child of (null: a root). */
  parent: TreeRecord | null
  /** The node owning the parent record. */
  parentOwner: string | null
  /** Where a node starting here is drawn: parentOwner, or the report for an exploration. */
  drawUnder: string | null
  /** Set on an exploration's first record. */
  exploration: boolean
  /** Where the parent is in the visit order (-1: a root), and the node owning it (its `own`). */
  parentAt: number
  parentOwn: string | null
  /** The kind of parentOwner's node (undefined: none, or not drawn yet). */
  parentOwnerKind: GraphNodeKind | undefined
}

export function indexTurns(tree: SessionTree): TurnIndex {
  const heads: TreeRecord[] = []
  const nodes: TurnIndex['nodes'] = new Map()
  const ends = new Map<string, TreeRecord>()
  // The records in visit order, each with its owner: the ends are found from these, without a
  // lookup by uuid per record (a 500 MB log has 600,000).
  const visited: TreeRecord[] = []
  const owners: (string | null)[] = []
  const numbers: number[] = []
  const wentOn = new Set<string>()
  // A node's ends are its records no record of the same node goes on from: marked by visit
  // position as each child is visited (its parent's position and owner come with it), not
  // looked up by uuid per record afterwards. A root that names a parent (one whose parent is
  // missing, or a cycle's breaker) is looked up by uuid as before: drawnAsRoot.
  const goesOn = new Uint8Array(tree.size)
  const drawnAsRoot: number[] = []
  const stack: Visit[] = tree
    .children(null)
    .map((record) => ({
      record,
      parent: null,
      parentOwner: null,
      drawUnder: null,
      exploration: false,
      parentAt: -1,
      parentOwn: null,
      parentOwnerKind: undefined
    }))
    .reverse()
  while (stack.length > 0) {
    const visit = stack.pop() as Visit
    const { record, parent, parentOwner, drawUnder, exploration, parentAt, parentOwn } = visit
    // An agent's branch summary belongs to the report under it: one node for one rewind.
    const report = reportUnder(tree, record)
    const kind =
      report !== undefined
        ? null
        : exploration
          ? (nodeKind(record) ?? 'exploration')
          : nodeKind(record)
    const own = report !== undefined ? report.uuid : kind === null ? parentOwner : record.uuid
    if (kind !== null) {
      heads.push(record)
      nodes.set(record.uuid, { kind, parentId: drawUnder })
    }
    // A report's own node is set when it is visited, after its summary: no turn either way.
    // Kinds come with the visit (its owner's is its parent's owner's, or its own): no lookup.
    const ownKind = report !== undefined ? undefined : kind !== null ? kind : visit.parentOwnerKind
    if (parent !== null && own !== null && ownKind !== 'turn') wentOn.add(parent.uuid)
    const at = visited.length
    visited.push(record)
    owners.push(own)
    numbers.push(tree.nodeNumber(record.uuid))
    if (parent === null) {
      if (record.parentUuid !== null) drawnAsRoot.push(at)
    } else if (own !== null && parentOwn === own) {
      goesOn[parentAt] = 1
    }
    // The records after the summary are drawn from where the summary stood.
    const childOwner = report !== undefined ? parentOwner : own
    const children = tree.children(record.uuid)
    const explorations = explorationsOff(tree, record, children)
    // The rewind's summary and report are visited before the explorations drawn under them, so
    // parents still come first; an exploration is the report's last child, drawn to its right.
    const ordered =
      explorations.size === 0
        ? children
        : [
            ...children.filter((child) => !explorations.has(child.uuid)),
            ...children.filter((child) => explorations.has(child.uuid))
          ]
    for (let i = ordered.length - 1; i >= 0; i--) {
      const child = ordered[i] as TreeRecord
      const under = explorations.get(child.uuid)
      stack.push({
        record: child,
        parent: record,
        parentOwner: childOwner,
        drawUnder: under ?? childOwner,
        exploration: under !== undefined,
        parentAt: at,
        parentOwn: own,
        parentOwnerKind: report !== undefined ? visit.parentOwnerKind : ownKind
      })
    }
  }
  const owner = new RecordOwners(tree, visited, owners, numbers)
  const goesOnByUuid = new Set<string>()
  for (const at of drawnAsRoot) {
    const parent = (visited[at] as TreeRecord).parentUuid as string
    const own = owners[at] ?? null
    if (own !== null && owner.get(parent) === own) goesOnByUuid.add(parent)
  }
  // The last one visited counts. Read from the owners, so no record's kind is worked out twice.
  for (let i = 0; i < visited.length; i++) {
    const record = visited[i] as TreeRecord
    const own = owners[i] ?? null
    if (own === null || goesOn[i] === 1) continue
    if (goesOnByUuid.size > 0 && goesOnByUuid.has(record.uuid)) continue
    ends.set(own, record)
  }
  return { owner, heads, nodes, ends, wentOn }
}

/** An assistant message whose tool calls have no results after them. */
function callsLeftOpen(end: TreeRecord & { type: 'assistant' }): boolean {
  const content = end.message.content
  return typeof content !== 'string' && content.some((block) => block.type === 'tool_use')
}

/**
 * Whether a turn that ends on `end` waits for what comes next: a prompt not answered (nor
 * interrupted), or tool calls without their results.
 */
function awaitsAnswer(end: TreeRecord | undefined): boolean {
  if (end?.type === 'user') return !isInterrupted(end)
  return end?.type === 'assistant' && callsLeftOpen(end)
}

/**
 * How a node's turn ended, from its last record: see TurnOutcome (shared/views.ts). A last
 * record with a report, summary or exploration under it went on in that node: not an end.
 */
function outcomeOf(index: TurnIndex, end: TreeRecord | undefined): TurnOutcome {
  if (end === undefined || index.wentOn.has(end.uuid)) return 'done'
  switch (end.type) {
    case 'assistant': {
      // A stop keeps the text already streamed as a message of its own, without the model's
      // name or a stop reason (agent.ts); a finished answer has both.
      const message = end.message as { model?: unknown; stop_reason?: unknown }
      const cutOff = message.model === undefined && message.stop_reason === undefined
      return callsLeftOpen(end) || cutOff ? 'stopped' : 'done'
    }
    case 'user':
      return isInterrupted(end) ? 'stopped' : 'failed'
    case 'custom_message':
      return end.customType === TURN_STOPPED_TYPE ? 'stopped' : 'done'
    case 'branch_summary':
    case 'merge':
      return 'done'
    case 'compaction':
      // One the agent made mid-turn (auto, overflow) is followed by the rest of the turn: with
      // nothing after it the model never answered (a stop leaves the turn-stopped note after
      // it). One the user asked for ends there.
      return end.trigger === 'manual' ? 'done' : 'failed'
  }
}

/**
 * An exploration's title: the tools it called, in order, each named once. Its records are those
 * below its head that the turn index gives it, walked in file order (an exploration is a chain).
 */
function explorationTitle(tree: SessionTree, index: TurnIndex, id: string): string {
  const names: string[] = []
  const queue = [id]
  for (let at = 0; at < queue.length; at++) {
    const uuid = queue[at] as string
    const record = tree.get(uuid)
    if (record?.type === 'assistant' && typeof record.message.content !== 'string') {
      for (const block of record.message.content) {
        if (block.type === 'tool_use' && !names.includes(String(block.name))) {
          names.push(String(block.name))
        }
      }
    }
    for (const child of tree.children(uuid)) {
      if (index.owner.get(child.uuid) === id) queue.push(child.uuid)
    }
  }
  const shown = names.slice(0, EXPLORATION_TOOLS_SHOWN).join(', ')
  const more = names.length > EXPLORATION_TOOLS_SHOWN ? ', …' : ''
  return names.length === 0 ? 'Explored' : `Explored with ${shown}${more}`
}

/** What the graph shows beside the tree: the files' marker and the timeline's next steps. */
export interface GraphMarks {
  filesAt: FilesAt
  undo: TimelineStep | null
  redo: TimelineStep | null
  /** The agent is running a turn: the node holding the leaf is `running`. */
  running?: boolean
  /**
   * Another program is writing the session as we watch (a viewed session whose file grew while
   * followed): a turn at the leaf still waiting on its answer or on a tool is `running`, not
   * failed or stopped.
   */
  answering?: boolean
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
  const { running, answering, ...shown } = marks
  const leafNode = tree.leafUuid === null ? undefined : owner.get(tree.leafUuid)
  const runningNode =
    running === true ||
    (answering === true &&
      leafNode !== undefined &&
      leafNode !== null &&
      awaitsAnswer(index.ends.get(leafNode)))
      ? leafNode
      : undefined

  const labels = tree.labels()
  const nodes: GraphNode[] = heads.map((record) => {
    const { kind, parentId } = index.nodes.get(record.uuid) as {
      kind: GraphNodeKind
      parentId: string | null
    }
    return {
      id: record.uuid,
      parentId,
      kind,
      title:
        kind === 'exploration'
          ? explorationTitle(tree, index, record.uuid)
          : graphNodeTitle(tree, index, record),
      timestamp: record.timestamp,
      filesChanged:
        kind === 'turn' || kind === 'merge' ? distinctPaths(tree.fileChanges(record.uuid)) : 0,
      onActivePath: activeOwners.has(record.uuid),
      branchLeafUuid: tree.branchLeafOf(record.uuid) ?? record.uuid,
      label: shownLabel(labels.get(record.uuid)),
      // An exploration ends where the agent rewound it, by design: never a failure. Another
      // tool's compaction asks no answer (Claude Code's is a user record, with its command's
      // output after it); ours made in a turn holds the rest of that turn, and its outcome.
      outcome:
        runningNode === record.uuid
          ? 'running'
          : kind === 'exploration' || (kind === 'compaction' && record.type !== 'compaction')
            ? 'done'
            : outcomeOf(index, index.ends.get(record.uuid))
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

  // A summary of a branch left is drawn from where that branch ended.
  const summaryLinks: SessionGraph['summaryLinks'] = []
  for (const summary of tree.summaries()) {
    const record = summary.kind === 'branch_summary' ? tree.get(summary.uuid) : undefined
    const fromLeaf = record?.type === 'branch_summary' ? summarizedLeafOf(record) : null
    const from = fromLeaf === null ? undefined : owner.get(fromLeaf)
    if (from) summaryLinks.push({ from, to: summary.uuid })
  }

  // A merge is drawn from the node it brought in, on the other branch.
  const mergeLinks: NonNullable<SessionGraph['mergeLinks']> = []
  for (const head of index.heads) {
    if (head.type !== 'merge') continue
    const from = owner.get(head.fromUuid)
    if (from) mergeLinks.push({ from, to: head.uuid })
  }

  return {
    sessionId,
    nodes,
    leafUuid: tree.leafUuid,
    checkpointLinks,
    summaryLinks,
    mergeLinks,
    canUndo: marks.undo !== null,
    ...shown
  }
}

/** The graph node a record belongs to (null: a record before the first prompt, or unknown). */
export function ownerNode(index: TurnIndex, uuid: string | null): string | null {
  return uuid === null ? null : (index.owner.get(uuid) ?? null)
}

/**
 * The title of the node a record belongs to ("" for none), as the graph shows it for a turn, a
 * summary or an exploration (whose head is the agent's hidden checkpoint note, never its title).
 */
export function ownerTitle(tree: SessionTree, index: TurnIndex, uuid: string | null): string {
  const node = ownerNode(index, uuid)
  const record = node === null ? undefined : tree.get(node)
  if (record === undefined || node === null) return ''
  return index.nodes.get(node)?.kind === 'exploration'
    ? explorationTitle(tree, index, node)
    : nodeTitle(record)
}

/** The messages from the root to `leafUuid`, as the transcript panel shows them. */
export function buildTranscript(
  tree: SessionTree,
  leafUuid: string | null,
  index: TurnIndex = indexTurns(tree)
): TranscriptEntry[] {
  return tree
    .pathTo(leafUuid)
    .map((record) => transcriptEntry(record, index.owner.get(record.uuid) ?? record.uuid))
}

/**
 * The full text of a branch summary, a compaction or a rewind report node, with its times (and a
 * summary's file lists); null for a turn.
 */
export function nodeSummary(record: TreeRecord): NodeDetail['summary'] {
  if (record.type === 'branch_summary' || record.type === 'compaction') {
    const details = record.details as { startedAt?: unknown } | undefined
    const files = listsOf(record.details)
    return {
      text: cutForViews(record.summary),
      startedAt: typeof details?.startedAt === 'string' ? details.startedAt : null,
      rewoundAt: record.timestamp,
      readFiles: files.read,
      modifiedFiles: files.modified
    }
  }
  if (record.type === 'merge') {
    // When it was brought in: the page says "Written" and this time.
    return {
      text: cutForViews(mergeText(record, 'people')),
      startedAt: null,
      rewoundAt: record.timestamp
    }
  }
  if (record.type === 'custom_message') {
    const details = record.details as
      { report?: unknown; startedAt?: unknown; rewoundAt?: unknown } | undefined
    return {
      text: cutForViews(
        typeof details?.report === 'string' ? details.report : contentText(record.content)
      ),
      startedAt: typeof details?.startedAt === 'string' ? details.startedAt : null,
      rewoundAt: typeof details?.rewoundAt === 'string' ? details.rewoundAt : record.timestamp
    }
  }
  return null
}

/**
 * A record's text as the views send it (transcript, inspector, compare, export): at most
 * MAX_PERSIST_CHARS, which our own records never pass, in at most MAX_VIEW_ENTRIES entries.
 * Another tool's record can hold far more (a 20 MB command output went to the page whole, twice
 * for the inspector: 52 MB, 24 s).
 */
export function cutForViews<T>(value: T): T {
  // An image's data cut too, not the block replaced: the views name such a block by its type.
  return limitEntries(
    limitText(value, MAX_PERSIST_CHARS, notShown, false),
    MAX_VIEW_ENTRIES,
    notAllShown
  )
}

/**
 * A record as the inspector shows it raw: each field within the limit. (cutForViews of the record
 * itself would take it for a block of an unknown type and replace it whole.)
 */
export function cutRecordForViews(record: unknown): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return cutForViews(record)
  }
  let copy: Record<string, unknown> | null = null
  for (const [key, value] of Object.entries(record)) {
    const shown = limitText(value, MAX_PERSIST_CHARS, notShown, false)
    if (shown !== value) (copy ??= { ...record })[key] = shown
  }
  // Its shape bounded as a whole: a record of a million fields has no long one.
  return limitEntries(copy ?? record, MAX_VIEW_ENTRIES, notAllShown)
}

const notShown: CutNotice = (dropped, total) =>
  `\n\n[Rewind Studio shows part of this record: ${dropped} of its ${total} characters are left out here; the session file holds them all]`

/**
 * Array items and object fields a view sends of one record. Real ones hold far fewer (196 at
 * most in ../shared/corpus; a Claude Code edit's patch adds one per line changed); another tool's
 * record can hold any number (a tool input of 200,000 numbers went whole: 2.6 MB).
 */
const MAX_VIEW_ENTRIES = 20_000

const notAllShown: EntriesNotice = (dropped) =>
  `[Rewind Studio shows part of this record: ${dropped} more entries here are left out; the session file holds them all]`

/** One record as a transcript entry of graph node `nodeId`. */
export function transcriptEntry(record: TreeRecord, nodeId: string): TranscriptEntry {
  const base = { uuid: record.uuid, nodeId, timestamp: record.timestamp }
  switch (record.type) {
    case 'user':
      return {
        ...base,
        role: 'user',
        isPrompt: isPrompt(record),
        hidden: record.isMeta === true,
        content: cutForViews(record.message.content)
      }
    case 'assistant':
      return {
        ...base,
        role: 'assistant',
        isPrompt: false,
        hidden: false,
        content: cutForViews(record.message.content)
      }
    case 'branch_summary':
    case 'compaction':
      return {
        ...base,
        role: 'summary',
        isPrompt: false,
        hidden: false,
        content: cutForViews(record.summary)
      }
    case 'custom_message':
      return {
        ...base,
        role: 'note',
        isPrompt: false,
        hidden: record.hidden,
        content: cutForViews(record.content)
      }
    case 'merge':
      return {
        ...base,
        role: 'summary',
        isPrompt: false,
        hidden: false,
        content: cutForViews(mergeText(record, 'people'))
      }
  }
}

/** The id of a sub-agent run's graph node. */
export function subagentNodeId(run: Pick<SubagentRun, 'id'>): string {
  return `subagent:${run.id}`
}

/**
 * A node per sub-agent run, under the node of the tool call that ran it (a run whose call was
 * not found is a root); a sub-agent's own sub-agent under the node of the run that ran it, which
 * holds that run's whole transcript (the readers list a run before those it started). It sits
 * on the active path with its parent; it has no branch of its own in the conversation, so
 * "switch to" it goes where its parent's does.
 */
export function subagentNodes(
  runs: readonly SubagentRun[],
  index: TurnIndex,
  nodes: readonly GraphNode[]
): GraphNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  return runs.map((run) => {
    const parentId =
      run.parentRunId !== null
        ? subagentNodeId({ id: run.parentRunId })
        : run.parentUuid === null
          ? null
          : (index.owner.get(run.parentUuid) ?? null)
    const parent = parentId === null ? undefined : byId.get(parentId)
    const first = run.tree.pathTo(run.tree.leafUuid)[0]
    const node: GraphNode = {
      id: subagentNodeId(run),
      parentId: parent === undefined ? null : parent.id,
      kind: 'subagent',
      title: firstLine(run.title),
      timestamp: first?.timestamp ?? '',
      filesChanged: 0,
      onActivePath: parent?.onActivePath ?? false,
      branchLeafUuid: parent?.branchLeafUuid ?? subagentNodeId(run),
      label: null,
      // A transcript on disk: the run ended (how is the tool result's to say, under its parent).
      outcome: 'done'
    }
    byId.set(node.id, node)
    return node
  })
}

/**
 * The records of a node as the log holds them (NodeDetail.raw): its drawn records with every
 * field, and the records the tree does not draw that belong with it (another tool's progress,
 * system or unknown records, anchored to a drawn record; our unknown types, by their parent).
 */
export function rawRecordsOf(
  tree: SessionTree,
  index: TurnIndex,
  nodeId: string,
  lines: readonly number[] | null
): { line: number | null; record: unknown }[] {
  const out: { line: number | null; record: unknown }[] = []
  const ownerOf = (uuid: unknown) =>
    typeof uuid === 'string' ? (index.owner.get(uuid) ?? null) : null
  tree.records.forEach((record, i) => {
    const line = lines?.[i] ?? null
    if (isForeignRecord(record)) {
      if (ownerOf(record.anchor) === nodeId)
        out.push({ line, record: cutRecordForViews(record.value) })
      return
    }
    const r = record as { uuid?: unknown; parentUuid?: unknown; type?: unknown } | null
    if (typeof r?.uuid !== 'string') return
    const drawn = tree.get(r.uuid) === record
    if (
      drawn
        ? ownerOf(r.uuid) === nodeId
        : !isKnownRecordType(r.type) && ownerOf(r.parentUuid) === nodeId
    )
      out.push({ line, record: cutRecordForViews(record) })
  })
  return out
}
