// The window's size and position, remembered between runs in a private JSON under the data home
// (window.json), and put back only where a display can show it: a display unplugged since, or a
// resolution lowered, would otherwise open the window off every screen. No electron import: the
// displays' work areas come in as plain rectangles, so this is tested without Electron.
import { readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import * as z from 'zod'
import { ensurePrivateDir, writePrivateFileSync } from '../core/os/private-files'

export const Rect = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive()
})
export type Rect = z.infer<typeof Rect>

export const SavedBounds = Rect.extend({ maximized: z.boolean() })
export type SavedBounds = z.infer<typeof SavedBounds>

export const MIN_WIDTH = 960
export const MIN_HEIGHT = 600
/** How much of the title bar must lie on a display for the window to count as visible there. */
const GRAB = 64

export function boundsFile(home: string): string {
  return join(home, 'window.json')
}

export function readBounds(home: string): SavedBounds | null {
  try {
    const parsed = SavedBounds.safeParse(JSON.parse(readFileSync(boundsFile(home), 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export function writeBounds(home: string, bounds: SavedBounds): void {
  ensurePrivateDir(home)
  const file = boundsFile(home)
  writePrivateFileSync(`${file}.tmp`, `${JSON.stringify(bounds)}\n`)
  renameSync(`${file}.tmp`, file)
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  }
}

/**
 * `saved` as it can be shown on `displays` (their work areas): kept when its title bar is on one
 * of them, shrunk to fit that display; otherwise its size (shrunk) centred on the first display.
 * Null when nothing was saved or there is no display: the window's defaults apply.
 */
export function visibleBounds(
  saved: SavedBounds | null,
  displays: readonly Rect[]
): SavedBounds | null {
  const primary = displays[0]
  if (saved === null || primary === undefined) return null
  const titleBar = { x: saved.x, y: saved.y, width: saved.width, height: GRAB }
  const home = displays.find((d) => {
    const o = overlap(titleBar, d)
    return o.width >= GRAB && o.height > 0
  })
  const area = home ?? primary
  const width = Math.max(Math.min(saved.width, area.width), Math.min(MIN_WIDTH, area.width))
  const height = Math.max(Math.min(saved.height, area.height), Math.min(MIN_HEIGHT, area.height))
  if (home === undefined) {
    return {
      x: area.x + Math.round((area.width - width) / 2),
      y: area.y + Math.round((area.height - height) / 2),
      width,
      height,
      maximized: saved.maximized
    }
  }
  // On its display: moved in just enough that the whole window is there.
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - width)
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - height)
  return { x, y, width, height, maximized: saved.maximized }
}
