// Wires the stores to the main process: its events in, the first load, and the selection
// following. Returns what undoes the wiring.
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import { receiveAgentEvent } from './agent'
import { receiveRuns } from './parallel'
import {
  followOtherWindow,
  loadSession,
  newSession,
  onSelectionChanged,
  receiveGraphUpdate,
  refreshGraph,
  refreshSessionsSoon,
  refreshTranscript
} from './session'
import { followWorkspace, openFolder } from './workspace'

/**
 * The files marker ("files changed since") follows the disk: the main process watches the files
 * the session touched and pushes a change. What its watch cannot see (past its bound, a write
 * through a hard link elsewhere) is read again when the page comes back into view or focus: the
 * graph again, a delta from the version held, which carries the marker as the disk is now.
 */
function followFilesOnReturn(): () => void {
  let asking = false
  const back = () => {
    if (asking || document.visibilityState !== 'visible') return
    asking = true
    void refreshGraph().finally(() => (asking = false))
  }
  window.addEventListener('focus', back)
  document.addEventListener('visibilitychange', back)
  return () => {
    window.removeEventListener('focus', back)
    document.removeEventListener('visibilitychange', back)
  }
}

export function connect(): () => void {
  const bridge = getBridge()
  const stops = [
    bridge.on('session:graphUpdate', (update) => {
      // Another window opened another session: follow it rather than draw its graph under ours.
      const shown = useAppStore.getState().info
      if (shown !== null && shown.sessionId !== update.sessionId) {
        void followOtherWindow()
        return
      }
      void receiveGraphUpdate(update)
      // Another tool appending to the session it shows: its transcript grows too (ours streams),
      // and so does its line in the session list.
      if (useAppStore.getState().info?.foreign != null) {
        void refreshTranscript()
        refreshSessionsSoon()
      }
    }),
    // A cold index being built: the session list fills as it is (session:list then answers).
    bridge.on('session:listStep', (step) => useAppStore.getState().receiveListStep(step)),
    bridge.on('workspace:changed', ({ workspace }) => followWorkspace(workspace)),
    // The desktop's menu: File › Open Folder… and New Session do what the page's buttons do.
    bridge.on('menu:command', ({ command }) => {
      if (useAppStore.getState().running) return
      void (command === 'open-folder' ? openFolder() : newSession())
    }),
    bridge.on('agent:event', receiveAgentEvent),
    bridge.on('parallel:runs', receiveRuns),
    bridge.on('agent:permission', (request) => useAppStore.getState().askPermission(request)),
    bridge.on('agent:permissionResolved', ({ requestId }) =>
      useAppStore.getState().settlePermission(requestId)
    ),
    bridge.onDisconnect((message) => {
      const app = useAppStore.getState()
      app.setRunning(false)
      app.notify('error', message)
    }),
    useGraphStore.subscribe((state, previous) => {
      if (state.selectedId !== previous.selectedId) onSelectionChanged()
    }),
    followFilesOnReturn()
  ]
  void loadSession()
  return () => {
    for (const stop of stops) stop()
  }
}
