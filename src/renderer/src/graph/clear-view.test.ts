import { describe, expect, it } from 'vitest'
import {
  centreInClearView,
  clearRoom,
  inClearView,
  overlayInsets,
  showsMinimap
} from './clear-view'

const wide = { width: 900, height: 500 }
// The canvas of a 900x700 window: 360 px between the side panel and the details.
const narrow = { width: 360, height: 460 }

describe('the part of the canvas no overlay covers', () => {
  it('counts a node under the minimap (top right) as out of view', () => {
    const underMinimap = { left: 700, top: 40, width: 170, height: 60 }
    expect(inClearView(underMinimap, wide)).toBe(false)
    expect(inClearView({ ...underMinimap, top: overlayInsets(true).top }, wide)).toBe(true)
    expect(inClearView({ left: 10, top: 300, width: 100, height: 50 }, wide)).toBe(false)
  })

  it('has no minimap band in a pane too small for the minimap', () => {
    expect(showsMinimap(wide)).toBe(true)
    expect(showsMinimap(narrow)).toBe(false)
    expect(showsMinimap({ width: 900, height: 400 })).toBe(false)
    expect(inClearView({ left: 100, top: 40, width: 170, height: 60 }, narrow)).toBe(true)
    expect(clearRoom(narrow).height).toBe(narrow.height - 48)
    expect(clearRoom(wide).height).toBe(wide.height - overlayInsets(true).top - 24)
  })

  it('centres a point in that part, below the minimap where there is one, at any zoom', () => {
    for (const pane of [wide, narrow]) {
      const insets = overlayInsets(showsMinimap(pane))
      for (const zoom of [0.3, 0.75, 1, 2]) {
        const at = { x: 1000, y: 2000 }
        const centre = centreInClearView(at, zoom, pane)
        // setCenter puts `centre` at the pane's middle: where does `at` land on screen?
        const screen = {
          x: pane.width / 2 + (at.x - centre.x) * zoom,
          y: pane.height / 2 + (at.y - centre.y) * zoom
        }
        expect(screen.x).toBeCloseTo((insets.left + pane.width - insets.right) / 2)
        expect(screen.y).toBeCloseTo((insets.top + pane.height - insets.bottom) / 2)
      }
    }
    expect(overlayInsets(true).top).toBeGreaterThan(overlayInsets(false).top)
  })
})
