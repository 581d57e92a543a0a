// The branch outline beside the graph, under the sessions (the region "Branches"): a tree of one
// row per branch,
// nested as they fork, the active one marked, in step with the search and the folds
// (outline.ts). A click, Enter or Space takes the graph to the branch (unfolding what hides
// it); the arrow keys move through the rows (Left to the branch it forks from, Right to its
// first fork), Home and End to the ends. One tab stop: the row last moved to.
import { useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { jumpToNode } from '../actions/search'
import { conversationTip, useGraphStore } from '../stores/graph-store'
import { selectQuery, selectResults, useSearchStore } from '../stores/search-store'
import {
  filesText,
  outlineRows,
  rowName,
  rowTarget,
  stateWord,
  titleLine,
  turnsText,
  type OutlineRow
} from './outline'

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' })

function shortTime(timestamp: string): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date)
}

/** The matched node ids while a search filters, else null. */
function useMatched(): ReadonlySet<string> | null {
  const query = useSearchStore(selectQuery)
  const results = useSearchStore(selectResults)
  const index = useSearchStore((s) => s.index)
  return useMemo(() => {
    if (query.trim() === '' || results === null || index === null) return null
    return new Set(results.positions.map((i) => index.ids[i]!))
  }, [query, results, index])
}

export function BranchOutline() {
  const branches = useGraphStore((s) => s.branches)
  const positions = useGraphStore((s) => s.positions)
  const selectedBranch = useGraphStore((s) =>
    s.selectedId === null ? null : (s.branches.branchOf.get(s.selectedId) ?? null)
  )
  const matched = useMatched()
  const rows = useMemo(
    () => outlineRows(branches, positions, matched),
    [branches, positions, matched]
  )
  const [focusId, setFocusId] = useState<string | null>(null)
  const list = useRef<HTMLDivElement>(null)
  const current = rows.findIndex((row) => row.branch.id === (focusId ?? selectedBranch))
  const tabStop = current >= 0 ? current : 0

  const moveTo = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))]
    if (row === undefined) return
    setFocusId(row.branch.id)
    list.current
      ?.querySelector<HTMLElement>(`[data-branch="${CSS.escape(row.branch.id)}"]`)
      ?.focus()
  }
  const open = (row: OutlineRow) => {
    setFocusId(row.branch.id)
    jumpToNode(rowTarget(row.branch, conversationTip(useGraphStore.getState())))
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, index: number) => {
    const row = rows[index]!
    const byId = (branchId: string | null) => rows.findIndex((r) => r.branch.id === branchId)
    const moves: Record<string, () => number> = {
      ArrowDown: () => index + 1,
      ArrowUp: () => index - 1,
      Home: () => 0,
      End: () => rows.length - 1,
      ArrowLeft: () => {
        const parent = byId(row.branch.parentId)
        return parent >= 0 ? parent : index
      },
      ArrowRight: () => (rows[index + 1]?.branch.parentId === row.branch.id ? index + 1 : index)
    }
    const move = moves[event.key]
    if (move !== undefined) {
      event.preventDefault()
      moveTo(move())
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      open(row)
    }
  }

  if (branches.list.length === 0) return null
  return (
    <section className="outline" aria-label="Branches">
      <h2 className="outline__heading">
        Branches <span className="outline__count">{branches.list.length}</span>
      </h2>
      {matched !== null && rows.length === 0 ? (
        <p className="outline__empty">No branch holds a match.</p>
      ) : (
        <div className="outline__rows" role="tree" aria-label="Branch outline" ref={list}>
          {rows.map((row, index) => {
            const { branch } = row
            return (
              <div
                key={branch.id}
                role="treeitem"
                aria-label={rowName(row)}
                aria-level={branch.depth + 1}
                aria-selected={branch.id === selectedBranch}
                aria-current={branch.holdsConversation ? 'true' : undefined}
                data-branch={branch.id}
                tabIndex={index === tabStop ? 0 : -1}
                className={`outline__row outline__row--${branch.state}${row.folded ? ' outline__row--folded' : ''}`}
                style={{ paddingLeft: 8 + Math.min(branch.depth, 8) * 12 }}
                onClick={() => open(row)}
                onKeyDown={(event) => onKeyDown(event, index)}
              >
                <span className="outline__title">
                  {branch.holdsConversation && (
                    <span className="outline__here" aria-hidden="true">
                      ◆{' '}
                    </span>
                  )}
                  {titleLine(branch)}
                </span>
                <span className="outline__meta" aria-hidden="true">
                  {turnsText(branch)} · {filesText(branch)}
                </span>
                <span className="outline__meta" aria-hidden="true">
                  {stateWord(branch)}
                  {row.folded ? ', folded' : ''}
                  {row.matches !== null && row.matches > 0 ? ` · ${row.matches} found` : ''} ·{' '}
                  {shortTime(branch.lastActivity)}
                </span>
              </div>
            )
          })}
        </div>
      )}
    </section>
  )
}
