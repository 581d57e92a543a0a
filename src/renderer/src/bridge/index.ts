// The renderer's only way to the main process. In Electron the preload installs window.api;
// in a browser (the web host) the same contract runs over a WebSocket to 127.0.0.1.
import type { Bridge } from '../../../shared/contract'
import { electronBridge, type WindowApi } from './electron-bridge'
import { webSocketBridge } from './websocket-bridge'

declare global {
  interface Window {
    api?: WindowApi
  }
}

let bridge: Bridge | null = null

export function getBridge(): Bridge {
  if (bridge === null) {
    bridge =
      window.api !== undefined ? electronBridge(window.api) : webSocketBridge(window.location)
  }
  return bridge
}

/** The desktop answers `workspace:pick` with the system's folder dialog; a browser has none. */
export function hasFolderDialog(): boolean {
  return window.api !== undefined
}

export { BridgeError } from './bridge-error'
