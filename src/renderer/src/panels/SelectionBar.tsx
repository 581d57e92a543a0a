// What can be done with the selected node, on any branch: rewind to before its prompt, continue
// the conversation from it, switch to its branch's end, summarize from or up to its prompt (on
// the active branch), bring a node of another branch into this one (its conclusions, its files),
// compare it with another node or the current files, fork a new session from it, label it, fold
// what is under it, try several attempts from it at once (Try in parallel…; a run's branch then
// offers Stop, Adopt this run, Discard and Compare runs…, and a run still going, drawn by the page
// beside its start, offers only those). Read-only sessions (another process holds them) and a
// running agent offer none of the moves; a read-only session can still be forked (the fork is a
// session of this app's own). Another tool's session offers only what works on it: compare,
// fold, and on a prompt "Restore files here" where the tool keeps backups (Claude Code, Gemini
// CLI, OpenCode), else what it keeps (none: Codex CLI, pi); "Continue in Rewind Studio" stands
// where the composer was. A session pulled from a git remote is read-only too; on any of its
// nodes Continue from here (or Fork) makes a session of one's own there, the node's files
// brought back from the shared backups after their preview. A sub-agent's node is drawn from a
// file of its own: it
// can be folded and inspected, nothing else.
import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { cancelCompare, openCompare, startCompare } from '../actions/compare'
import { openMove, openRewindPicker } from '../actions/rewind'
import { setCollapsed } from '../actions/session'
import {
  selectCompareFrom,
  selectReadOnlyReason,
  selectRunning,
  useAppStore
} from '../stores/app-store'
import {
  conversationTip,
  selectSelectedFold,
  selectSelectedNode,
  selectSelectedFolds,
  useGraphStore
} from '../stores/graph-store'
import type { SummaryDirection } from '../actions/summary'
import { ForkDialog } from './ForkDialog'
import { LabelDialog } from './LabelDialog'
import { MergeDialog } from './MergeDialog'
import { ParallelDialog } from './ParallelDialog'
import { RunActions, RunsDialog } from './RunsDialog'
import { isRunNode, runAt } from '../graph/run-nodes'
import { foldText } from '../graph/flow-model'
import { RescueDialog } from './RescueDialog'
import { SummarizeDialog } from './SummarizeDialog'

/** While a compare is being set up: its first node, and the two ways to pick the second. */
function CompareChoice({ fromId, selectedId }: { fromId: string; selectedId: string }) {
  const from = useGraphStore((s) => s.nodesById.get(fromId))
  return (
    <div className="selection-bar__compare" role="group" aria-label="Compare">
      <span>Compare “{from?.title ?? fromId}” with: select another node, then</span>
      <button
        type="button"
        disabled={selectedId === fromId}
        onClick={() => void openCompare(fromId, selectedId)}
      >
        Compare with this node
      </button>
      <button type="button" onClick={() => void openCompare(fromId, 'current')}>
        Compare with current files
      </button>
      <button type="button" onClick={cancelCompare}>
        Cancel compare
      </button>
    </div>
  )
}

export function SelectionBar() {
  const node = useGraphStore(selectSelectedNode)
  const tip = useGraphStore(conversationTip)
  const fold = useGraphStore(useShallow(selectSelectedFold))
  const folds = useGraphStore(selectSelectedFolds)
  const readOnly = useAppStore(selectReadOnlyReason) !== null
  const foreign = useAppStore((s) => s.info?.foreign ?? null)
  const pulled = useAppStore((s) => s.info?.shared != null)
  const running = useAppStore(selectRunning)
  const compareFrom = useAppStore(selectCompareFrom)
  const [labeling, setLabeling] = useState(false)
  const [summarizing, setSummarizing] = useState<SummaryDirection | null>(null)
  const [forking, setForking] = useState<'fork' | 'continue' | null>(null)
  const [rescuing, setRescuing] = useState(false)
  const [merging, setMerging] = useState(false)
  const [trying, setTrying] = useState(false)
  const [comparingRuns, setComparingRuns] = useState<string | null>(null)
  const runs = useGraphStore((s) => s.runs)
  if (node === null) return <div className="selection-bar muted">Nothing selected</div>
  const run = runAt(runs, node.id)
  const runGroup = run?.group ?? runs.find((r) => r.startNodeId === node.id)?.group ?? null
  const runsDialog = comparingRuns !== null && (
    <RunsDialog group={comparingRuns} onClose={() => setComparingRuns(null)} />
  )
  if (isRunNode(node.id)) {
    return (
      <div className="selection-bar" aria-label="Selected node">
        <div className="selection-bar__title" title={node.title}>
          {node.title} ({run?.state ?? 'gone'})
        </div>
        <div className="selection-bar__actions">
          {run !== null && <RunActions run={run} />}
          {runGroup !== null && (
            <button type="button" onClick={() => setComparingRuns(runGroup)}>
              Compare runs…
            </button>
          )}
        </div>
        {runsDialog}
      </div>
    )
  }
  const locked = readOnly || running
  const ours = foreign === null
  const subagent = node.kind === 'subagent'
  return (
    <div className="selection-bar" aria-label="Selected node">
      <div className="selection-bar__title" title={node.title}>
        {node.title || '(empty)'}
      </div>
      <div className="selection-bar__actions">
        {foreign?.backups === true && node.kind === 'turn' && (
          <button type="button" disabled={running} onClick={() => setRescuing(true)}>
            Restore files here
          </button>
        )}
        {foreign?.backups === false && node.kind === 'turn' && (
          <span className="selection-bar__note muted" role="note">
            {foreign.keeps}
          </span>
        )}
        {ours && node.kind === 'turn' && (
          <button type="button" disabled={locked} onClick={() => openRewindPicker(node.id)}>
            Rewind here
          </button>
        )}
        {ours && !pulled && node.id !== tip && (
          <button type="button" disabled={locked} onClick={() => openMove('continue', node.id)}>
            Continue from here
          </button>
        )}
        {pulled && !subagent && (
          <button type="button" disabled={running} onClick={() => setForking('continue')}>
            Continue from here
          </button>
        )}
        {ours && !node.onActivePath && (
          <button type="button" disabled={locked} onClick={() => openMove('switch', node.id)}>
            Switch to this branch
          </button>
        )}
        {ours && !pulled && !subagent && !node.onActivePath && (
          <button type="button" disabled={locked} onClick={() => setMerging(true)}>
            Bring into this branch…
          </button>
        )}
        {ours && !pulled && !readOnly && !subagent && (
          <button type="button" onClick={() => setTrying(true)}>
            Try in parallel…
          </button>
        )}
        {ours && run !== null && <RunActions run={run} />}
        {ours && runGroup !== null && (
          <button type="button" onClick={() => setComparingRuns(runGroup)}>
            Compare runs…
          </button>
        )}
        {ours && node.kind === 'turn' && node.onActivePath && (
          <button type="button" disabled={locked} onClick={() => setSummarizing('from')}>
            Summarize from here
          </button>
        )}
        {ours && node.kind === 'turn' && node.onActivePath && node.parentId !== null && (
          <button type="button" disabled={locked} onClick={() => setSummarizing('upTo')}>
            Summarize up to here
          </button>
        )}
        {compareFrom === null && !subagent && (
          <button type="button" data-starts="compare" onClick={() => startCompare(node.id)}>
            Compare…
          </button>
        )}
        {ours && (
          <button type="button" disabled={running} onClick={() => setForking('fork')}>
            Fork to new session
          </button>
        )}
        {ours && (
          <button type="button" disabled={readOnly} onClick={() => setLabeling(true)}>
            Label
          </button>
        )}
        {folds.map((fold) => (
          <button
            key={fold.kind}
            type="button"
            aria-expanded={!fold.folded}
            onClick={() => useGraphStore.getState().toggleFold(node.id, fold.kind)}
          >
            {`${fold.folded ? 'Show' : 'Hide'} ${foldText(fold)}`}
          </button>
        ))}
        {fold !== null && (
          <button
            type="button"
            aria-expanded={!fold.collapsed}
            onClick={() => setCollapsed(node.id, !fold.collapsed)}
          >
            {fold.collapsed ? `Expand (${fold.hidden} hidden)` : 'Collapse'}
          </button>
        )}
      </div>
      {compareFrom !== null && !subagent && (
        <CompareChoice fromId={compareFrom} selectedId={node.id} />
      )}
      {labeling && <LabelDialog node={node} onClose={() => setLabeling(false)} />}
      {summarizing !== null && (
        <SummarizeDialog direction={summarizing} node={node} onClose={() => setSummarizing(null)} />
      )}
      {forking !== null && (
        <ForkDialog
          node={node}
          continueHere={forking === 'continue'}
          onClose={() => setForking(null)}
        />
      )}
      {rescuing && foreign !== null && (
        <RescueDialog node={node} keeps={foreign.keeps} onClose={() => setRescuing(false)} />
      )}
      {merging && <MergeDialog node={node} onClose={() => setMerging(false)} />}
      {trying && <ParallelDialog node={node} onClose={() => setTrying(false)} />}
      {runsDialog}
    </div>
  )
}
