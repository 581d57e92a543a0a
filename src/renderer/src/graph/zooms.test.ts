import { describe, expect, it } from 'vitest'
import { COMPACT_BELOW_ZOOM, compactType, LEGIBLE_ZOOM, MIN_ZOOM } from './zooms'

describe('a compact node’s type', () => {
  it('draws at 11 px on screen or more wherever Fit View draws compact nodes', () => {
    for (let zoom = LEGIBLE_ZOOM; zoom < COMPACT_BELOW_ZOOM; zoom += 0.01) {
      expect(compactType(zoom).fontPx * zoom).toBeGreaterThanOrEqual(11 - 1e-9)
    }
    // At the least zoom, 9 px: the wheel goes there, Fit View does not.
    expect(compactType(MIN_ZOOM).fontPx * MIN_ZOOM).toBeCloseTo(9)
  })

  it('wraps a title over two lines at least, more as the zoom leaves room', () => {
    expect(compactType(LEGIBLE_ZOOM).lines).toBe(2)
    expect(compactType(0.5).lines).toBe(2)
    expect(compactType(0.7).lines).toBe(3)
    // Every line fits the card's 76 px of text room.
    for (const zoom of [MIN_ZOOM, LEGIBLE_ZOOM, 0.5, 0.7]) {
      const { fontPx, lines } = compactType(zoom)
      expect(fontPx * 1.15 * lines).toBeLessThanOrEqual(76)
    }
  })
})
