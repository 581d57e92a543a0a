// The app window, hardened per Electron's security checklist: isolated, sandboxed renderer
// without Node; navigation, new windows, webviews and permission requests all refused; only
// https links the user clicked leave the app, and they open in the system browser.
import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron'

export function secureWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Rewind Studio',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false
    }
  }
}

/** Only https URLs leave the app, and only through the system browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:'
  } catch {
    return false
  }
}

export function hardenWebContents(
  contents: WebContents,
  isAppUrl: (url: string) => boolean,
  openExternal: (url: string) => void
): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  // A link with target=_blank that the user clicked arrives here; nothing opens inside the app.
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) openExternal(url)
    return { action: 'deny' }
  })
}

export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}

/**
 * Export… saves its file as a download of a Blob the page made (renderer actions/export.ts):
 * Electron asks where to save it with the system's save dialog, opened on the export's own name.
 * Only blob: downloads go through (a blob is made by a page of this session, and the only page is
 * ours: navigation elsewhere is refused); a download of anything else is cancelled.
 */
export function saveExportsWithDialog(session: Session): void {
  session.on('will-download', (event, item) => {
    if (!item.getURL().startsWith('blob:')) {
      event.preventDefault()
      return
    }
    item.setSaveDialogOptions({ title: 'Save the export', defaultPath: item.getFilename() })
  })
}
