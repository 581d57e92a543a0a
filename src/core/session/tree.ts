// The one tree model of a session, built from its records in file order. Pure: no I/O. The CLI,
// the studio and the renderer's projections all read a session through this class, so they agree
// on what a branch, the leaf, the active path and a checkpoint are.
//
// Conversation nodes are user, assistant, branch_summary, compaction, custom_message and merge
// records.
// file_change and label records are metadata attached to a node (a file change to its turn's
// prompt; one an earlier version wrote for a code-only restore, isRestoreChange, to no turn);
// rewind and navigate records only move the leaf; the header (line 1) and record types this
// version does not know are kept and ignored.
//
// Leaf rule (explicit, never "the last line"): scanning in file order, a conversation node sets
// leaf := its uuid; rewind / navigate set leaf := their leafUuid; every other record leaves it.
import type {
  AssistantRecord,
  BranchSummaryRecord,
  CompactionRecord,
  CustomMessageRecord,
  FileChangeRecord,
  LabelRecord,
  MergeRecord,
  NavigateRecord,
  RewindRecord,
  SessionHeader,
  UntrackedChangesRecord,
  UserRecord
} from './records'
import { type LoadProblemKind, ProblemLog } from './problems'
import { UuidIndex } from './uuid-index'
import { classify, isRestoreChange } from './record-checks'
import { assertNever } from '../../shared/assert-never'
import { contentText, startsTurn, typedPrompt } from './record-text'

export type TreeRecord =
  | UserRecord
  | AssistantRecord
  | BranchSummaryRecord
  | CompactionRecord
  | CustomMessageRecord
  | MergeRecord

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
  kind: 'branch_summary' | 'rewind_report' | 'compaction'
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

/** The custom_message type a pi or oh-my-pi compaction is drawn as (foreign/pi.ts). */
export const PI_COMPACTION_TYPE = 'pi:compaction'
/** The custom_message type a Codex CLI compaction is drawn as (foreign/codex.ts). */
export const CODEX_COMPACTION_TYPE = 'codex:compaction'
/** The custom_message type a Gemini CLI chat compression is drawn as (foreign/gemini-cli.ts). */
export const GEMINI_COMPACTION_TYPE = 'gemini-cli:compaction'

/**
 * The custom_message types other tools' compactions are drawn as: each holds the summary as the
 * tool sent it to its model (a user message), so continuing sends it so again.
 */
const FOREIGN_COMPACTION_TYPES: ReadonlySet<string> = new Set([
  PI_COMPACTION_TYPE,
  CODEX_COMPACTION_TYPE,
  GEMINI_COMPACTION_TYPE
])

/** Whether a custom_message is another tool's compaction (see FOREIGN_COMPACTION_TYPES). */
export function isForeignCompactionType(customType: string): boolean {
  return FOREIGN_COMPACTION_TYPES.has(customType)
}

/**
 * A compaction: ours (a compaction record), or another tool's as its reader draws it: Claude
 * Code's summary (a user record, isCompactSummary), or pi's, Codex CLI's and Gemini CLI's (a
 * custom_message of FOREIGN_COMPACTION_TYPES).
 */
export function isCompactionRecord(record: TreeRecord): boolean {
  return (
    record.type === 'compaction' ||
    (record.type === 'user' &&
      (record as { isCompactSummary?: unknown }).isCompactSummary === true) ||
    (record.type === 'custom_message' && isForeignCompactionType(record.customType))
  )
}

/**
 * The hidden note a turn stopped before the model answered ends with (agent.ts): without it the
 * log of such a turn would read like one whose model call failed.
 */
export const TURN_STOPPED_TYPE = 'turn-stopped'

/** How many nodes past the one found last a lookup tries before it searches (ordinal). */
const NEAR_AHEAD = 8

/** Node ordinal "none" (no parent, no child), and the ordinal of a uuid that is not a node. */
const NONE = -1
const OTHER = -2

/**
 * The problem of a file whose first line is no header of ours. Only such a file gets here: one of
 * another tool's formats is read by its own reader (load.ts).
 */
export const NOT_A_SESSION =
  "not a session Rewind Studio reads (its own, Claude Code's, pi's, oh-my-pi's, Codex CLI's, Gemini CLI's or OpenCode's)"

export class SessionTree {
  private readonly all: unknown[] = []
  private headerRecord: SessionHeader | null = null
  // Opening a 100k-record session must cost about what JSON.parse costs (bench/session-open.ts),
  // so the tree allocates nothing per node: every uuid maps to a number (a node's ordinal, or
  // OTHER for records that are not nodes) and the nodes live in parallel columns of Int32Arrays
  // (grown together, by doubling), their children as linked lists of ordinals. One lookup and one
  // insert per record (for ids in the order ours are made, a comparison and a push: UuidIndex),
  // plus a lookup for a parent that is not the node before.
  private readonly ids = new UuidIndex()
  private readonly nodeRecord: TreeRecord[] = []
  /** How many nodes the columns below have room for. */
  private capacity = 0
  /** Position of each node in the records given. */
  private nodeIndex = new Int32Array(0)
  /** The parent a node is drawn under: NONE for roots, missing parents and cycle breakers. */
  private nodeParent = new Int32Array(0)
  private firstChild = new Int32Array(0)
  private lastChild = new Int32Array(0)
  private nextSibling = new Int32Array(0)
  /**
   * Each node's turn (turnOf), found when first asked: 0 not yet, 1 none, else its prompt's
   * ordinal + 2 (so the zeros a column grows with mean "not yet"). A node's turn changes only
   * when a node it descends from is adopted (turnsStale): an append keeps every answer.
   */
  private turnColumn = new Int32Array(0)
  private turnsStale = false
  /**
   * The roots in file order, and nodes adopted since they were added (a child that came before
   * its parent): those are dropped in one pass when the roots are next asked for, not one
   * splice per adoption (quadratic for a file of many children waiting for one parent).
   */
  private roots: number[] = []
  private rootsHoldAdopted = false
  /**
   * Union-find over nodes, one set per drawn tree: adopting a waiting child would close a cycle
   * exactly when the child (always a root) and its new parent are already in one tree. A walk up
   * the parent's path per adoption instead costs the path's length each time: quadratic for a
   * crafted file of a long chain whose every node adopts a child written before it.
   * Made when the first child is adopted (most files have none), from the links so far: until
   * then every parent came before its child.
   */
  private treeLink: Int32Array | null = null
  private treeSize = new Int32Array(0)
  /** Nodes whose parent has not appeared (yet): uuid of the parent → waiting children. */
  private readonly waiting = new Map<string, number[]>()
  private readonly fixedProblems = new ProblemLog<TreeProblem>()
  private readonly fileChangesOf = new Map<string, FileChangeRecord[]>()
  private readonly restoreChangeList: FileChangeRecord[] = []
  /** The file_change records fileChangesOf holds, in file order (turnFileChanges). */
  private readonly turnChangeList: FileChangeRecord[] = []
  private readonly untrackedOf = new Map<string, UntrackedChangesRecord[]>()
  private readonly labelMap = new Map<string, string>()
  private readonly summaryList: SummaryEntry[] = []
  private leaf: string | null = null
  private cachedPath: TreeRecord[] | null = null
  private cachedLeaves: string[] | null = null
  /** branchLeafOf's answers by ordinal (a leaf's ordinal), made when first asked. */
  private cachedBranchLeaf: Int32Array | null = null
  /** The node `ordinal` found last: the next lookup tries the node after it first. */
  private lastFound = -1

  static fromRecords(records: readonly unknown[]): SessionTree {
    const tree = new SessionTree()
    tree.grow(records.length)
    for (const record of records) tree.addRecord(record)
    return tree
  }

  /** The store calls this after each append, so tree() stays current without a rebuild. */
  addRecord(value: unknown): void {
    const index = this.all.length
    this.all.push(value)
    this.cachedPath = null
    this.cachedLeaves = null
    this.cachedBranchLeaf = null
    const role = classify(value, index)
    if (index === 0 && role !== 'header' && typeof role === 'string') {
      this.problem(0, 'invalid-record', NOT_A_SESSION)
    }
    if (typeof role !== 'string') return this.problem(index, 'invalid-record', role.invalid)
    if (role === 'unknown') return
    // classify() checked the fields each role reads; the rest keeps its JSON form.
    const record = value as { uuid: string }
    // Indexed at once, a node by the ordinal it is about to get: a node naming itself as its
    // parent finds itself.
    if (!this.ids.addNew(record.uuid, role === 'node' ? this.nodeRecord.length : OTHER)) {
      return this.problem(
        index,
        'duplicate-uuid',
        `uuid ${record.uuid} was used before: this record is ignored`
      )
    }
    switch (role) {
      case 'header':
        this.headerRecord = value as SessionHeader
        return
      case 'node':
        this.addNode(value as TreeRecord, index)
        this.leaf = record.uuid
        return
      case 'leaf-move': {
        const move = value as RewindRecord | NavigateRecord
        const target = move.leafUuid
        if (target !== null && !(this.ordinal(target) >= 0)) {
          return this.problem(
            index,
            'invalid-record',
            `${move.type} names leaf ${target}, which is no message in the file: the leaf stays where it was`
          )
        }
        this.leaf = target
        return
      }
      case 'label': {
        const label = value as LabelRecord
        if (label.label === null) this.labelMap.delete(label.targetUuid)
        else this.labelMap.set(label.targetUuid, label.label)
        return
      }
      case 'file-change': {
        const change = value as FileChangeRecord
        // A restore's own record (an earlier version's) names the turn it was filed under, but
        // that turn did not make the change: it is kept apart, never one of the turn's.
        if (isRestoreChange(change)) {
          this.restoreChangeList.push(change)
          return
        }
        const list = this.fileChangesOf.get(change.checkpointUuid)
        if (list === undefined) this.fileChangesOf.set(change.checkpointUuid, [change])
        else list.push(change)
        this.turnChangeList.push(change)
        return
      }
      case 'untracked': {
        const untracked = value as UntrackedChangesRecord
        const list = this.untrackedOf.get(untracked.checkpointUuid)
        if (list === undefined) this.untrackedOf.set(untracked.checkpointUuid, [untracked])
        else list.push(untracked)
        return
      }
      default:
        return assertNever(role, 'record role')
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

  /** Number of conversation nodes. */
  get size(): number {
    return this.nodeRecord.length
  }

  /** The first problems of each kind of check (ProblemLog); unlistedProblems counts the rest. */
  get problems(): TreeProblem[] {
    return [...this.fixedProblems.listed, ...this.missingParents().listed].sort(
      (a, b) => a.index - b.index
    )
  }

  /** Problems found past those `problems` lists. */
  get unlistedProblems(): number {
    return this.fixedProblems.unlisted + this.missingParents().unlisted
  }

  /** A problem per node whose parent never came; past the list only counted, none made. */
  private missingParents(): ProblemLog<TreeProblem> {
    const missing = new ProblemLog<TreeProblem>()
    for (const [parent, children] of this.waiting) {
      for (const child of children) {
        if (missing.full) missing.unlisted++
        else {
          missing.add({
            index: this.nodeIndex[child] ?? -1,
            kind: 'missing-parent',
            message: `parent ${parent} of ${this.uuidOf(child)} is not in the file: shown as a root`
          })
        }
      }
    }
    return missing
  }

  /** Whether any record (a node, a label, a file change, a leaf move) has this uuid. */
  has(uuid: string): boolean {
    return this.ids.has(uuid)
  }

  get(uuid: string): TreeRecord | undefined {
    return this.nodeRecord[this.ordinal(uuid)]
  }

  /**
   * A node's number: its place among the nodes in the order they were added (0 to size - 1),
   * for good; -1 for a uuid that is no node. The views keep what they work out per node in
   * arrays by it (views/record-owners.ts) rather than in maps of uuids. Asked in the order of a
   * walk down the tree, it costs a comparison or two (ordinal).
   */
  nodeNumber(uuid: string): number {
    const n = this.ordinal(uuid)
    return n >= 0 ? n : -1
  }

  /** Children in file order; null gives the roots. */
  children(uuid: string | null): TreeRecord[] {
    if (uuid === null) return this.rootNodes().map((n) => this.recordOf(n))
    const out: TreeRecord[] = []
    for (
      let c = this.firstChild[this.ordinal(uuid)] ?? NONE;
      c !== NONE;
      c = this.nextSibling[c] ?? NONE
    ) {
      out.push(this.recordOf(c))
    }
    return out
  }

  /** Uuids of the nodes with no children: one per branch, in file order. */
  leaves(): string[] {
    if (this.cachedLeaves === null) {
      const leaves: string[] = []
      for (let n = 0; n < this.nodeRecord.length; n++) {
        if (this.firstChild[n] === NONE) leaves.push(this.uuidOf(n))
      }
      this.cachedLeaves = leaves
    }
    return this.cachedLeaves
  }

  /**
   * The newest leaf below a node: the leaves (leaves()), the latest first, each claim the nodes
   * up its records' parentUuid links that no later leaf claimed; undefined for a node none
   * reaches (an unknown uuid). A link another tool's record stands for (standFor) is no
   * parentUuid of the node: the walk stops there. By ordinal, once per shape of the tree: the
   * graph asks it of every node it draws (a map of every record's uuid cost a 500 MB log
   * 600,000 entries).
   */
  branchLeafOf(uuid: string): string | undefined {
    if (this.cachedBranchLeaf === null) {
      const column = new Int32Array(this.nodeRecord.length).fill(NONE)
      for (let leaf = this.nodeRecord.length - 1; leaf >= 0; leaf--) {
        if (this.firstChild[leaf] !== NONE) continue
        for (let n = leaf; n >= 0 && column[n] === NONE; n = this.namedParent(n)) column[n] = leaf
      }
      this.cachedBranchLeaf = column
    }
    const n = this.ordinal(uuid)
    const leaf = n < 0 ? NONE : (this.cachedBranchLeaf[n] ?? NONE)
    return leaf === NONE ? undefined : this.uuidOf(leaf)
  }

  /** The node a node's parentUuid names (its drawn parent, mostly), or a negative ordinal. */
  private namedParent(n: number): number {
    const parentUuid = this.recordOf(n).parentUuid
    if (parentUuid === null) return NONE
    const drawn = this.nodeParent[n] ?? NONE
    return drawn >= 0 && this.uuidOf(drawn) === parentUuid ? drawn : this.ordinal(parentUuid)
  }

  /** The nodes from a root down to `uuid` (empty for null or an unknown uuid). */
  pathTo(uuid: string | null): TreeRecord[] {
    const path: TreeRecord[] = []
    for (
      let n = uuid === null ? NONE : this.ordinal(uuid);
      n >= 0;
      n = this.nodeParent[n] ?? NONE
    ) {
      path.push(this.recordOf(n))
    }
    return path.reverse()
  }

  /**
   * Every node, depth first in file order: a node, its first child's whole subtree, then its
   * later children's. `forks`: how many later children (forks) lie on the way from its root;
   * `isFork`: it is one. By ordinal and iterative, so a 100k-deep chain neither overflows the
   * stack nor costs a lookup or an array per node (inspect of a 100 MB log visits 120,000).
   */
  forEachDepthFirst(visit: (record: TreeRecord, forks: number, isFork: boolean) => void): void {
    // Pending subtrees as (node, forks) pairs, a fork being any node pushed with forks > its
    // parent's; the first child is not pushed: the walk goes straight on to it.
    const pending: number[] = []
    const roots = this.rootNodes()
    for (let i = roots.length - 1; i >= 0; i--) pending.push(roots[i] ?? NONE, 0, 0)
    const later: number[] = []
    while (pending.length > 0) {
      const isFork = pending.pop() === 1
      const forks = pending.pop() ?? 0
      let n = pending.pop() ?? NONE
      for (let fork = isFork; n !== NONE; fork = false) {
        visit(this.recordOf(n), forks, fork)
        const first = this.firstChild[n] ?? NONE
        if (first !== NONE) {
          later.length = 0
          for (let c = this.nextSibling[first] ?? NONE; c !== NONE; c = this.nextSibling[c] ?? NONE)
            later.push(c)
          for (let i = later.length - 1; i >= 0; i--) pending.push(later[i] ?? NONE, forks + 1, 1)
        }
        n = first
      }
    }
  }

  activePath(): TreeRecord[] {
    if (this.cachedPath === null) this.cachedPath = this.pathTo(this.leaf)
    return this.cachedPath
  }

  /** The user-typed prompts along a path (default: the active path), numbered from 1. */
  checkpoints(path: readonly TreeRecord[] = this.activePath()): Checkpoint[] {
    const out: Checkpoint[] = []
    for (const r of path) {
      const prompt = typedPrompt(r)
      if (prompt === null) continue
      out.push({
        index: out.length + 1,
        uuid: r.uuid,
        prompt,
        filesChanged: distinctPaths(this.fileChanges(r.uuid)),
        timestamp: r.timestamp
      })
    }
    return out
  }

  /**
   * The latest checkpoint along a path (default: the active path): checkpoints().at(-1)'s uuid,
   * found from the end without listing every checkpoint (and the files each changed) before it.
   */
  lastCheckpointUuid(path: readonly TreeRecord[] = this.activePath()): string | null {
    for (let i = path.length - 1; i >= 0; i--) {
      const record = path[i] as TreeRecord
      if (typedPrompt(record) !== null) return record.uuid
    }
    return null
  }

  /** What the turn of this prompt changed, in file order (never a restore's records). */
  fileChanges(checkpointUuid: string): FileChangeRecord[] {
    return this.fileChangesOf.get(checkpointUuid) ?? []
  }

  /**
   * What every turn of the session changed, on every branch, in file order: each record
   * fileChanges gives (never a restore's, nor one whose uuid was used before). Kept as the records
   * are added: the files marker and the touched-files watch ask it on every open, and finding
   * them among a 500 MB log's 600,000 records cost a pass and a set of them each time.
   */
  turnFileChanges(): readonly FileChangeRecord[] {
    return this.turnChangeList
  }

  /**
   * The file_change records earlier versions wrote for code-only restores (isRestoreChange), in
   * file order: changes the session made to the disk, but no turn's.
   */
  restoreChanges(): readonly FileChangeRecord[] {
    return this.restoreChangeList
  }

  /**
   * The prompt whose turn a node is in: the latest prompt on its path, the node itself for a
   * prompt (null: none, or no such node). A merge is a turn of its own (startsTurn). Each node's answer is kept until the next record, so
   * asking it of every node costs one walk up each turn.
   */
  turnOf(uuid: string | null): string | null {
    const start = uuid === null ? NONE : this.ordinal(uuid)
    if (start < 0) return null
    if (this.turnsStale) {
      this.turnColumn.fill(0)
      this.turnsStale = false
    }
    // Up to the first node whose turn is known, or a prompt; then the answer down that way.
    let found = 1
    let n = start
    for (; n >= 0; n = this.nodeParent[n] ?? NONE) {
      const known = this.turnColumn[n] ?? 0
      if (known !== 0) {
        found = known
        break
      }
      if (startsTurn(this.recordOf(n))) {
        found = n + 2
        this.turnColumn[n] = found
        break
      }
    }
    for (let m = start; m >= 0 && m !== n; m = this.nodeParent[m] ?? NONE)
      this.turnColumn[m] = found
    if (found === 1) return null
    // The prompt is where the next lookup starts (ordinal): a walk of the turns behind a node
    // (file-lineage.ts) asks for the prompt, then its parent, the node before it.
    this.lastFound = found - 2
    return this.uuidOf(found - 2)
  }

  /** The node a node is drawn under (undefined for a root or an unknown uuid). */
  parentOf(uuid: string): TreeRecord | undefined {
    const n = this.ordinal(uuid)
    return n < 0 ? undefined : this.nodeRecord[this.nodeParent[n] ?? NONE]
  }

  /** What commands changed during a checkpoint that file history could not back up. */
  untrackedChanges(checkpointUuid: string): UntrackedChangesRecord[] {
    return this.untrackedOf.get(checkpointUuid) ?? []
  }

  /** Branch summaries, rewind reports and compactions (another tool's too), in file order. */
  summaries(): SummaryEntry[] {
    return this.summaryList
  }

  /** Current label per node (the latest label record wins; a null label removes it). */
  labels(): Map<string, string> {
    return this.labelMap
  }

  /**
   * A node's ordinal; NONE for an unknown uuid, OTHER for a record that is not a node. The views
   * walk the tree in file order asking by uuid (the graph, the timeline's replay: millions of
   * lookups in a 500 MB log), down (a node after its parent) or up (a parent after its child),
   * so the node found last, its neighbours and the few after it are tried first: a string
   * comparison each (the same string, mostly) instead of a search or a hash. A node's uuid is its ordinal's for good
   * (nodes are only appended, a duplicate uuid is never one), so this is the index's answer.
   */
  private ordinal(uuid: string): number {
    const last = this.lastFound
    if (this.nodeRecord[last + 1]?.uuid === uuid) return (this.lastFound = last + 1)
    if (this.nodeRecord[last]?.uuid === uuid) return last
    if (last > 0 && this.nodeRecord[last - 1]?.uuid === uuid) return (this.lastFound = last - 1)
    // The graph asks for its nodes in the order of a walk down the tree: the next is a few
    // records on (a turn's prompt, answer and tool results before the next prompt).
    for (let n = last + 2; n <= last + NEAR_AHEAD; n++) {
      if (this.nodeRecord[n]?.uuid === uuid) return (this.lastFound = n)
    }
    const n = this.ids.get(uuid) ?? NONE
    if (n >= 0) this.lastFound = n
    return n
  }

  private recordOf(n: number): TreeRecord {
    const record = this.nodeRecord[n]
    if (record === undefined) throw new Error(`No node #${n}`)
    return record
  }

  private uuidOf(n: number): string {
    return this.recordOf(n).uuid
  }

  private addNode(record: TreeRecord, index: number): void {
    const n = this.nodeRecord.length
    if (n === this.capacity) this.grow(Math.max(16, n * 2))
    this.nodeRecord.push(record)
    this.nodeIndex[n] = index
    this.nodeParent[n] = NONE
    this.firstChild[n] = NONE
    this.lastChild[n] = NONE
    this.nextSibling[n] = NONE
    if (this.treeLink !== null) {
      this.treeLink[n] = n
      this.treeSize[n] = 1
    }
    const parent = record.parentUuid
    // Most nodes answer the node before them: that one is found without a lookup.
    const p =
      parent === null
        ? NONE
        : parent === this.nodeRecord[n - 1]?.uuid
          ? n - 1
          : this.ordinal(parent)
    if (p === n) {
      // Linked, it would be its own ancestor: every walk up from it would never end.
      this.roots.push(n)
      this.problem(index, 'cycle', `${record.uuid} names itself as its parent: shown as a root`)
    } else if (p >= 0) {
      this.link(p, n)
    } else {
      this.roots.push(n)
      if (parent !== null) {
        // Shown as a root until its parent turns up (a parent later in the file: hand-edited).
        const list = this.waiting.get(parent)
        if (list === undefined) this.waiting.set(parent, [n])
        else list.push(n)
      }
    }
    if (this.waiting.size > 0) this.adoptWaitingChildren(n)
    if (
      record.type === 'branch_summary' ||
      record.type === 'custom_message' ||
      record.type === 'compaction' ||
      (record.type === 'user' &&
        (record as { isCompactSummary?: unknown }).isCompactSummary === true)
    )
      this.recordSummary(record)
  }

  /** Room in the columns for `capacity` nodes (never less than they hold). */
  private grow(capacity: number): void {
    if (capacity <= this.capacity) return
    const column = (old: Int32Array) => {
      const grown = new Int32Array(capacity)
      grown.set(old)
      return grown
    }
    this.nodeIndex = column(this.nodeIndex)
    this.nodeParent = column(this.nodeParent)
    this.firstChild = column(this.firstChild)
    this.lastChild = column(this.lastChild)
    this.nextSibling = column(this.nextSibling)
    this.turnColumn = column(this.turnColumn)
    if (this.treeLink !== null) {
      this.treeLink = column(this.treeLink)
      this.treeSize = column(this.treeSize)
    }
    this.capacity = capacity
  }

  /** Makes `n` the last child of `p`, in one tree with it. */
  private link(p: number, n: number): void {
    this.nodeParent[n] = p
    const last = this.lastChild[p] ?? NONE
    if (last === NONE) this.firstChild[p] = n
    else this.nextSibling[last] = n
    this.lastChild[p] = n
    if (this.treeLink !== null) this.joinTrees(p, n)
  }

  /**
   * Links the nodes that named `p` as parent before it appeared. `p` was added just now, so it
   * has no children yet and its waiting children (listed in file order) are appended in order:
   * no walk to find each one's place among its siblings.
   */
  private adoptWaitingChildren(p: number): void {
    const parentUuid = this.uuidOf(p)
    const children = this.waiting.get(parentUuid)
    if (children === undefined) return
    this.waiting.delete(parentUuid)
    this.adopt(p, parentUuid, children)
  }

  /**
   * Another tool's record the tree does not draw (a link of its chain: an attachment, a model
   * change; foreign/parents.ts) came after nodes that named it as their parent: they hang from
   * `parent`, the drawn record it stands for, as later children of it do (after the children it
   * has). A root when `parent` is null; still waiting when `parent` has not come either.
   */
  standFor(id: string, parent: string | null): void {
    const children = this.waiting.get(id)
    if (children === undefined) return
    this.waiting.delete(id)
    this.cachedPath = null
    this.cachedLeaves = null
    this.cachedBranchLeaf = null
    if (parent === null) return
    const p = this.ordinal(parent)
    if (p >= 0) return this.adopt(p, id, children)
    const list = this.waiting.get(parent)
    if (list === undefined) this.waiting.set(parent, children)
    else list.push(...children)
  }

  private adopt(p: number, parentUuid: string, children: readonly number[]): void {
    for (const child of children) {
      if (this.treeOf(child) === this.treeOf(p)) {
        this.problem(
          this.nodeIndex[child] ?? -1,
          'cycle',
          `parentUuid of ${this.uuidOf(child)} leads back to itself through ${parentUuid}: shown as a root`
        )
        continue
      }
      this.link(p, child)
      this.rootsHoldAdopted = true
      this.turnsStale = true
    }
  }

  private rootNodes(): number[] {
    if (this.rootsHoldAdopted) {
      this.roots = this.roots.filter((n) => this.nodeParent[n] === NONE)
      this.rootsHoldAdopted = false
    }
    return this.roots
  }

  /**
   * The union-find of the trees drawn so far, made on first use. Until a child is adopted every
   * parent came before its child, so one pass in ordinal order links each node to its root.
   */
  private treeLinks(): Int32Array {
    if (this.treeLink !== null) return this.treeLink
    const link = new Int32Array(this.capacity)
    const size = new Int32Array(this.capacity)
    for (let n = 0; n < this.nodeRecord.length; n++) {
      const p = this.nodeParent[n] ?? NONE
      const root = p === NONE ? n : (link[p] ?? p)
      link[n] = root
      size[root] = (size[root] ?? 0) + 1
    }
    this.treeSize = size
    this.treeLink = link
    return link
  }

  /** The representative of the tree holding `n` (union-find with path halving). */
  private treeOf(n: number): number {
    const link = this.treeLinks()
    let at = n
    for (let up = link[at] ?? at; up !== at; up = link[at] ?? at) {
      const skip = link[up] ?? up
      link[at] = skip
      at = skip
    }
    return at
  }

  private joinTrees(a: number, b: number): void {
    const ra = this.treeOf(a)
    const rb = this.treeOf(b)
    if (ra === rb) return
    const link = this.treeLinks()
    // The smaller tree joins the larger, so no representative sits deep (union by size).
    const sa = this.treeSize[ra] ?? 1
    const sb = this.treeSize[rb] ?? 1
    if (sa >= sb) {
      link[rb] = ra
      this.treeSize[ra] = sa + sb
    } else {
      link[ra] = rb
      this.treeSize[rb] = sa + sb
    }
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
    } else if (isCompactionRecord(node)) {
      this.summaryList.push({
        uuid: node.uuid,
        fromId: node.parentUuid ?? 'root',
        summary:
          node.type === 'compaction'
            ? node.summary
            : node.type === 'user'
              ? contentText(node.message.content)
              : node.type === 'custom_message'
                ? contentText(node.content)
                : '',
        kind: 'compaction',
        details: 'details' in node ? node.details : undefined
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
    this.fixedProblems.add({ index, kind, message })
  }
}

/** How many paths the changes name (a turn of none or one change needs no set: the graph asks per turn). */
export function distinctPaths(changes: readonly FileChangeRecord[]): number {
  return changes.length < 2 ? changes.length : new Set(changes.map((f) => f.path)).size
}

export {
  contentText,
  isPrompt,
  promptText,
  startsTurn,
  summarizedLeafOf,
  typedPrompt
} from './record-text'

export {
  conversationNodeOf,
  fileChangeOf,
  isConversationNode,
  isKnownRecordType,
  sessionHeaderOf
} from './record-checks'
