// Electron main process: a thin host over the core. It opens the studio (session, file history,
// agent) for the workspace through a WorkspaceHost (Open Folder… swaps it, no restart), creates
// the hardened window, and serves the contract over IPC to that window only. One instance runs:
// a second launch focuses this window and opens its folder argument. The window's bounds are
// remembered (window-bounds.ts); quitting waits for the studio to close. Everything else lives in
// src/core.
import { app, BrowserWindow, dialog, Menu, nativeTheme, screen, session, shell } from 'electron'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { folderLauncher, launchStudio, parseLaunchArgs } from '../core/studio/launch'
import { validatingSink } from '../core/studio/events'
import { internalErrorNotice, surviveUncaught } from '../core/os/survive-uncaught'
import { takeEnvSecrets } from '../core/os/env-secrets'
import {
  readRecentWorkspaces,
  startupWorkspace,
  WorkspaceHost
} from '../core/studio/workspace-host'
import type { EventChannel, EventPayload } from '../shared/contract'
import { registerHandlers } from './ipc'
import { folderArgument, menuTemplate } from './menu'
import { safeStorageSecrets } from './secret-store'
import { isTrustedSender } from './sender-check'
import {
  denyPermissions,
  hardenWebContents,
  saveExportsWithDialog,
  secureWindowOptions
} from './window'
import { readBounds, visibleBounds, writeBounds } from './window-bounds'

const rendererDir = join(__dirname, '../renderer')
const rendererIndex = join(rendererDir, 'index.html')
const rendererUrlPrefix = pathToFileURL(rendererDir).href + '/'
const isAppUrl = (url: string) => url.startsWith(rendererUrlPrefix)

let window: BrowserWindow | null = null
let host: WorkspaceHost | null = null

function send<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
  window?.webContents.send(event, payload)
}

async function pickFolder(): Promise<string | null> {
  const options = { title: 'Open Folder', properties: ['openDirectory' as const] }
  const picked =
    window === null
      ? await dialog.showOpenDialog(options)
      : await dialog.showOpenDialog(window, options)
  return picked.canceled ? null : (picked.filePaths[0] ?? null)
}

function openFolderFromMain(cwd: string): void {
  host?.openWorkspace(resolve(cwd)).catch((error: unknown) => {
    void dialog.showMessageBox({
      type: 'error',
      message: `Could not open ${cwd}`,
      detail: error instanceof Error ? error.message : String(error)
    })
  })
}

function buildMenu(home: string): void {
  const template = menuTemplate(
    {
      openFolder: () => send('menu:command', { command: 'open-folder' }),
      openRecent: openFolderFromMain,
      newSession: () => send('menu:command', { command: 'new-session' }),
      toggleTheme: () => {
        nativeTheme.themeSource = nativeTheme.shouldUseDarkColors ? 'light' : 'dark'
      },
      openDocs: () => void shell.openPath(join(app.getAppPath(), 'README.md'))
    },
    readRecentWorkspaces(home),
    process.platform
  )
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}

/** Saves the window's bounds as it closes (the normal ones when maximized). */
function rememberBounds(win: BrowserWindow, home: string): void {
  win.on('close', () => {
    try {
      writeBounds(home, { ...win.getNormalBounds(), maximized: win.isMaximized() })
    } catch {
      // Bounds are a convenience: a data home that cannot be written costs only them.
    }
  })
}

async function openWindow(): Promise<void> {
  // Electron's own flags come first in argv; ours follow the app path.
  const argv = process.argv.slice(app.isPackaged ? 1 : 2)
  const options = parseLaunchArgs(argv)
  const emit = validatingSink((event, payload) => window?.webContents.send(event, payload))
  const secrets = safeStorageSecrets(options.home)
  const launchOptions = { ...options, appRoot: app.getAppPath(), secrets, emit }
  const launch = (cwd: string | undefined, demo: boolean) =>
    launchStudio({ ...launchOptions, cwd, demo })
  // Started from / or the home folder without --cwd: the newest recent folder, else the demo
  // workspace with the folder dialog open, instead of refusing to start.
  const first =
    options.demo || options.cwd === undefined
      ? null
      : startupWorkspace(options.cwd, folderArgument(argv) !== null, options.home)
  const askForFolder = !options.demo && first === null
  const studio = await launch(first ?? undefined, options.demo || first === null)
  host = new WorkspaceHost(studio, {
    home: options.home,
    launch: folderLauncher(launchOptions),
    pickFolder,
    switched: (workspace) => {
      emit('workspace:changed', { workspace })
      buildMenu(options.home)
    }
  })

  denyPermissions(session.defaultSession)
  saveExportsWithDialog(session.defaultSession)
  const bounds = visibleBounds(
    readBounds(options.home),
    screen.getAllDisplays().map((d) => d.workArea)
  )
  window = new BrowserWindow({
    ...secureWindowOptions(join(__dirname, '../preload/index.cjs')),
    ...(bounds === null
      ? {}
      : { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height })
  })
  const contents = window.webContents
  hardenWebContents(contents, isAppUrl, (url) => void shell.openExternal(url))
  registerHandlers(host.handlers(), (event) => isTrustedSender(event, contents, isAppUrl))
  rememberBounds(window, options.home)
  buildMenu(options.home)
  window.once('ready-to-show', () => {
    if (bounds?.maximized === true) window?.maximize()
    window?.show()
    if (askForFolder) send('menu:command', { command: 'open-folder' })
  })
  window.on('closed', () => {
    window = null
  })
  await window.loadFile(rendererIndex)
}

// The key leaves this process's environment before anything else runs (env-secrets.ts).
takeEnvSecrets()

if (!app.requestSingleInstanceLock()) {
  // Another Rewind Studio runs: it gets our argv (second-instance) and opens its folder.
  app.quit()
} else {
  app.on('second-instance', (_event, argv) => {
    if (window !== null) {
      if (window.isMinimized()) window.restore()
      window.focus()
    }
    const folder = folderArgument(argv)
    if (folder !== null) openFolderFromMain(folder)
  })

  // Quitting waits for the studio to close (the running turn stopped, the session log and file
  // history flushed): Electron does not await a before-quit listener, so the first quit is held
  // and a second one is made once the studio is closed.
  let closed = false
  let closing: Promise<void> | null = null
  app.on('before-quit', (event) => {
    if (closed || host === null) return
    event.preventDefault()
    closing ??= host
      .close()
      .catch((error: unknown) => console.error('Rewind Studio: closing the studio failed:', error))
      .finally(() => {
        closed = true
        app.quit()
      })
  })

  // What escapes every path's own handling is logged and told to the window (core/os/survive-uncaught.ts);
  // Electron's default is a modal error box per exception, or nothing for a rejection.
  surviveUncaught((message, error) => {
    console.error('Rewind Studio: an error outside any request (the app goes on):', error)
    send('agent:event', { type: 'notice', level: 'error', message: internalErrorNotice(message) })
  })
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
}
