// Try in parallel…: several attempts from one node at once (core/parallel). K runs of one prompt
// (1–8), or one prompt per run; an optional check command run in each run's workspace when it
// ends (its exit code and last lines go in the Runs table); the model the runs use. Each run
// starts from the node's conversation and files in a workspace of its own; the user's files are
// only read, and each run becomes a branch of the node.
import { useState } from 'react'
import { MAX_CHECK_CHARS, MAX_PARALLEL_RUNS } from '../../../shared/parallel-views'
import type { GraphNode } from '../../../shared/views'
import { startRuns } from '../actions/parallel'
import { useAppStore } from '../stores/app-store'
import { Modal } from './Modal'

type Mode = 'repeat' | 'each'

export function ParallelDialog({ node, onClose }: { node: GraphNode; onClose: () => void }) {
  const model = useAppStore((s) => s.info?.model ?? '')
  const [mode, setMode] = useState<Mode>('repeat')
  const [prompt, setPrompt] = useState('')
  const [count, setCount] = useState(2)
  const [prompts, setPrompts] = useState<string[]>(['', ''])
  const [check, setCheck] = useState('')
  const [chosenModel, setModel] = useState(model)
  const [starting, setStarting] = useState(false)
  const asked =
    mode === 'repeat'
      ? Array.from({ length: count }, () => prompt)
      : prompts.filter((p) => p.trim() !== '')
  const ready =
    asked.length >= 1 &&
    asked.length <= MAX_PARALLEL_RUNS &&
    asked.every((p) => p.trim() !== '') &&
    check.length <= MAX_CHECK_CHARS
  const start = async () => {
    if (!ready || starting) return
    setStarting(true)
    const started = await startRuns({
      nodeId: node.id,
      prompts: asked,
      check,
      model: chosenModel === model ? '' : chosenModel
    })
    setStarting(false)
    if (started) onClose()
  }
  return (
    <Modal title="Try in parallel" onClose={onClose} wide>
      <form
        className="parallel-form"
        onSubmit={(event) => {
          event.preventDefault()
          void start()
        }}
      >
        <p>
          From “{node.title || '(empty)'}”: each run starts from this node’s conversation and files,
          in a workspace of its own (a checkout of your commit in a repository of its own, or a copy
          of the folder). Your files are only read while they run; each run becomes a branch of this
          node, to compare and adopt.
        </p>
        <div role="radiogroup" aria-label="Runs" className="parallel-form__modes">
          <label>
            <input
              type="radio"
              name="parallel-mode"
              checked={mode === 'repeat'}
              onChange={() => setMode('repeat')}
            />
            Several runs of one prompt
          </label>
          <label>
            <input
              type="radio"
              name="parallel-mode"
              checked={mode === 'each'}
              onChange={() => setMode('each')}
            />
            One prompt per run
          </label>
        </div>
        {mode === 'repeat' ? (
          <>
            <label className="field">
              <span>Prompt</span>
              <textarea
                rows={3}
                autoFocus
                value={prompt}
                onChange={(event) => setPrompt(event.target.value)}
              />
            </label>
            <label className="field field--inline">
              <span>Number of runs</span>
              <input
                type="number"
                min={1}
                max={MAX_PARALLEL_RUNS}
                value={count}
                onChange={(event) =>
                  setCount(
                    Math.max(1, Math.min(MAX_PARALLEL_RUNS, Math.trunc(Number(event.target.value))))
                  )
                }
              />
            </label>
          </>
        ) : (
          <>
            {prompts.map((text, i) => (
              <div className="parallel-form__prompt" key={i}>
                <label className="field">
                  <span>Prompt for run {i + 1}</span>
                  <textarea
                    rows={2}
                    value={text}
                    onChange={(event) =>
                      setPrompts(prompts.map((p, j) => (j === i ? event.target.value : p)))
                    }
                  />
                </label>
                {prompts.length > 1 && (
                  <button
                    type="button"
                    aria-label={`Remove run ${i + 1}`}
                    onClick={() => setPrompts(prompts.filter((_, j) => j !== i))}
                  >
                    Remove
                  </button>
                )}
              </div>
            ))}
            <button
              type="button"
              disabled={prompts.length >= MAX_PARALLEL_RUNS}
              onClick={() => setPrompts([...prompts, ''])}
            >
              Add a run
            </button>
          </>
        )}
        <label className="field">
          <span>Check command (optional), run in each run’s workspace when it ends</span>
          <input
            value={check}
            placeholder="npm test"
            onChange={(event) => setCheck(event.target.value)}
          />
        </label>
        <label className="field">
          <span>Model</span>
          <input value={chosenModel} onChange={(event) => setModel(event.target.value)} />
        </label>
        <div className="modal__actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!ready || starting}>
            {asked.length <= 1 ? 'Start 1 run' : `Start ${asked.length} runs`}
          </button>
        </div>
      </form>
    </Modal>
  )
}
