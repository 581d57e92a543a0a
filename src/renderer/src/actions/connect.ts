// Wires the stores to the main process: its events in, the first load, and the selection
// following. Returns what undoes the wiring.
import { getBridge } from '../bridge'
import { useAppStore } from '../stores/app-store'
import { useGraphStore } from '../stores/graph-store'
import { receiveAgentEvent } from './agent'
import { loadSession, onSelectionChanged } from './session'

export function connect(): () => void {
  const bridge = getBridge()
  const stops = [
    bridge.on('session:graph', (graph) => useGraphStore.getState().receiveGraph(graph)),
    bridge.on('agent:event', receiveAgentEvent),
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
    })
  ]
  void loadSession()
  return () => {
    for (const stop of stops) stop()
  }
}
