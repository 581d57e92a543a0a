// The preload gives the sandboxed renderer window.api: one named function per contract channel,
// built from the contract's channel lists. No raw ipcRenderer and no generic invoke cross the
// bridge; the IpcRendererEvent (which carries the sender) never reaches the page.
import { contextBridge, ipcRenderer } from 'electron'
import { eventChannels, requestChannels } from '../shared/contract'
import { eventMethodName, requestMethodName } from '../shared/window-api'

const api: Record<string, unknown> = {}

for (const channel of requestChannels) {
  api[requestMethodName(channel)] = (args: unknown) => ipcRenderer.invoke(channel, args)
}

for (const event of eventChannels) {
  api[eventMethodName(event)] = (listener: (payload: unknown) => void) => {
    const forward = (_event: unknown, payload: unknown) => listener(payload)
    ipcRenderer.on(event, forward)
    return () => {
      ipcRenderer.removeListener(event, forward)
    }
  }
}

contextBridge.exposeInMainWorld('api', api)
