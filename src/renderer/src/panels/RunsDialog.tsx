// The compare table of one start's parallel runs (core/parallel/run-table.ts, as the CLI's
// `runs FILE` prints it): per run its state, files changed, lines added and removed, tokens, time
// and its check (exit code, the last lines of its output), updated as every page is told
// (parallel:runs). Each row has what can be done with that run now: Stop while it runs; Adopt
// this run, Discard once it ended; Show selects its branch in the graph. Under it, the disk
// their workspaces take (as `du` counts it), asked for when it opens and as workspaces go.
import { useEffect, useState } from 'react'
import { diskSize } from '../../../shared/disk-size'
import type { RunsDiskUse, RunView } from '../../../shared/parallel-views'
import { discardRun, openAdopt, runsDiskUse, stopRun } from '../actions/parallel'
import { RUN_NODE_PREFIX } from '../graph/run-nodes'
import { useGraphStore } from '../stores/graph-store'
import { Modal } from './Modal'

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

function checkText(run: RunView): string {
  if (run.check === null) return '–'
  return run.check.exitCode === null ? 'cut short' : `exit ${run.check.exitCode}`
}

/** Where the run stands in the tree: its branch, once joined, on the conversation's path. */
function adopted(run: RunView): boolean {
  const node = run.nodeId === null ? undefined : useGraphStore.getState().nodesById.get(run.nodeId)
  return node?.onActivePath === true
}

export function RunActions({ run, onDone }: { run: RunView; onDone?: () => void }) {
  const underway = run.state === 'queued' || run.state === 'running'
  return (
    <>
      {underway && (
        <button type="button" onClick={() => void stopRun(run.id)}>
          Stop this run
        </button>
      )}
      {run.adoptable && !adopted(run) && (
        <button
          type="button"
          onClick={() => {
            onDone?.()
            openAdopt(run)
          }}
        >
          Adopt this run
        </button>
      )}
      {!underway && run.removed === null && (
        <button type="button" onClick={() => void discardRun(run.id)}>
          Discard
        </button>
      )}
    </>
  )
}

/** The runs' disk use, asked again when a run starts, ends or loses its workspace. */
function useDiskUse(group: string, runs: readonly RunView[]): RunsDiskUse | null {
  const [use, setUse] = useState<RunsDiskUse | null>(null)
  const changes = runs.map((run) => `${run.state}:${run.removed ?? ''}`).join(',')
  useEffect(() => {
    let live = true
    void runsDiskUse(group).then((asked) => {
      if (live) setUse(asked)
    })
    return () => {
      live = false
    }
  }, [group, changes])
  return use
}

function diskUseText(use: RunsDiskUse): string {
  if (use.workspaces === 0) return 'No workspace of these runs is left on disk.'
  const n = use.workspaces
  return `Their ${n} workspace${n === 1 ? '' : 's'} take${n === 1 ? 's' : ''} ${diskSize(use.bytes)} on disk (as du counts it); each goes when its run is adopted or discarded.`
}

export function RunsDialog({ group, onClose }: { group: string; onClose: () => void }) {
  const runs = useGraphStore((s) => s.runs).filter((run) => run.group === group)
  const use = useDiskUse(group, runs)
  return (
    <Modal title="Parallel runs" onClose={onClose} wide>
      <p>
        The runs started together from one node, side by side. Lines are counted from the node’s
        files to the run’s end; the check ran in each run’s own workspace.
      </p>
      <div className="runs-table__scroll">
        <table className="runs-table" aria-label="Runs compared">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">State</th>
              <th scope="col">Files</th>
              <th scope="col">Lines</th>
              <th scope="col">Tokens</th>
              <th scope="col">Time</th>
              <th scope="col">Check</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run, i) => (
              <tr key={run.id} aria-label={`Run ${i + 1}: ${run.prompt}`}>
                <th scope="row" title={run.prompt}>
                  <span className="runs-table__prompt">
                    {i + 1}. {run.prompt}
                  </span>
                  {run.error !== null && <span className="runs-table__error">{run.error}</span>}
                </th>
                <td>
                  <span className={`node-badge node-badge--${run.state}`}>{run.state}</span>
                  {run.removed !== null && <span className="muted"> ({run.removed})</span>}
                </td>
                <td title={run.files.join('\n')}>{run.files.length}</td>
                <td>
                  <span className="runs-table__added">+{run.linesAdded}</span>{' '}
                  <span className="runs-table__removed">−{run.linesRemoved}</span>
                </td>
                <td>{run.tokens === null ? '–' : run.tokens.toLocaleString()}</td>
                <td>{seconds(run.ms)}</td>
                <td>
                  {checkText(run)}
                  {run.check !== null && run.check.tail !== '' && (
                    <details>
                      <summary>output</summary>
                      <pre>{run.check.tail}</pre>
                    </details>
                  )}
                </td>
                <td className="runs-table__actions">
                  <button
                    type="button"
                    onClick={() => {
                      const graph = useGraphStore.getState()
                      const id = run.nodeId ?? RUN_NODE_PREFIX + run.id
                      graph.reveal(id)
                      graph.select(id)
                      graph.requestCentre(id)
                      onClose()
                    }}
                  >
                    Show
                  </button>
                  <RunActions run={run} onDone={onClose} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted" aria-live="polite">
        {use === null ? '' : diskUseText(use)}
      </p>
      <div className="modal__actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}
