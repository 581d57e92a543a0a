// The explorer zoomed out: one card per branch, one row each in outline order, indented as the
// branches fork (the outline beside the graph is the same list). An agent's explorations and
// sub-agents' runs are no rows of their own here: their branch's card counts them. When the rows
// do not fit the canvas at a zoom where the cards' text is 11 px or more, runs of sibling
// branches fold into one card each (`12 branches, turns 140–220`), as few as needed, the branch
// holding the conversation never among them; a folded run opens on a click. Pure.
import type { Branch, Branches } from './branches'

/** Card and row sizes in flow units; the smallest text on a card is BRANCH_SMALL_TEXT. */
export const BRANCH_ROW = 54
export const BRANCH_HEIGHT = 46
export const BRANCH_INDENT = 24
/** The widest a card is drawn: at the least zoom the canvas is narrower than this. */
export const BRANCH_MAX_WIDTH = 720
export const BRANCH_SMALL_TEXT = 14
/** Below this zoom a card's smallest text would draw under 11 px (rounded up: 11.06 px). */
export const BRANCH_MIN_ZOOM = Math.ceil((11 / BRANCH_SMALL_TEXT) * 100) / 100

export type BranchRow =
  | { kind: 'branch'; id: string; depth: number; branch: Branch; sides: number }
  | { kind: 'group'; id: string; depth: number; members: readonly Branch[] }

const isSide = (branch: Branch) => branch.state === 'explored' || branch.state === 'subagent'

/** The id of the card a run of siblings folds into: named by its first member. */
export const groupId = (first: Branch) => `group:${first.id}`

/**
 * The rows for `branches`, folding runs of more than `groupSize` siblings into cards of that
 * many (null: no folding), except the runs in `openGroups`.
 */
export function branchRows(
  branches: Branches,
  groupSize: number | null,
  openGroups: ReadonlySet<string>
): BranchRow[] {
  const children = childrenOf(branches)
  const rows: BranchRow[] = []
  type Visit = { branch: Branch } | { group: Branch[] }
  const stack: Visit[] = (children.get(null) ?? []).map((branch) => ({ branch })).reverse()
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if ('group' in at) {
      const first = at.group[0]!
      rows.push({ kind: 'group', id: groupId(first), depth: first.depth, members: at.group })
      continue
    }
    const { branch } = at
    const kids = children.get(branch.id) ?? []
    rows.push({
      kind: 'branch',
      id: branch.id,
      depth: branch.depth,
      branch,
      sides: (sidesOf(branches, branch) ?? []).length
    })
    const visits = foldRuns(kids, groupSize, openGroups)
    for (let k = visits.length - 1; k >= 0; k--) stack.push(visits[k]!)
  }
  return rows
}

/** The smallest run size whose folding brings the rows to `capacity` or fewer (null: none needed). */
export function groupSizeToFit(branches: Branches, capacity: number): number | null {
  const children = childrenOf(branches)
  const rowsWith = (size: number | null) => countRows(children, size)
  if (rowsWith(null) <= capacity) return null
  let widest = 1
  for (const kids of children.values()) widest = Math.max(widest, kids.length)
  // More rows fold as the runs grow: the least size that fits, or the widest when none does.
  let lo = 1
  let hi = widest
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (rowsWith(mid) <= capacity) hi = mid
    else lo = mid + 1
  }
  return lo
}

function countRows(children: ReadonlyMap<string | null, readonly Branch[]>, size: number | null) {
  let rows = 0
  const stack = [...(children.get(null) ?? [])]
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    rows++
    for (const visit of foldRuns(children.get(at.id) ?? [], size, NONE)) {
      if ('group' in visit) rows++
      else stack.push(visit.branch)
    }
  }
  return rows
}

const NONE: ReadonlySet<string> = new Set()

/** A list of siblings as rows to visit: runs of more than `size` fold, but a run holding the
 * conversation, or opened by the user, stays as its branches. */
function foldRuns(
  kids: readonly Branch[],
  size: number | null,
  openGroups: ReadonlySet<string>
): ({ branch: Branch } | { group: Branch[] })[] {
  if (size === null || kids.length <= size) return kids.map((branch) => ({ branch }))
  const visits: ({ branch: Branch } | { group: Branch[] })[] = []
  for (let i = 0; i < kids.length; i += size) {
    const run = kids.slice(i, i + size)
    const keep =
      run.length === 1 ||
      openGroups.has(groupId(run[0]!)) ||
      run.some((branch) => branch.holdsConversation || branch.state === 'active')
    if (keep) visits.push(...run.map((branch) => ({ branch })))
    else visits.push({ group: run })
  }
  return visits
}

/** Each branch's child branches in outline order (key null: the roots), side lines left out. */
function childrenOf(branches: Branches): Map<string | null, Branch[]> {
  const cached = childrenCache.get(branches)
  if (cached !== undefined) return cached
  const children = new Map<string | null, Branch[]>()
  const hidden = new Set<string>()
  for (const branch of branches.list) {
    if (isSide(branch) || (branch.parentId !== null && hidden.has(branch.parentId))) {
      hidden.add(branch.id)
      continue
    }
    const list = children.get(branch.parentId)
    if (list === undefined) children.set(branch.parentId, [branch])
    else list.push(branch)
  }
  childrenCache.set(branches, children)
  return children
}

const childrenCache = new WeakMap<Branches, Map<string | null, Branch[]>>()

/** The side lines (explorations, sub-agents' runs) leaving a branch. */
function sidesOf(branches: Branches, branch: Branch): Branch[] | undefined {
  let cache = sidesCache.get(branches)
  if (cache === undefined) {
    cache = new Map()
    for (const b of branches.list) {
      if (b.parentId === null || !isSide(b)) continue
      const list = cache.get(b.parentId)
      if (list === undefined) cache.set(b.parentId, [b])
      else list.push(b)
    }
    sidesCache.set(branches, cache)
  }
  return cache.get(branch.id)
}

const sidesCache = new WeakMap<Branches, Map<string, Branch[]>>()

/** Where each row's card sits (top-left corner, flow units). */
export function branchPosition(row: BranchRow, index: number): { x: number; y: number } {
  return { x: row.depth * BRANCH_INDENT, y: index * BRANCH_ROW }
}

/** The rows that fit a canvas `height` px tall at the least legible zoom (one at least). */
export function rowsThatFit(height: number): number {
  return Math.max(1, Math.floor((height - 2 * FIT_MARGIN) / (BRANCH_ROW * BRANCH_MIN_ZOOM)))
}

/**
 * The cards' width for a canvas `canvasWidth` px wide whose deepest row is indented `deepest`
 * times: the rows reach across the canvas at the least legible zoom (inside the fit's margins),
 * so fitting them never needs a smaller zoom.
 */
export function cardWidth(canvasWidth: number, deepest: number): number {
  const room =
    (canvasWidth - FIT_MARGIN - FIT_MARGIN_LEFT) / BRANCH_MIN_ZOOM - deepest * BRANCH_INDENT
  return Math.round(Math.max(200, Math.min(BRANCH_MAX_WIDTH, room)))
}

/** The room Fit View leaves around the cards, px; on the left, the zoom controls' column. */
export const FIT_MARGIN = 24
export const FIT_MARGIN_LEFT = 56
