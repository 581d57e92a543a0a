// The desktop shell's logic kept out of Electron (it cannot run here): the application menu's
// template and shortcuts (src/main/menu.ts), and the window's bounds remembered in a private
// file under the data home and put back only where a display shows them (window-bounds.ts).
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { folderArgument, menuTemplate, type MenuActions } from '../../src/main/menu'
import {
  boundsFile,
  MIN_WIDTH,
  readBounds,
  visibleBounds,
  writeBounds
} from '../../src/main/window-bounds'

function recordingActions() {
  const calls: string[] = []
  const actions: MenuActions = {
    openFolder: () => calls.push('openFolder'),
    openRecent: (cwd) => calls.push(`openRecent ${cwd}`),
    newSession: () => calls.push('newSession'),
    toggleTheme: () => calls.push('toggleTheme'),
    openDocs: () => calls.push('openDocs')
  }
  return { calls, actions }
}

const submenu = (menu: MenuItemConstructorOptions[], label: string) =>
  (menu.find((m) => m.label === label || m.role === label)?.submenu ??
    []) as MenuItemConstructorOptions[]

const click = (item: MenuItemConstructorOptions | undefined) =>
  (item?.click as (() => void) | undefined)?.()

describe('the application menu', () => {
  it('has File, Edit, View and Help, with the usual shortcuts, calling the actions', () => {
    const { calls, actions } = recordingActions()
    const menu = menuTemplate(actions, ['/work/a', '/work/b'], 'linux')
    expect(menu.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'help'])
    const file = submenu(menu, 'File')
    const open = file.find((i) => i.label === 'Open Folder…')
    expect(open?.accelerator).toBe('CmdOrCtrl+O')
    expect(file.find((i) => i.label === 'New Session')?.accelerator).toBe('CmdOrCtrl+N')
    click(open)
    click(file.find((i) => i.label === 'New Session'))
    const recent = file.find((i) => i.label === 'Open Recent')
      ?.submenu as MenuItemConstructorOptions[]
    expect(recent.map((i) => i.label)).toEqual(['/work/a', '/work/b'])
    click(recent[1])
    expect(submenu(menu, 'Edit').map((i) => i.role ?? i.type)).toEqual([
      'undo',
      'redo',
      'separator',
      'cut',
      'copy',
      'paste',
      'selectAll'
    ])
    const view = submenu(menu, 'View')
    expect(view.map((i) => i.role).filter(Boolean)).toEqual(
      expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut'])
    )
    click(view.find((i) => i.label === 'Toggle Theme'))
    click(submenu(menu, 'help')[0])
    expect(calls).toEqual([
      'openFolder',
      'newSession',
      'openRecent /work/b',
      'toggleTheme',
      'openDocs'
    ])
  })

  it('says when there is no recent folder, and has the app menu on macOS', () => {
    const { actions } = recordingActions()
    const file = submenu(menuTemplate(actions, [], 'linux'), 'File')
    const recent = file.find((i) => i.label === 'Open Recent')
      ?.submenu as MenuItemConstructorOptions[]
    expect(recent).toEqual([{ label: 'No recent folders', enabled: false }])
    expect(menuTemplate(actions, [], 'darwin')[0]?.label).toBe('Rewind Studio')
  })

  it('reads the folder a second launch names', () => {
    expect(folderArgument(['--cwd', '/work/a'])).toBe('/work/a')
    expect(folderArgument(['--cwd=/work/b', '--demo'])).toBe('/work/b')
    expect(folderArgument(['--demo'])).toBeNull()
  })
})

describe('the window’s bounds', () => {
  const laptop = { x: 0, y: 0, width: 1440, height: 900 }
  const external = { x: 1440, y: 0, width: 2560, height: 1440 }

  it('are saved private under the data home and read back; a damaged file is ignored', () => {
    const home = join(mkdtempSync(join(tmpdir(), 'rs-bounds-')), 'data')
    expect(readBounds(home)).toBeNull()
    writeBounds(home, { x: 10, y: 20, width: 1200, height: 700, maximized: false })
    expect(readBounds(home)).toEqual({ x: 10, y: 20, width: 1200, height: 700, maximized: false })
    expect(statSync(boundsFile(home)).mode & 0o077).toBe(0)
    expect(statSync(home).mode & 0o077).toBe(0)
    writeFileSync(boundsFile(home), '{"x": "left"}')
    expect(readBounds(home)).toBeNull()
  })

  it('stay where they were on a display that still shows them', () => {
    const saved = { x: 1600, y: 100, width: 1400, height: 900, maximized: true }
    expect(visibleBounds(saved, [laptop, external])).toEqual(saved)
  })

  it('come back centred on the first display when theirs is gone, shrunk to fit', () => {
    const saved = { x: 1600, y: 100, width: 2000, height: 1200, maximized: false }
    expect(visibleBounds(saved, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 900,
      maximized: false
    })
  })

  it('move in just enough when they hang off their display, never below the minimum size', () => {
    const saved = { x: 1000, y: 500, width: 800, height: 500, maximized: false }
    expect(visibleBounds(saved, [laptop])).toEqual({
      x: 1440 - MIN_WIDTH,
      y: 300,
      width: MIN_WIDTH,
      height: 600,
      maximized: false
    })
    expect(visibleBounds(null, [laptop])).toBeNull()
    expect(visibleBounds(saved, [])).toBeNull()
  })
})
