// The choice a move makes for the branch it leaves: no summary, a summary, or one following the
// user's instructions, remembered on request (setting summary.onLeave). The summary is appended
// where the conversation goes on, so the model sees what the branch left behind had found.
import { chooseLeave } from '../actions/rewind'
import { SummaryWriting } from './WorkProgress'
import type { LeaveState } from '../stores/rewind-store'

const CHOICES: { choice: LeaveState['choice']; name: string }[] = [
  { choice: 'none', name: 'No summary' },
  { choice: 'summarize', name: 'Summarize' },
  { choice: 'instructions', name: 'Summarize with my instructions' }
]

export function LeaveSummaryFields({ leave, applying }: { leave: LeaveState; applying: boolean }) {
  return (
    <fieldset className="modes leave-summary">
      <legend>The branch you leave</legend>
      {CHOICES.map(({ choice, name }) => (
        <div key={choice} className="mode">
          <input
            type="radio"
            id={`leave-${choice}`}
            name="leave-summary"
            checked={leave.choice === choice}
            disabled={applying}
            onChange={() => chooseLeave({ choice })}
          />
          <label htmlFor={`leave-${choice}`}>{name}</label>
        </div>
      ))}
      {leave.choice === 'instructions' && (
        <label className="field">
          <span>Instructions for the summary</span>
          <textarea
            rows={2}
            maxLength={10_000}
            value={leave.instructions}
            disabled={applying}
            placeholder="What the summary should keep (e.g. the test results)"
            onChange={(e) => chooseLeave({ instructions: e.target.value })}
          />
        </label>
      )}
      <label className="leave-summary__remember">
        <input
          type="checkbox"
          checked={leave.remember}
          disabled={applying}
          onChange={(e) => chooseLeave({ remember: e.target.checked })}
        />{' '}
        Remember my choice
      </label>
    </fieldset>
  )
}

/** While a move waits for its summary: what is happening, and Stop (nothing moves then). */
export function SummarizingNote({ leave, applying }: { leave: LeaveState; applying: boolean }) {
  if (!applying || leave.choice === 'none') return null
  return <SummaryWriting what="Summarizing the branch you leave…" />
}
