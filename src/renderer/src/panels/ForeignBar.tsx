// In place of the composer while another tool's session is shown (it is never written): what
// "Continue in Rewind Studio" would carry on, from the selected node, and the button. A sub-agent's
// transcript is no point of the conversation: from there it is not offered.
import { type AppInfo, TOOL_NAMES } from '../../../shared/views'
import { continueInRewindStudio } from '../actions/foreign'
import { conversationTip, selectSelectedNode, useGraphStore } from '../stores/graph-store'
import { selectRunning, useAppStore } from '../stores/app-store'

export const SOURCE_NAMES = TOOL_NAMES

export function ForeignBar({ foreign }: { foreign: NonNullable<AppInfo['foreign']> }) {
  const selected = useGraphStore(selectSelectedNode)
  const tipId = useGraphStore(conversationTip)
  const tip = useGraphStore((s) => (tipId === null ? null : (s.nodesById.get(tipId) ?? null)))
  const running = useAppStore(selectRunning)
  const from = selected ?? tip
  const usable = from !== null && from.kind !== 'subagent'
  return (
    <section className="composer composer--foreign" aria-label="Continue in Rewind Studio">
      <p className="composer__where">
        {SOURCE_NAMES[foreign.format]} session, read-only: it is never written.
      </p>
      <p className="composer__note">
        {from === null
          ? 'Nothing to continue yet.'
          : usable
            ? `Continue in Rewind Studio starts a new session of ours with the conversation up to “${from.title || '(empty)'}”, ready for your next prompt. The files stay as they are.`
            : 'A sub-agent’s transcript is not part of the conversation: select a turn to continue from.'}
      </p>
      <div className="composer__actions">
        <button
          type="button"
          className="primary"
          disabled={!usable || running}
          onClick={() => {
            if (from !== null) void continueInRewindStudio(from.id)
          }}
        >
          Continue in Rewind Studio
        </button>
      </div>
    </section>
  )
}
