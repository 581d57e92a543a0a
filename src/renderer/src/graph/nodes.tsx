// The explorer's custom nodes. Each is memoized and reads only its own `selected` flag from the
// store, so moving the selection re-renders two nodes and a streamed token re-renders none.
import {
  Handle,
  Position,
  useStore,
  type NodeProps,
  type NodeTypes,
  type ReactFlowState
} from '@xyflow/react'
import { memo, useMemo, type ReactNode } from 'react'
import { selectIsSelected, useGraphStore } from '../stores/graph-store'
import { REPORT_HANDLE, type FlowNode } from './flow-model'

// One formatter for all nodes: toLocaleString with options builds a new one per call (slow).
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' })

function shortTime(timestamp: string): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date)
}

/** Below this zoom a card's text is unreadable: nodes draw as plain blocks, which pan faster. */
const DETAIL_ZOOM = 0.35
const selectZoomedOut = (s: ReactFlowState) => s.transform[2] < DETAIL_ZOOM

/** Tree edges use the first (unnamed) handles; checkpoint links the named ones on the right. */
function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
      <Handle id={REPORT_HANDLE} type="target" position={Position.Right} isConnectable={false} />
      <Handle id={REPORT_HANDLE} type="source" position={Position.Right} isConnectable={false} />
    </>
  )
}

function NodeCard({
  id,
  data,
  kindLabel,
  badge
}: {
  id: string
  data: FlowNode['data']
  kindLabel: string
  badge?: ReactNode
}) {
  const isSelected = useGraphStore(useMemo(() => selectIsSelected(id), [id]))
  const zoomedOut = useStore(selectZoomedOut)
  const { node } = data
  const className = `node-card node-card--${node.kind}${isSelected ? ' node-card--selected' : ''}`
  if (zoomedOut) {
    return (
      <div className={`${className} node-card--block`}>
        <Handles />
      </div>
    )
  }
  return (
    <div className={className}>
      <Handles />
      <div className="node-card__meta">
        <span className="node-card__kind">{kindLabel}</span>
        {node.label !== null && <span className="node-card__label">{node.label}</span>}
        <span className="node-card__time">{shortTime(node.timestamp)}</span>
      </div>
      <div className="node-card__title">{node.title || '(empty)'}</div>
      {badge}
    </div>
  )
}

const TurnNode = memo(function TurnNode({ id, data }: NodeProps<FlowNode>) {
  const changed = data.node.filesChanged
  const badge =
    changed > 0 ? (
      <span className="node-card__badge" title="Files this turn changed (its checkpoint)">
        {changed} file{changed === 1 ? '' : 's'}
      </span>
    ) : undefined
  return <NodeCard id={id} data={data} kindLabel="Turn" badge={badge} />
})

const BranchSummaryNode = memo(function BranchSummaryNode({ id, data }: NodeProps<FlowNode>) {
  return <NodeCard id={id} data={data} kindLabel="Branch summary" />
})

const RewindReportNode = memo(function RewindReportNode({ id, data }: NodeProps<FlowNode>) {
  return <NodeCard id={id} data={data} kindLabel="Rewind report" />
})

const CompactionNode = memo(function CompactionNode({ id, data }: NodeProps<FlowNode>) {
  return <NodeCard id={id} data={data} kindLabel="Compaction" />
})

const SubagentNode = memo(function SubagentNode({ id, data }: NodeProps<FlowNode>) {
  return <NodeCard id={id} data={data} kindLabel="Sub-agent" />
})

/** Module scope: a new object per render would make React Flow remount every node. */
export const nodeTypes = {
  turn: TurnNode,
  branch_summary: BranchSummaryNode,
  rewind_report: RewindReportNode,
  compaction: CompactionNode,
  subagent: SubagentNode
} satisfies NodeTypes
