// The branch outline beside the graph: one row per branch, nested as the branches fork, in step
// with what the graph shows. While a search has matches only the branches holding them are rows
// (with the branches they fork from, to keep the nesting), each with its count; a branch folded
// away in the graph is marked so. Pure: BranchOutline.tsx draws it.
import type { Branch, Branches, BranchState } from './branches'
import { OUTCOME_BADGES } from './flow-model'

export interface OutlineRow {
  branch: Branch
  /** Nodes of it the search matched; null when no search filters the rows. */
  matches: number | null
  /** None of its nodes is shown in the graph: a collapsed node above folds it away. */
  folded: boolean
}

export function outlineRows(
  branches: Branches,
  shown: { has(id: string): boolean },
  /** The nodes matching the search, or null when none is typed. */
  matched: ReadonlySet<string> | null
): OutlineRow[] {
  const counts = new Map<string, number>()
  if (matched !== null) {
    for (const id of matched) {
      const branch = branches.branchOf.get(id)
      if (branch !== undefined) counts.set(branch, (counts.get(branch) ?? 0) + 1)
    }
    // A matching branch keeps the branches it forks from as rows (with no count of their own).
    for (const id of [...counts.keys()]) {
      for (let at = branches.byId.get(id)?.parentId ?? null; at !== null && !counts.has(at);) {
        counts.set(at, 0)
        at = branches.byId.get(at)?.parentId ?? null
      }
    }
  }
  const rows: OutlineRow[] = []
  for (const branch of branches.list) {
    if (matched !== null && !counts.has(branch.id)) continue
    rows.push({
      branch,
      matches: matched === null ? null : (counts.get(branch.id) ?? 0),
      folded: !branch.nodeIds.some((id) => shown.has(id))
    })
  }
  return rows
}

const STATE_WORDS: Record<BranchState, string> = {
  active: 'active',
  abandoned: 'abandoned',
  summarized: 'summarized',
  explored: 'explored by the agent',
  subagent: 'sub-agent',
  run: 'parallel run'
}

export function stateWord(branch: Branch): string {
  const word = STATE_WORDS[branch.state]
  return branch.state === 'run' ? `${word}, ${branch.outcome}` : word
}

/** A branch's title on one line: a summary's first line, a prompt's first line. */
export function titleLine(branch: Branch): string {
  const first = branch.title.split('\n', 1)[0]!.trim()
  return first === '' ? '(empty)' : first
}

/** "3 turns (#4–6)", "1 turn (#2)", "no turns". */
export function turnsText(branch: Branch): string {
  if (branch.turns === 0) return 'no turns'
  const range =
    branch.firstTurn === null
      ? ''
      : branch.lastTurn !== null && branch.lastTurn !== branch.firstTurn
        ? ` (#${branch.firstTurn}–${branch.lastTurn})`
        : ` (#${branch.firstTurn})`
  return `${branch.turns} turn${branch.turns === 1 ? '' : 's'}${range}`
}

export function filesText(branch: Branch): string {
  return branch.fileChanges === 0
    ? 'no files'
    : `${branch.fileChanges} file change${branch.fileChanges === 1 ? '' : 's'}`
}

/** The row's accessible name: its title first, then what the row shows. */
export function rowName(row: OutlineRow): string {
  const { branch } = row
  const parts = [titleLine(branch), turnsText(branch), filesText(branch), stateWord(branch)]
  // Its last turn running, stopped or failed (an interrupted turn; a run's state is its stateWord).
  const outcome = OUTCOME_BADGES[branch.outcome]
  if (outcome !== null && branch.state !== 'run') parts.push(outcome)
  if (branch.holdsConversation) parts.push('conversation here')
  if (row.folded) parts.push('folded')
  if (row.matches !== null && row.matches > 0) {
    parts.push(`${row.matches} match${row.matches === 1 ? '' : 'es'}`)
  }
  return parts.join(', ')
}

/**
 * The node a row takes the graph to: where the conversation stands in it, else its first node
 * (the turn its title names when it has no label, where it leaves its parent).
 */
export function rowTarget(branch: Branch, conversationAt: string | null): string {
  if (conversationAt !== null && branch.holdsConversation) return conversationAt
  return branch.id
}
