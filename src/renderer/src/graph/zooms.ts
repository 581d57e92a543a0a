// The zooms the turns' canvas draws its nodes at, by what stays legible there: a full card's
// smallest text is 12 px, a compact node's 30 px and more (nodes.tsx, styles.css).

/** Under this zoom a full card's text would draw under 9 px: nodes switch to the compact form. */
export const COMPACT_BELOW_ZOOM = 0.75

/** Compact text (30 px) is 11 px on screen here: Fit View folds rather than go under it. */
export const LEGIBLE_ZOOM = 11 / 30

/**
 * The least zoom: a compact node's text is 9 px on screen here. Fit View on a long session
 * stops at it rather than drawing text nobody can read.
 */
export const MIN_ZOOM = 0.3
