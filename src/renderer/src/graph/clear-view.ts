// The part of the canvas no overlay covers: the minimap (top right), the zoom controls (bottom
// left) and React Flow's attribution (bottom right) sit over the graph, and a node under one of
// them cannot be clicked. A node brought into view (a keyboard move, a switch, a search result)
// is brought into this part; Fit View keeps the tree in it too. Pure.
import { MINIMAP_SIZE } from './GraphMiniMap'

/** Pixels at each side of the pane that an overlay may cover (each is drawn 15 px in). */
export const OVERLAY_INSETS = {
  top: MINIMAP_SIZE.height + 30,
  left: 56,
  right: 24,
  bottom: 24
} as const

/** Whether a box `left`, `top`, `width` x `height` (pane px) lies in the uncovered part. */
export function inClearView(
  box: { left: number; top: number; width: number; height: number },
  pane: { width: number; height: number }
): boolean {
  return (
    box.left >= OVERLAY_INSETS.left &&
    box.top >= OVERLAY_INSETS.top &&
    box.left + box.width <= pane.width - OVERLAY_INSETS.right &&
    box.top + box.height <= pane.height - OVERLAY_INSETS.bottom
  )
}

/**
 * The flow point to hand setCenter (which puts it at the pane's centre) so that flow point
 * `at` lands at the centre of the uncovered part instead, at `zoom`.
 */
export function centreInClearView(
  at: { x: number; y: number },
  zoom: number,
  pane: { width: number; height: number }
): { x: number; y: number } {
  const clearX = (OVERLAY_INSETS.left + pane.width - OVERLAY_INSETS.right) / 2
  const clearY = (OVERLAY_INSETS.top + pane.height - OVERLAY_INSETS.bottom) / 2
  return { x: at.x - (clearX - pane.width / 2) / zoom, y: at.y - (clearY - pane.height / 2) / zoom }
}
