// Electron main process: a thin host over the core. It opens the studio (session, file history,
// agent) for the workspace, creates the hardened window, and serves the contract over IPC to that
// window only. Everything else lives in src/core.
import { app, BrowserWindow, session, shell } from 'electron'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createHandlers } from '../core/studio/handlers'
import { launchStudio, parseLaunchArgs } from '../core/studio/launch'
import { validatingSink } from '../core/studio/events'
import { registerHandlers } from './ipc'
import { safeStorageSecrets } from './secret-store'
import { isTrustedSender } from './sender-check'
import {
  denyPermissions,
  hardenWebContents,
  saveExportsWithDialog,
  secureWindowOptions
} from './window'

const rendererDir = join(__dirname, '../renderer')
const rendererIndex = join(rendererDir, 'index.html')
const rendererUrlPrefix = pathToFileURL(rendererDir).href + '/'
const isAppUrl = (url: string) => url.startsWith(rendererUrlPrefix)

async function openWindow(): Promise<void> {
  // Electron's own flags come first in argv; ours follow the app path.
  const options = parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2))
  let window: BrowserWindow | null = null
  const studio = await launchStudio({
    ...options,
    appRoot: app.getAppPath(),
    secrets: safeStorageSecrets(options.home),
    emit: validatingSink((event, payload) => window?.webContents.send(event, payload))
  })

  denyPermissions(session.defaultSession)
  saveExportsWithDialog(session.defaultSession)
  window = new BrowserWindow(secureWindowOptions(join(__dirname, '../preload/index.cjs')))
  const contents = window.webContents
  hardenWebContents(contents, isAppUrl, (url) => void shell.openExternal(url))
  registerHandlers(createHandlers(studio), (event) => isTrustedSender(event, contents, isAppUrl))
  window.once('ready-to-show', () => window?.show())
  window.on('closed', () => {
    window = null
  })
  app.on('before-quit', () => void studio.close())
  await window.loadFile(rendererIndex)
}

app.enableSandbox()
app.on('window-all-closed', () => app.quit())
app
  .whenReady()
  .then(openWindow)
  .catch((error: unknown) => {
    console.error(
      `Rewind Studio could not start: ${error instanceof Error ? error.message : String(error)}`
    )
    app.exit(1)
  })
