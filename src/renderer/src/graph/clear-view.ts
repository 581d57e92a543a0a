// The part of the canvas no overlay covers: the minimap (top right), the zoom controls (bottom
// left) and React Flow's attribution (bottom right) sit over the graph, and a node under one of
// them cannot be clicked. A node brought into view (a keyboard move, a switch, a search result)
// is brought into this part; Fit View keeps the tree in it too. Pure.
//
// The minimap is drawn only in a pane with room for it: at 900x700 the canvas is 360 px wide,
// the map took 44% of that and its band 140 px of the height, over the cards it should help to
// find. There Fit View and the Branches outline give the overview instead.

export const MINIMAP_SIZE = { width: 160, height: 110 }

/** The least pane the minimap is drawn in: it takes at most about a quarter of either side. */
const MINIMAP_PANE = { width: 3.5 * MINIMAP_SIZE.width, height: 4 * MINIMAP_SIZE.height }

export interface Pane {
  width: number
  height: number
}

export interface Insets {
  top: number
  left: number
  right: number
  bottom: number
}

export function showsMinimap(pane: Pane): boolean {
  return pane.width >= MINIMAP_PANE.width && pane.height >= MINIMAP_PANE.height
}

/** Pixels at each side of the pane that an overlay may cover (each is drawn 15 px in). */
export function overlayInsets(minimap: boolean): Insets {
  return { top: minimap ? MINIMAP_SIZE.height + 30 : 24, left: 56, right: 24, bottom: 24 }
}

const insetsOf = (pane: Pane) => overlayInsets(showsMinimap(pane))

/** Fit View's padding, in React Flow's terms: the insets in pixels. */
export function fitPadding(minimap: boolean): Record<keyof Insets, `${number}px`> {
  const insets = overlayInsets(minimap)
  return {
    top: `${insets.top}px`,
    left: `${insets.left}px`,
    right: `${insets.right}px`,
    bottom: `${insets.bottom}px`
  }
}

/** The uncovered part's size in a pane. */
export function clearRoom(pane: Pane): Pane {
  const insets = insetsOf(pane)
  return {
    width: pane.width - insets.left - insets.right,
    height: pane.height - insets.top - insets.bottom
  }
}

/** Whether a box `left`, `top`, `width` x `height` (pane px) lies in the uncovered part. */
export function inClearView(
  box: { left: number; top: number; width: number; height: number },
  pane: Pane
): boolean {
  const insets = insetsOf(pane)
  return (
    box.left >= insets.left &&
    box.top >= insets.top &&
    box.left + box.width <= pane.width - insets.right &&
    box.top + box.height <= pane.height - insets.bottom
  )
}

/**
 * The flow point to hand setCenter (which puts it at the pane's centre) so that flow point
 * `at` lands at the centre of the uncovered part instead, at `zoom`.
 */
export function centreInClearView(
  at: { x: number; y: number },
  zoom: number,
  pane: Pane
): { x: number; y: number } {
  const insets = insetsOf(pane)
  const clearX = (insets.left + pane.width - insets.right) / 2
  const clearY = (insets.top + pane.height - insets.bottom) / 2
  return { x: at.x - (clearX - pane.width / 2) / zoom, y: at.y - (clearY - pane.height / 2) / zoom }
}
