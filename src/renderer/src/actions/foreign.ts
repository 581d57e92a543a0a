// Another tool's session (Claude Code, pi, oh-my-pi, Codex CLI, Gemini CLI, OpenCode), shown read-only: opening it from the list,
// carrying it on as a new session of ours ("Continue in Rewind Studio"), and putting its files
// back from Claude Code's own backups ("Restore files here": previewed, then applied; Undo in
// the header reverses it).
import { getBridge } from '../bridge'
import type { RescuePreview, RescueResult } from '../../../shared/views'
import { useAppStore } from '../stores/app-store'
import { attempt } from './report'
import { refreshAll, switchSession } from './session'

export const openForeignSession = (file: string) =>
  switchSession(() => getBridge().request('session:openFile', { file }), 'Opening the session')

/** A new session of ours holding the conversation up to `nodeId`, opened with the agent ready. */
export async function continueInRewindStudio(nodeId: string): Promise<boolean> {
  const done = await switchSession(
    () => getBridge().request('session:continueForeign', { nodeId }),
    'Continuing in Rewind Studio'
  )
  if (done) {
    useAppStore
      .getState()
      .setStatus('Continued in a new Rewind Studio session; the files are as they were')
  }
  return done
}

export type RescuePreviewState =
  | { state: 'loading' }
  | { state: 'ready'; preview: RescuePreview }
  | { state: 'failed'; message: string }

export async function loadRescuePreview(nodeId: string): Promise<RescuePreviewState> {
  try {
    return { state: 'ready', preview: await getBridge().request('rescue:preview', { nodeId }) }
  } catch (error) {
    return { state: 'failed', message: error instanceof Error ? error.message : String(error) }
  }
}

/** What a rescue restore did, in one line: the files it changed and the ones it had to skip. */
export function describeRescue(result: RescueResult): string {
  const changed = result.restored.length + result.deleted.length + result.recreated.length
  const files = `${changed} file${changed === 1 ? '' : 's'} restored from the backups`
  return result.skipped.length === 0
    ? `${files}.`
    : `${files}; ${result.skipped.length} left as they are (no backup): ${result.skipped
        .map((s) => s.path)
        .join(', ')}.`
}

/** Applies the restore the dialog previewed; false when the main process refused (reported). */
export async function applyRescue(nodeId: string): Promise<boolean> {
  const result = await attempt('Restoring the files', () =>
    getBridge().request('rescue:apply', { nodeId })
  )
  if (result === null) return false
  const app = useAppStore.getState()
  app.setStatus(describeRescue(result))
  // A partial restore is never reported as done: the skipped files stay on screen until dismissed.
  if (result.skipped.length > 0) app.notify('warning', describeRescue(result))
  await refreshAll()
  return true
}
