// The explorer zoomed out: one card per branch (branch-view.ts), in outline order, indented as
// they fork, each with its title, turns, file changes, state and last activity in type that is
// 11 px or more at the least zoom this canvas allows. Fit View shows every row; when they do not
// fit at that zoom, runs of sibling branches fold into one card each, which a click opens.
// A click on a branch's card, or Enter, opens it into its turns (the turns' canvas, centred on
// it); so does zooming in past the most this canvas allows over a card. A canvas of its own:
// the turns' canvas (BranchGraph.tsx) and its node components stay as they were.
import {
  Background,
  ControlButton,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  useStoreApi,
  type FitViewOptions,
  type Node,
  type NodeMouseHandler,
  type NodeProps,
  type NodeTypes
} from '@xyflow/react'
import { memo, useCallback, useMemo, useState } from 'react'
import type { KeyboardEvent, WheelEvent } from 'react'
import { jumpToNode } from '../actions/search'
import { conversationTip, useGraphStore } from '../stores/graph-store'
import {
  BRANCH_HEIGHT,
  BRANCH_MIN_ZOOM,
  branchPosition,
  branchRows,
  cardWidth,
  FIT_MARGIN,
  FIT_MARGIN_LEFT,
  groupSizeToFit,
  rowsThatFit,
  type BranchRow
} from './branch-view'
import { useBoxSize } from './box-size'
import { filesText, rowTarget, stateWord, titleLine, turnsText } from './outline'
import { selectTheme, useThemeStore } from '../theme'

const FIT_VIEW: FitViewOptions = {
  padding: {
    top: `${FIT_MARGIN}px`,
    right: `${FIT_MARGIN}px`,
    bottom: `${FIT_MARGIN}px`,
    left: `${FIT_MARGIN_LEFT}px`
  },
  minZoom: BRANCH_MIN_ZOOM,
  maxZoom: 1
}

type CardData = { row: BranchRow }
type CardNode = Node<CardData, 'branchCard' | 'branchGroup'>

/** The most this canvas zooms in; zooming in further over a card opens it. */
const MAX_ZOOM = 1.6

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' })

function shortTime(timestamp: string): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date)
}

function groupTurns(row: Extract<BranchRow, { kind: 'group' }>): string {
  const numbers = row.members.flatMap((b) => [b.firstTurn, b.lastTurn]).filter((n) => n !== null)
  if (numbers.length === 0) return ''
  return `, turns ${Math.min(...numbers)}–${Math.max(...numbers)}`
}

export function cardName(row: BranchRow): string {
  if (row.kind === 'group') {
    return `${row.members.length} branches folded${groupTurns(row)}: ${row.members
      .slice(0, 3)
      .map(titleLine)
      .join('; ')}${row.members.length > 3 ? '; …' : ''}`
  }
  const { branch } = row
  const parts = [`Branch: ${titleLine(branch)}`, turnsText(branch), filesText(branch)]
  parts.push(stateWord(branch))
  if (row.sides > 0) parts.push(`${row.sides} side line${row.sides === 1 ? '' : 's'}`)
  if (branch.holdsConversation) parts.push('conversation here')
  return parts.join(', ')
}

function BranchCardBody({ data }: NodeProps<CardNode>) {
  const { row } = data
  if (row.kind === 'group') {
    return (
      <div className="branch-card branch-card--group">
        <div className="branch-card__title">
          {row.members.length} branches{groupTurns(row)}
        </div>
        <div className="branch-card__meta">
          {row.members.slice(0, 3).map(titleLine).join(' · ')}
          {row.members.length > 3 ? ' · …' : ''} (click to open)
        </div>
      </div>
    )
  }
  const { branch } = row
  return (
    <div
      className={`branch-card branch-card--${branch.state}${branch.holdsConversation ? ' branch-card--here' : ''}`}
    >
      <div className="branch-card__title">
        {branch.holdsConversation && <span aria-hidden="true">◆ </span>}
        {titleLine(branch)}
      </div>
      <div className="branch-card__meta">
        {turnsText(branch)} · {filesText(branch)} · {stateWord(branch)}
        {row.sides > 0 ? ` · ${row.sides} side line${row.sides === 1 ? '' : 's'}` : ''} ·{' '}
        {shortTime(branch.lastActivity)}
      </div>
    </div>
  )
}

const BranchCardView = memo(BranchCardBody)
const cardTypes = { branchCard: BranchCardView, branchGroup: BranchCardView } satisfies NodeTypes

/** Opens a branch's card into its turns: the turns' canvas, centred on where the row leads. */
function openBranch(row: BranchRow): void {
  if (row.kind !== 'branch') return
  const target = rowTarget(row.branch, conversationTip(useGraphStore.getState()))
  useGraphStore.getState().setShowBranches(false)
  jumpToNode(target)
}

function Cards({ width, height }: { width: number; height: number }) {
  const branches = useGraphStore((s) => s.branches)
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(new Set())
  const groupSize = useMemo(() => groupSizeToFit(branches, rowsThatFit(height)), [branches, height])
  const rows = useMemo(
    () => branchRows(branches, groupSize, openGroups),
    [branches, groupSize, openGroups]
  )
  const cardsWide = useMemo(
    () =>
      cardWidth(
        width,
        rows.reduce((deepest, row) => Math.max(deepest, row.depth), 0)
      ),
    [width, rows]
  )
  const nodes = useMemo<CardNode[]>(
    () =>
      rows.map((row, index) => ({
        id: row.id,
        type: row.kind === 'branch' ? 'branchCard' : 'branchGroup',
        position: branchPosition(row, index),
        data: { row },
        width: cardsWide,
        height: BRANCH_HEIGHT,
        measured: { width: cardsWide, height: BRANCH_HEIGHT },
        ariaLabel: cardName(row),
        ariaRole: 'group',
        focusable: true,
        className: 'branch-node'
      })),
    [rows, cardsWide]
  )
  const store = useStoreApi<CardNode>()
  const theme = useThemeStore(selectTheme)

  const onNodeClick = useCallback<NodeMouseHandler<CardNode>>((_event, node) => {
    const { row } = node.data
    if (row.kind === 'group') setOpenGroups((open) => new Set([...open, row.id]))
    else openBranch(row)
  }, [])
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const card = (event.target as HTMLElement).closest<HTMLElement>('.react-flow__node')
      const index = card === null ? -1 : rows.findIndex((row) => row.id === card.dataset.id)
      if (index < 0) return
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault()
        const row = rows[index]!
        if (row.kind === 'group') setOpenGroups((open) => new Set([...open, row.id]))
        else openBranch(row)
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        const next = rows[index + (event.key === 'ArrowDown' ? 1 : -1)]
        if (next === undefined) return
        const at = branchPosition(next, rows.indexOf(next))
        const { transform, height: paneHeight, setCenter } = store.getState()
        const top = at.y * transform[2] + transform[1]
        if (top < 0 || top + BRANCH_HEIGHT * transform[2] > paneHeight) {
          void setCenter(at.x + cardsWide / 2, at.y + BRANCH_HEIGHT / 2, { zoom: transform[2] })
        }
        requestAnimationFrame(() =>
          document
            .querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(next.id)}"]`)
            ?.focus({ preventScroll: true })
        )
      }
    },
    [rows, store, cardsWide]
  )
  // Zooming in at the most this canvas allows, over a branch's card, opens it.
  const onWheel = useCallback(
    (event: WheelEvent<HTMLDivElement>) => {
      if (event.deltaY >= 0 || store.getState().transform[2] < MAX_ZOOM - 1e-3) return
      const id = (event.target as HTMLElement).closest<HTMLElement>('.react-flow__node')?.dataset.id
      const row = rows.find((r) => r.id === id)
      if (row !== undefined) openBranch(row)
    },
    [rows, store]
  )

  return (
    <div className="graph-canvas" onKeyDown={onKeyDown} onWheel={onWheel}>
      <ReactFlow<CardNode>
        nodes={nodes}
        edges={[]}
        nodeTypes={cardTypes}
        onNodeClick={onNodeClick}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        zoomOnDoubleClick={false}
        onlyRenderVisibleElements
        minZoom={BRANCH_MIN_ZOOM}
        maxZoom={MAX_ZOOM}
        fitView
        fitViewOptions={FIT_VIEW}
        colorMode={theme}
        aria-label="Branch cards"
      >
        <Background gap={24} size={1} />
        <Controls showInteractive={false} fitViewOptions={FIT_VIEW}>
          <ControlButton
            className="graph-controls__turns"
            aria-label="Show turns"
            title="Show turns"
            onClick={() => useGraphStore.getState().setShowBranches(false)}
          >
            <span aria-hidden="true">▦</span>
          </ControlButton>
        </Controls>
      </ReactFlow>
    </div>
  )
}

export function BranchCanvas() {
  const [box, size] = useBoxSize()
  return (
    <div className="graph-canvas" ref={box}>
      {size.height > 0 && (
        <ReactFlowProvider>
          <Cards width={size.width} height={size.height} />
        </ReactFlowProvider>
      )}
    </div>
  )
}
