// The explorer's custom nodes. Each is memoized and reads only its own `selected` and `peeked`
// flags from the store, so moving the selection re-renders two nodes and a streamed token none.
// The selected node is the graph's one tab stop (a roving tabindex), set here on React Flow's
// node element rather than as `focusable` on the canvas's nodes: a new nodes array would make
// React Flow walk every node on each arrow key.
//
// Readable at every zoom: from COMPACT_BELOW_ZOOM down to the canvas's minimum zoom a node draws
// its compact form (prompt number, label, badges) in type large enough to stay readable there;
// hovering or focusing one shows its full card at screen size over the others.
import {
  Handle,
  Position,
  useStore,
  type NodeProps,
  type NodeTypes,
  type ReactFlowState
} from '@xyflow/react'
import { memo, useLayoutEffect, useMemo } from 'react'
import { nodeElement } from '../focus'
import { selectIsPeeked, selectIsSelected, useGraphStore } from '../stores/graph-store'
import {
  FILES_MARKERS,
  kindName,
  OUTCOME_BADGES,
  REPORT_HANDLE,
  foldText,
  RUN_HANDLE,
  SUMMARY_HANDLE,
  type FlowNode,
  type NodeFacts
} from './flow-model'
import { COMPACT_BELOW_ZOOM } from './zooms'

const selectCompact = (s: ReactFlowState) => s.transform[2] < COMPACT_BELOW_ZOOM
const selectZoom = (s: ReactFlowState) => s.transform[2]

// One formatter for all nodes: toLocaleString with options builds a new one per call (slow).
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' })

function shortTime(timestamp: string): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date)
}

/**
 * Tree edges use the first (unnamed) handles; checkpoint links the named ones on the right, a
 * summary's link comes in on its left, and a sub-agent's run is linked from right to left.
 */
function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
      <Handle id={REPORT_HANDLE} type="target" position={Position.Right} isConnectable={false} />
      <Handle id={REPORT_HANDLE} type="source" position={Position.Right} isConnectable={false} />
      <Handle id={SUMMARY_HANDLE} type="target" position={Position.Left} isConnectable={false} />
      <Handle id={RUN_HANDLE} type="source" position={Position.Right} isConnectable={false} />
      <Handle id={RUN_HANDLE} type="target" position={Position.Left} isConnectable={false} />
    </>
  )
}

/**
 * Where the conversation stands and where the files are: tabs above the card, seen at a glance at
 * any zoom. After a conversation-only or code-only rewind they sit on different nodes.
 */
function Markers({ facts, compact }: { facts: NodeFacts; compact: boolean }) {
  if (!facts.conversationHere && facts.files === null) return null
  return (
    <div className={`node-markers${compact ? ' node-markers--compact' : ''}`} aria-hidden="true">
      {facts.conversationHere && (
        <span className="node-marker node-marker--conversation">◆ conversation</span>
      )}
      {facts.files !== null && (
        <span className={`node-marker node-marker--files-${facts.files}`}>
          ▣ {FILES_MARKERS[facts.files]}
        </span>
      )}
    </div>
  )
}

/**
 * Whether a badge is a control: on the node itself it is a button (the selected node's are in
 * the tab order right after it, the graph's one tab stop; others' are reached by a click), in
 * the full card shown over a compact node (a picture of it, under the pointer) plain text.
 */
type BadgeUse = 'control' | 'picture' | 'tab stop'

/**
 * A badge that opens (or folds) what it counts. A key pressed on it is its own: Enter and Space
 * press it, and do not also open the node the canvas would open (BranchGraph's keys).
 */
function FoldButton({
  use,
  className,
  expanded,
  title,
  onPress,
  children
}: {
  use: BadgeUse
  className: string
  expanded: boolean
  title: string
  onPress: () => void
  children: string
}) {
  if (use === 'picture') return <span className={`node-badge ${className}`}>{children}</span>
  return (
    <button
      type="button"
      className={`node-badge node-badge--button ${className}`}
      aria-expanded={expanded}
      title={title}
      tabIndex={use === 'tab stop' ? 0 : -1}
      onClick={(event) => {
        event.stopPropagation()
        onPress()
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') event.stopPropagation()
      }}
    >
      {children}
    </button>
  )
}

/** A fold's count: clicking it opens the branch; the keys and the bar do the same. */
function FoldBadge({
  id,
  facts,
  short,
  use
}: {
  id: string
  facts: NodeFacts
  short: boolean
  use: BadgeUse
}) {
  if (facts.hiddenBelow === 0) return null
  return (
    <FoldButton
      use={use}
      className="node-badge--fold"
      expanded={false}
      title={`${facts.hiddenBelow} nodes folded here: click to show them`}
      onPress={() => useGraphStore.getState().toggleCollapsed(id)}
    >
      {`+${facts.hiddenBelow}${short ? '' : ' hidden'}`}
    </FoldButton>
  )
}

/** The nodes folded into this one, a badge per kind ("2 agents"): a click opens them, another folds them. */
function FoldsBadges({ id, facts, use }: { id: string; facts: NodeFacts; use: BadgeUse }) {
  return facts.folds.map((fold) => {
    const text = foldText(fold)
    return (
      <FoldButton
        key={fold.kind}
        use={use}
        className={`node-badge--folds${fold.folded ? '' : ' node-badge--open'}`}
        expanded={!fold.folded}
        title={fold.folded ? `Show the ${text} folded here` : `Fold the ${text} into this node`}
        onPress={() => useGraphStore.getState().toggleFold(id, fold.kind)}
      >
        {text}
      </FoldButton>
    )
  })
}

/** The compact form's badges: a sign each (the full card, on hover or focus, spells them out). */
const SHORT_OUTCOMES: Record<FlowNode['data']['node']['outcome'], string> = {
  done: '',
  running: '…',
  queued: '⋯',
  stopped: '■',
  failed: '✕'
}

function Badges({
  id,
  data,
  short,
  use
}: {
  id: string
  data: FlowNode['data']
  short: boolean
  use: BadgeUse
}) {
  const { node, facts } = data
  const outcome = OUTCOME_BADGES[node.outcome]
  const changed = node.filesChanged
  if (outcome === null && changed === 0 && facts.hiddenBelow === 0 && facts.folds.length === 0) {
    return null
  }
  return (
    <div className="node-card__badges">
      {outcome !== null && (
        <span className={`node-badge node-badge--${node.outcome}`} title={outcome}>
          {short ? SHORT_OUTCOMES[node.outcome] : outcome}
        </span>
      )}
      {changed > 0 && (
        <span className="node-badge node-badge--files" title="Files this turn changed">
          {changed}
          {short ? ' ✎' : ` file${changed === 1 ? '' : 's'}`}
        </span>
      )}
      <FoldBadge id={id} facts={facts} short={short} use={use} />
      <FoldsBadges id={id} facts={facts} use={use} />
    </div>
  )
}

function cardClass(data: FlowNode['data'], selected: boolean, form: string): string {
  return `node-card node-card--${data.node.kind} node-card--${form}${selected ? ' node-card--selected' : ''}`
}

/** The card at full size: kind and number, time, the title on two lines, the badges and label. */
function FullCard({
  id,
  data,
  selected,
  use
}: {
  id: string
  data: FlowNode['data']
  selected: boolean
  use: BadgeUse
}) {
  const { node, facts } = data
  return (
    <div className={cardClass(data, selected, 'full')}>
      <div className="node-card__meta">
        <span className="node-card__kind">
          {kindName(node)}
          {facts.promptNumber !== null && ` ${facts.promptNumber}`}
        </span>
        <span className="node-card__time">{shortTime(node.timestamp)}</span>
      </div>
      <div className="node-card__title">{node.title || '(empty)'}</div>
      {/* The label sits by the badges, where the row has room for it: beside a long kind and
          the time ("Rewind report", a date) it had a few letters. */}
      <div className="node-card__foot">
        <Badges id={id} data={data} short={false} use={use} />
        {node.label !== null && (
          <span className="node-card__label" title={node.label}>
            {node.label}
          </span>
        )}
      </div>
    </div>
  )
}

/** The compact form's kind words: short enough to stay whole in large type. */
const COMPACT_KINDS: Record<FlowNode['data']['node']['kind'], string> = {
  turn: 'Turn',
  branch_summary: 'Summary',
  rewind_report: 'Report',
  compaction: 'Compact',
  exploration: 'Explored',
  subagent: 'Sub-agent',
  merge: 'Merged'
}

/**
 * The compact form: the prompt's number (or a short kind) and the badges, then the label, or the
 * title when there is none, in one block of large type wrapping over the card's lines (as many
 * as its type leaves: compactType in zooms.ts), so a title keeps some two dozen characters.
 */
function CompactCard({
  id,
  data,
  selected,
  use
}: {
  id: string
  data: FlowNode['data']
  selected: boolean
  use: BadgeUse
}) {
  const { node, facts } = data
  return (
    <div className={cardClass(data, selected, 'compact')}>
      <div className="node-card__line">
        <span className="node-card__number">
          {facts.promptNumber !== null ? `#${facts.promptNumber}` : COMPACT_KINDS[node.kind]}
        </span>{' '}
        <Badges id={id} data={data} short use={use} />{' '}
        {node.label !== null ? (
          <span className="node-card__label">{node.label}</span>
        ) : (
          <span className="node-card__text">{node.title || '(empty)'}</span>
        )}
      </div>
    </div>
  )
}

/** The full card over a compact node, drawn at screen size whatever the zoom. */
function Peek({ id, data, selected }: { id: string; data: FlowNode['data']; selected: boolean }) {
  const zoom = useStore(selectZoom)
  return (
    <div className="node-peek" style={{ transform: `scale(${1 / zoom})` }}>
      <FullCard id={id} data={data} selected={selected} use="picture" />
    </div>
  )
}

/**
 * The selected node's element takes the tab stop; the others have none. React Flow renders
 * no tabindex for a node that is not focusable and leaves the attribute alone after that; a node
 * mounted again (panned back into view) runs this again.
 */
function useTabStop(id: string, selected: boolean): void {
  useLayoutEffect(() => {
    const element = nodeElement(id)
    if (element === null) return
    if (selected) element.tabIndex = 0
    else element.removeAttribute('tabindex')
  }, [id, selected])
}

function NodeBody({ id, data }: NodeProps<FlowNode>) {
  const selected = useGraphStore(useMemo(() => selectIsSelected(id), [id]))
  useTabStop(id, selected)
  const peeked = useGraphStore(useMemo(() => selectIsPeeked(id), [id]))
  const compact = useStore(selectCompact)
  const use = selected ? 'tab stop' : 'control'
  return (
    <>
      <Handles />
      <Markers facts={data.facts} compact={compact} />
      {compact ? (
        <CompactCard id={id} data={data} selected={selected} use={use} />
      ) : (
        <FullCard id={id} data={data} selected={selected} use={use} />
      )}
      {compact && peeked && <Peek id={id} data={data} selected={selected} />}
    </>
  )
}

const GraphNodeView = memo(NodeBody)

/** Module scope: a new object per render would make React Flow remount every node. */
export const nodeTypes = {
  turn: GraphNodeView,
  branch_summary: GraphNodeView,
  rewind_report: GraphNodeView,
  compaction: GraphNodeView,
  exploration: GraphNodeView,
  subagent: GraphNodeView,
  merge: GraphNodeView
} satisfies NodeTypes & Record<FlowNode['data']['node']['kind'], unknown>
