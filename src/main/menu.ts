// The desktop's application menu, as a plain template (no electron import beyond its types), so
// what it holds and its shortcuts are tested without Electron. File: Open Folder…, Open Recent,
// New Session; Edit: the standard roles (the text fields' copy and paste need them); View: zoom
// and the theme; Help: the docs. Each item calls one of `actions`; index.ts wires them.
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  openFolder: () => void
  openRecent: (cwd: string) => void
  newSession: () => void
  toggleTheme: () => void
  /** The README and docs/ shipped with the app, opened by the system. */
  openDocs: () => void
}

export function menuTemplate(
  actions: MenuActions,
  recent: readonly string[],
  platform: NodeJS.Platform
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: 'Rewind Studio',
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' }
          ]
        }
      ]
    : []
  return [
    ...appMenu,
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: actions.openFolder },
        {
          label: 'Open Recent',
          submenu:
            recent.length === 0
              ? [{ label: 'No recent folders', enabled: false }]
              : recent.map((cwd) => ({ label: cwd, click: () => actions.openRecent(cwd) }))
        },
        { label: 'New Session', accelerator: 'CmdOrCtrl+N', click: actions.newSession },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' }
      ]
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' }
      ]
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { label: 'Toggle Theme', accelerator: 'CmdOrCtrl+Shift+T', click: actions.toggleTheme },
        { type: 'separator' },
        { role: 'togglefullscreen' }
      ]
    },
    {
      role: 'help',
      submenu: [{ label: 'Rewind Studio Documentation', click: actions.openDocs }]
    }
  ]
}

/** A folder named on the command line (`rewind-studio DIR`, or a second launch's), if any. */
export function folderArgument(argv: readonly string[]): string | null {
  const at = argv.indexOf('--cwd')
  if (at >= 0 && argv[at + 1] !== undefined) return argv[at + 1] ?? null
  const inline = argv.find((a) => a.startsWith('--cwd='))
  return inline === undefined ? null : inline.slice('--cwd='.length)
}
