// The one tree model of a session, built from its records in file order. Pure: no I/O. The CLI,
// the studio and the renderer's projections all read a session through this class, so they agree
// on what a branch, the leaf, the active path and a checkpoint are.
//
// Conversation nodes are user, assistant, branch_summary and custom_message records. file_change
// and label records are metadata attached to a node; rewind and navigate records only move the
// leaf; the header (line 1) and record types this version does not know are kept and ignored.
//
// Leaf rule (explicit, never "the last line"): scanning in file order, a conversation node sets
// leaf := its uuid; rewind / navigate set leaf := their leafUuid; every other record leaves it.
import type {
  AssistantRecord,
  BranchSummaryRecord,
  CustomMessageRecord,
  FileChangeRecord,
  LabelRecord,
  NavigateRecord,
  RewindRecord,
  SessionHeader,
  UserRecord
} from './records'
import { isObject, isString, type Json } from './json'
import type { LoadProblemKind } from './problems'
import type { ContentBlock, MessageContent } from '../../shared/messages'

export type TreeRecord = UserRecord | AssistantRecord | BranchSummaryRecord | CustomMessageRecord

export interface Checkpoint {
  /** 1-based position along the path. */
  index: number
  /** The prompt record's uuid. */
  uuid: string
  prompt: string
  /** Distinct paths among the file_change records of this checkpoint. */
  filesChanged: number
  timestamp: string
}

export interface SummaryEntry {
  uuid: string
  fromId: string
  summary: string
  kind: 'branch_summary' | 'rewind_report'
  details: unknown
}

/** A problem found in the records; `index` is the record's position in the list given. */
export interface TreeProblem {
  index: number
  kind: LoadProblemKind
  message: string
}

/** The custom_message type oh-my-pi's rewind writes after its branch_summary. */
export const REWIND_REPORT_TYPE = 'rewind-report'

type Classified =
  | { role: 'header'; record: SessionHeader }
  | { role: 'node'; record: TreeRecord }
  | { role: 'leaf-move'; record: RewindRecord | NavigateRecord }
  | { role: 'label'; record: LabelRecord }
  | { role: 'file-change'; record: FileChangeRecord }
  | { role: 'unknown' }
  | { role: 'invalid'; reason: string }

export class SessionTree {
  private readonly all: unknown[] = []
  private headerRecord: SessionHeader | null = null
  private readonly nodes = new Map<string, TreeRecord>()
  private readonly nodeIndex = new Map<string, number>()
  /** Every uuid seen (any record type), for duplicate detection. */
  private readonly seen = new Set<string>()
  /** The parent a node is drawn under: null for roots, missing parents and cycle breakers. */
  private readonly parentOf = new Map<string, string | null>()
  private readonly childrenOf = new Map<string | null, TreeRecord[]>([[null, []]])
  /** Nodes whose parent has not appeared (yet): uuid of the parent → waiting children. */
  private readonly waiting = new Map<string, TreeRecord[]>()
  private readonly fixedProblems: TreeProblem[] = []
  private readonly fileChangesOf = new Map<string, FileChangeRecord[]>()
  private readonly labelMap = new Map<string, string>()
  private readonly summaryList: SummaryEntry[] = []
  private leaf: string | null = null
  private cachedPath: TreeRecord[] | null = null
  private cachedLeaves: string[] | null = null

  static fromRecords(records: readonly unknown[]): SessionTree {
    const tree = new SessionTree()
    for (const record of records) tree.addRecord(record)
    return tree
  }

  /** The store calls this after each append, so tree() stays current without a rebuild. */
  addRecord(value: unknown): void {
    const index = this.all.length
    this.all.push(value)
    this.cachedPath = null
    this.cachedLeaves = null
    const c = classify(value, index)
    if (index === 0 && c.role !== 'header' && c.role !== 'invalid') {
      this.problem(0, 'invalid-record', 'the first line is not a session header')
    }
    if (c.role === 'invalid') return this.problem(index, 'invalid-record', c.reason)
    if (c.role === 'unknown') return
    if (!this.claimUuid(c.record.uuid, index)) return
    switch (c.role) {
      case 'header':
        this.headerRecord = c.record
        return
      case 'node':
        this.addNode(c.record, index)
        this.leaf = c.record.uuid
        return
      case 'leaf-move': {
        const target = c.record.leafUuid
        if (target !== null && !this.nodes.has(target)) {
          return this.problem(
            index,
            'invalid-record',
            `${c.record.type} names leaf ${target}, which is no message in the file: the leaf stays where it was`
          )
        }
        this.leaf = target
        return
      }
      case 'label':
        if (c.record.label === null) this.labelMap.delete(c.record.targetUuid)
        else this.labelMap.set(c.record.targetUuid, c.record.label)
        return
      case 'file-change': {
        const list = this.fileChangesOf.get(c.record.checkpointUuid)
        if (list === undefined) this.fileChangesOf.set(c.record.checkpointUuid, [c.record])
        else list.push(c.record)
        return
      }
      default:
        return assertNever(c, 'record role')
    }
  }

  /** Every record given, in order, including unknown and invalid ones. */
  get records(): readonly unknown[] {
    return this.all
  }

  get header(): SessionHeader | null {
    return this.headerRecord
  }

  get leafUuid(): string | null {
    return this.leaf
  }

  get size(): number {
    return this.nodes.size
  }

  get problems(): TreeProblem[] {
    const missing: TreeProblem[] = []
    for (const [parent, children] of this.waiting) {
      for (const child of children) {
        missing.push({
          index: this.nodeIndex.get(child.uuid) ?? -1,
          kind: 'missing-parent',
          message: `parent ${parent} of ${child.uuid} is not in the file: shown as a root`
        })
      }
    }
    return [...this.fixedProblems, ...missing].sort((a, b) => a.index - b.index)
  }

  get(uuid: string): TreeRecord | undefined {
    return this.nodes.get(uuid)
  }

  /** Children in file order; null gives the roots. */
  children(uuid: string | null): TreeRecord[] {
    return this.childrenOf.get(uuid) ?? []
  }

  /** Uuids of the nodes with no children: one per branch, in file order. */
  leaves(): string[] {
    if (this.cachedLeaves === null) {
      const leaves: string[] = []
      for (const uuid of this.nodes.keys()) {
        if ((this.childrenOf.get(uuid)?.length ?? 0) === 0) leaves.push(uuid)
      }
      this.cachedLeaves = leaves
    }
    return this.cachedLeaves
  }

  /** The nodes from a root down to `uuid` (empty for null or an unknown uuid). */
  pathTo(uuid: string | null): TreeRecord[] {
    const path: TreeRecord[] = []
    let at = uuid
    while (at !== null) {
      const node = this.nodes.get(at)
      if (node === undefined) break
      path.push(node)
      at = this.parentOf.get(at) ?? null
    }
    return path.reverse()
  }

  activePath(): TreeRecord[] {
    if (this.cachedPath === null) this.cachedPath = this.pathTo(this.leaf)
    return this.cachedPath
  }

  /** The user-typed prompts along a path (default: the active path), numbered from 1. */
  checkpoints(path: readonly TreeRecord[] = this.activePath()): Checkpoint[] {
    const out: Checkpoint[] = []
    for (const r of path) {
      if (r.type !== 'user' || !isPrompt(r)) continue
      out.push({
        index: out.length + 1,
        uuid: r.uuid,
        prompt: promptText(r),
        filesChanged: new Set(this.fileChanges(r.uuid).map((f) => f.path)).size,
        timestamp: r.timestamp
      })
    }
    return out
  }

  fileChanges(checkpointUuid: string): FileChangeRecord[] {
    return this.fileChangesOf.get(checkpointUuid) ?? []
  }

  /** Branch summaries and rewind reports, in file order. */
  summaries(): SummaryEntry[] {
    return this.summaryList
  }

  /** Current label per node (the latest label record wins; a null label removes it). */
  labels(): Map<string, string> {
    return this.labelMap
  }

  private claimUuid(uuid: string, index: number): boolean {
    if (this.seen.has(uuid)) {
      this.problem(index, 'duplicate-uuid', `uuid ${uuid} was used before: this record is ignored`)
      return false
    }
    this.seen.add(uuid)
    return true
  }

  private addNode(node: TreeRecord, index: number): void {
    this.nodes.set(node.uuid, node)
    this.nodeIndex.set(node.uuid, index)
    this.childrenOf.set(node.uuid, [])
    const parent = node.parentUuid
    if (parent === null || this.nodes.has(parent)) {
      this.link(node, parent)
    } else {
      // Shown as a root until its parent turns up (a parent later in the file: hand-edited).
      this.link(node, null)
      const list = this.waiting.get(parent)
      if (list === undefined) this.waiting.set(parent, [node])
      else list.push(node)
    }
    this.adoptWaitingChildren(node)
    this.recordSummary(node)
  }

  private adoptWaitingChildren(parent: TreeRecord): void {
    const children = this.waiting.get(parent.uuid)
    if (children === undefined) return
    this.waiting.delete(parent.uuid)
    for (const child of children) {
      if (this.pathTo(parent.uuid).includes(child)) {
        this.problem(
          this.nodeIndex.get(child.uuid) ?? -1,
          'cycle',
          `parentUuid of ${child.uuid} leads back to itself through ${parent.uuid}: shown as a root`
        )
        continue
      }
      const roots = this.childrenOf.get(null) ?? []
      roots.splice(roots.indexOf(child), 1)
      this.link(child, parent.uuid)
    }
  }

  private link(node: TreeRecord, parent: string | null): void {
    this.parentOf.set(node.uuid, parent)
    const siblings = this.childrenOf.get(parent)
    if (siblings === undefined) return
    const at = this.nodeIndex.get(node.uuid) ?? 0
    // Keep file order; only a forward reference lands anywhere but the end.
    let i = siblings.length
    while (i > 0 && (this.nodeIndex.get(siblings[i - 1]?.uuid ?? '') ?? 0) > at) i--
    siblings.splice(i, 0, node)
  }

  private recordSummary(node: TreeRecord): void {
    if (node.type === 'branch_summary') {
      this.summaryList.push({
        uuid: node.uuid,
        fromId: node.fromId,
        summary: node.summary,
        kind: 'branch_summary',
        details: node.details
      })
    } else if (node.type === 'custom_message' && node.customType === REWIND_REPORT_TYPE) {
      this.summaryList.push({
        uuid: node.uuid,
        fromId: node.parentUuid ?? 'root',
        summary: contentText(node.content),
        kind: 'rewind_report',
        details: node.details
      })
    }
  }

  private problem(index: number, kind: LoadProblemKind, message: string): void {
    this.fixedProblems.push({ index, kind, message })
  }
}

const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g

/** A message a person typed: not harness-written, not a tool result, not only system reminders. */
export function isPrompt(r: TreeRecord): boolean {
  if (r.type !== 'user' || r.isMeta === true) return false
  const content = r.message.content
  if (typeof content !== 'string' && content.some((b) => b.type === 'tool_result')) return false
  return promptText(r) !== ''
}

/** The typed text of a user message, without system reminders. */
export function promptText(r: UserRecord): string {
  return contentText(r.message.content).replace(SYSTEM_REMINDER, '').trim()
}

/** The text blocks of a content, joined by blank lines. */
export function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content
  return content
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n\n')
}

export function assertNever(x: never, what: string): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(x)}`)
}

// Load-time checks. Opening a session must cost about what JSON.parse costs (bench/session-open.ts),
// and a zod parse of every record does not fit that budget, so loading checks only the fields the
// tree reads. Records are fully validated by their zod schemas when appended (store.ts), so files
// we wrote pass; these checks keep a hand-edited or foreign record from breaking the tree.

const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string'

function isContent(v: unknown): v is MessageContent {
  if (typeof v === 'string') return true
  if (!Array.isArray(v)) return false
  for (const block of v) if (!isObject(block) || !isString(block.type)) return false
  return true
}

function baseFault(r: Json): string | null {
  if (!isString(r.uuid) || r.uuid === '') return 'no uuid'
  if (!isNullableString(r.parentUuid) || r.parentUuid === '')
    return 'parentUuid is not a uuid or null'
  if (!isString(r.timestamp)) return 'no timestamp'
  return null
}

const FAULTS: Record<string, (r: Json) => string | null> = {
  session: (r) =>
    typeof r.version === 'number' && isString(r.sessionId) && isString(r.cwd)
      ? null
      : 'a session header needs version, sessionId and cwd',
  user: (r) => messageFault(r, 'user'),
  assistant: (r) => messageFault(r, 'assistant'),
  branch_summary: (r) =>
    isString(r.fromId) && isString(r.summary) ? null : 'a branch_summary needs fromId and summary',
  custom_message: (r) =>
    isString(r.customType) && typeof r.hidden === 'boolean' && isContent(r.content)
      ? null
      : 'a custom_message needs customType, hidden and content',
  rewind: (r) =>
    isNullableString(r.leafUuid) &&
    isString(r.checkpointUuid) &&
    (r.mode === 'both' || r.mode === 'conversation' || r.mode === 'code')
      ? null
      : 'a rewind needs leafUuid, checkpointUuid and mode',
  navigate: (r) => (isNullableString(r.leafUuid) ? null : 'a navigate record needs leafUuid'),
  label: (r) =>
    isString(r.targetUuid) && isNullableString(r.label)
      ? null
      : 'a label needs targetUuid and label',
  file_change: (r) =>
    isString(r.checkpointUuid) &&
    isString(r.path) &&
    isNullableString(r.before) &&
    isNullableString(r.after)
      ? null
      : 'a file_change needs checkpointUuid, path, before and after'
}

function messageFault(r: Json, role: 'user' | 'assistant'): string | null {
  const m = r.message
  if (!isObject(m) || m.role !== role) return `a ${role} record needs message.role "${role}"`
  return isContent(m.content) ? null : 'message.content is not text or a list of blocks'
}

function classify(value: unknown, index: number): Classified {
  if (!isObject(value)) return { role: 'invalid', reason: 'not a JSON object' }
  const type = value.type
  if (!isString(type)) return { role: 'invalid', reason: 'no type' }
  const fault = FAULTS[type]
  if (fault === undefined) return { role: 'unknown' }
  const problem = baseFault(value) ?? fault(value)
  if (problem !== null) return { role: 'invalid', reason: `${type}: ${problem}` }
  if (type === 'session' && index !== 0) {
    return { role: 'invalid', reason: 'a session header after the first line' }
  }
  // The checks above cover every field the tree reads; the rest of the record keeps its JSON form.
  switch (type) {
    case 'session':
      return { role: 'header', record: value as SessionHeader }
    case 'user':
    case 'assistant':
    case 'branch_summary':
    case 'custom_message':
      return { role: 'node', record: value as TreeRecord }
    case 'rewind':
    case 'navigate':
      return { role: 'leaf-move', record: value as RewindRecord | NavigateRecord }
    case 'label':
      return { role: 'label', record: value as LabelRecord }
    case 'file_change':
      return { role: 'file-change', record: value as FileChangeRecord }
    default:
      return { role: 'unknown' }
  }
}
