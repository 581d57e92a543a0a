// The agent: prompts out, its stream in. Stream events are applied once per animation frame, so a
// burst of tokens costs one store update and one render of the line they belong to.
import { getBridge } from '../bridge'
import { promptSizeProblem } from '../../../shared/prompt-limit'
import type { AgentEvent } from '../../../shared/views'
import { useAppStore } from '../stores/app-store'
import { useWorkStore } from '../stores/work-store'
import { conversationTip, useGraphStore } from '../stores/graph-store'
import { selectLaterCount, useTranscriptStore } from '../stores/transcript-store'
import { attempt, reportFailure } from './report'
import { loadTranscriptEnd, refreshAll } from './session'

let queued: AgentEvent[] = []
let frame: number | null = null

function flush(): void {
  frame = null
  const events = queued
  queued = []
  useTranscriptStore.getState().receiveEvents(events)
}

export function receiveAgentEvent(event: AgentEvent): void {
  const app = useAppStore.getState()
  // Information (a completed agent rewind...) is the status line's; problems stay until dismissed.
  if (event.type === 'notice') {
    if (event.level === 'info') app.setStatus(event.message)
    else app.notify(event.level, event.message)
  }
  if (event.type === 'context_usage') {
    app.setContextUsage(event.usage)
    return
  }
  if (event.type === 'summary_progress') {
    useWorkStore.getState().setWork({ kind: 'summary', chars: event.chars })
    return
  }
  if (event.type === 'restore_progress') {
    useWorkStore.getState().setWork({ kind: 'restore', done: event.done, total: event.total })
    return
  }
  queued.push(event)
  if (event.type === 'status') {
    // The end of a run is applied at once, then everything is read back from the session.
    if (frame !== null) cancelAnimationFrame(frame)
    flush()
    app.setRunning(event.running)
    if (!event.running) {
      useWorkStore.getState().endWork('summary')
      app.setStatus('')
      void refreshAll()
    }
    return
  }
  frame ??= requestAnimationFrame(flush)
}

export async function sendPrompt(): Promise<void> {
  const app = useAppStore.getState()
  const prompt = app.draft.trim()
  if (prompt === '' || app.running) return
  // Refused here, with both sizes, rather than by the contract after a long upload.
  const tooLong = promptSizeProblem(prompt)
  if (tooLong !== null) {
    app.notify('error', `Not sent: ${tooLong}`)
    return
  }
  // The transcript must show the active branch, down to its end, to stream into it.
  if (useTranscriptStore.getState().branchLeaf !== null) {
    const tip = conversationTip(useGraphStore.getState())
    if (tip !== null) useGraphStore.getState().select(tip)
  }
  // Not waited for: the prompt goes at once (the window, when it lands, holds what was sent).
  if (selectLaterCount(useTranscriptStore.getState()) > 0) void loadTranscriptEnd()
  app.setDraft('')
  app.dropStalePrefill()
  app.showPanel('transcript')
  try {
    await getBridge().request('agent:send', { prompt })
    app.setStatus('Prompt sent')
  } catch (error) {
    // Nothing typed is lost: the prompt goes back into the composer.
    useAppStore.getState().setDraft(prompt)
    reportFailure('Sending the prompt', error)
  }
}

/**
 * Says the stop is under way while it is (a killed command, the interrupted results written),
 * and that it is done once agent:stop answers: it answers when the run has wound down.
 */
export async function stopAgent(): Promise<void> {
  const app = useAppStore.getState()
  app.setStatus(STOPPING)
  const stopped = await attempt('Stopping the agent', () => getBridge().request('agent:stop', {}))
  // The run's end may have said something else meanwhile (an agent's notice): that stays.
  const now = useAppStore.getState().status
  if (now === STOPPING || now === '') app.setStatus(stopped === null ? '' : 'Agent stopped')
}

const STOPPING = 'Stopping the agent…'

export async function answerPermission(requestId: string, allow: boolean): Promise<void> {
  useAppStore.getState().settlePermission(requestId)
  await attempt('Answering the permission request', () =>
    getBridge().request('agent:answerPermission', { requestId, allow })
  )
}
