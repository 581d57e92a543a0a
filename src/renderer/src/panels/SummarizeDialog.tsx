// "Summarize from here" / "Summarize up to here" on a prompt: what will happen, optional
// instructions for the summary, then Summarize. While the model writes it, Stop cancels it and
// nothing changes.
import { useState } from 'react'
import type { GraphNode } from '../../../shared/views'
import { summarizeAt, type SummaryDirection } from '../actions/summary'
import { Modal } from './Modal'
import { SummaryWriting } from './WorkProgress'

const TEXTS: Record<SummaryDirection, { title: string; intro: string }> = {
  from: {
    title: 'Summarize from here',
    intro:
      'This prompt and everything after it on the branch become one summary, and the conversation goes on from before the prompt, which comes back to the composer. Files stay as they are; the turns stay in the graph.'
  },
  upTo: {
    title: 'Summarize up to here',
    intro:
      'Everything before this prompt becomes one summary for the model; this prompt and the turns after it stay word for word. Files stay as they are; the turns stay in the graph.'
  }
}

export function SummarizeDialog({
  direction,
  node,
  onClose
}: {
  direction: SummaryDirection
  node: GraphNode
  onClose: () => void
}) {
  const [instructions, setInstructions] = useState('')
  const [working, setWorking] = useState(false)
  const texts = TEXTS[direction]
  return (
    <Modal title={texts.title} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          setWorking(true)
          void summarizeAt(direction, node.id, instructions).then((done) =>
            done ? onClose() : setWorking(false)
          )
        }}
      >
        <p>{texts.intro}</p>
        <p className="muted">Prompt: “{node.title || '(empty)'}”</p>
        <label className="field">
          <span>Instructions for the summary (optional)</span>
          <textarea
            rows={2}
            maxLength={10_000}
            value={instructions}
            disabled={working}
            placeholder="What the summary should keep"
            onChange={(event) => setInstructions(event.target.value)}
          />
        </label>
        {working && <SummaryWriting what="Summarizing…" />}
        <div className="modal__actions">
          <button type="button" onClick={onClose} disabled={working}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={working}>
            Summarize
          </button>
        </div>
      </form>
    </Modal>
  )
}
