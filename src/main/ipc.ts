// The only place that touches ipcMain (lint bans it elsewhere). Every channel of the contract is
// registered through one wrapper that first checks the sender — our window's main frame, showing
// our own page — and then hands the payload to dispatch(), which validates it before any handler.
import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { type Handlers, type Reply, requestChannels } from '../shared/contract'
import { dispatch } from '../core/studio/dispatch'

export function registerHandlers(
  handlers: Handlers,
  isTrusted: (event: IpcMainInvokeEvent) => boolean
): () => void {
  for (const channel of requestChannels) {
    ipcMain.handle(channel, async (event, args: unknown): Promise<Reply> => {
      if (!isTrusted(event)) {
        return {
          ok: false,
          error: { code: 'forbidden_sender', message: `${channel} refused: unknown sender.` }
        }
      }
      return dispatch(handlers, channel, args)
    })
  }
  return () => {
    for (const channel of requestChannels) ipcMain.removeHandler(channel)
  }
}
