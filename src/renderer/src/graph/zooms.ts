// The zooms the turns' canvas draws its nodes at, by what stays legible there: a full card's
// smallest text is 12 px, a compact node's 30 px and more (nodes.tsx, styles.css).

/** Under this zoom a full card's text would draw under 9 px: nodes switch to the compact form. */
export const COMPACT_BELOW_ZOOM = 0.75

/** A full card's smallest text (12 px) is 11 px on screen from here up. */
export const FULL_LEGIBLE_ZOOM = 11 / 12

/**
 * The most zoom a view framed for compact cards takes: between it and FULL_LEGIBLE_ZOOM full
 * cards would draw their smallest text at 9 to 11 px.
 */
export const COMPACT_MOST_ZOOM = COMPACT_BELOW_ZOOM - 0.01

/** Compact text (30 px) is 11 px on screen here: Fit View folds rather than go under it. */
export const LEGIBLE_ZOOM = 11 / 30

/**
 * The least zoom: a compact node's text is 9 px on screen here. Fit View on a long session
 * stops at it rather than drawing text nobody can read.
 */
export const MIN_ZOOM = 0.3

/** The least a compact node's text draws at on screen where the zoom allows: a full card's. */
const COMPACT_SCREEN_PX = 12

/** A compact node's largest type (flow px): 9 px on screen at the least zoom. */
const COMPACT_TEXT_PX = 30

/** A compact node's line height, and the height its text has (84 px less padding and border). */
const COMPACT_LINE_HEIGHT = 1.15
const COMPACT_TEXT_ROOM = 76

/**
 * A compact node's type at `zoom`: 12 px on screen while that is no more than 30 flow px (down to
 * zoom 0.4), 30 flow px below, and as many lines as the card holds of it. In 30 px type a line
 * holds about a dozen characters: one line cut a title to ten ("also remov…"), two hold two dozen.
 */
export function compactType(zoom: number): { fontPx: number; lines: number } {
  const fontPx = Math.min(COMPACT_TEXT_PX, COMPACT_SCREEN_PX / zoom)
  const lines = Math.max(1, Math.floor(COMPACT_TEXT_ROOM / (fontPx * COMPACT_LINE_HEIGHT)))
  return { fontPx, lines }
}
