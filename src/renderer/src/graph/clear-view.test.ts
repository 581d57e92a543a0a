import { describe, expect, it } from 'vitest'
import { centreInClearView, inClearView, OVERLAY_INSETS } from './clear-view'

const pane = { width: 900, height: 500 }

describe('the part of the canvas no overlay covers', () => {
  it('counts a node under the minimap (top right) as out of view', () => {
    const underMinimap = { left: 700, top: 40, width: 170, height: 60 }
    expect(inClearView(underMinimap, pane)).toBe(false)
    expect(inClearView({ ...underMinimap, top: OVERLAY_INSETS.top }, pane)).toBe(true)
    expect(inClearView({ left: 10, top: 300, width: 100, height: 50 }, pane)).toBe(false)
  })

  it('centres a point in that part, below the minimap, at any zoom', () => {
    for (const zoom of [0.3, 0.75, 1, 2]) {
      const at = { x: 1000, y: 2000 }
      const centre = centreInClearView(at, zoom, pane)
      // setCenter puts `centre` at the pane's middle: where does `at` land on screen?
      const screen = {
        x: pane.width / 2 + (at.x - centre.x) * zoom,
        y: pane.height / 2 + (at.y - centre.y) * zoom
      }
      expect(screen.x).toBeCloseTo((OVERLAY_INSETS.left + pane.width - OVERLAY_INSETS.right) / 2)
      expect(screen.y).toBeCloseTo((OVERLAY_INSETS.top + pane.height - OVERLAY_INSETS.bottom) / 2)
      expect(screen.y).toBeGreaterThan(pane.height / 2)
    }
  })
})
