// Who may call the contract over Electron IPC: our window's main frame, showing our own page.
// A subframe, another window or a page that navigated elsewhere is refused before validation.
import type { IpcMainInvokeEvent, WebContents } from 'electron'

export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  window: Pick<WebContents, 'id' | 'mainFrame'>,
  isAppUrl: (url: string) => boolean
): boolean {
  const frame = event.senderFrame
  return (
    event.sender.id === window.id &&
    frame !== null &&
    frame === window.mainFrame &&
    isAppUrl(frame.url)
  )
}
