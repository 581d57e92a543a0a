// What a session's turns' canvas shows first: where the conversation stands. The last turns of
// the active path, as many as fit the pane as full cards (at most FIRST_VIEW_TURNS), with the
// sub-agent runs the newest of them to start any started (stacked beside it, layout.ts): a run
// is in view with its turn, not left off the pane until Fit View. Runs take a second column and
// rows of their own: the oldest turns are dropped (never that one) for full cards to fit; where
// they cannot (a 360 px canvas at 900x700 shows one column of them), the view is framed at the
// zoom that fits, no less than where compact cards read at 11 px. Pure.
import type { GraphNode } from '../../../shared/views'
import { startsRun } from './branches'
import { clearRoom, overlayInsets, type Pane } from './clear-view'
import { boundsOf } from './flow-window'
import { NODE_HEIGHT, ROW_STEP, type Point } from './layout'
import { COMPACT_BELOW_ZOOM, LEGIBLE_ZOOM } from './zooms'

/** How many turns at the end of the active path the first view frames, at most. */
export const FIRST_VIEW_TURNS = 6

export interface FirstView {
  /** The nodes to frame. */
  ids: string[]
  /** The least zoom they are framed at: full cards, or compact ones where runs need the room. */
  minZoom: number
}

/** The zoom that fits `ids` into the uncovered part of `pane` (Infinity for none). */
function zoomToFit(ids: readonly string[], positions: ReadonlyMap<string, Point>, pane: Pane) {
  const box = boundsOf(ids, positions)
  if (box === null) return Infinity
  const room = clearRoom(pane)
  return Math.min(room.width / box.width, room.height / box.height)
}

/**
 * The rows of turns that fit the pane's height as full cards (1 at least). The minimap's band is
 * counted whether or not it is drawn: a notice or a row that comes after the canvas was measured
 * takes some of its height, and framing more than fit would centre them at the least zoom and
 * leave the newest turn below the view (at 900x700 it did).
 */
function turnsThatFit(pane: Pane): number {
  const insets = overlayInsets(true)
  const room = (pane.height - insets.top - insets.bottom) / COMPACT_BELOW_ZOOM
  const rows = Math.floor((room + ROW_STEP - NODE_HEIGHT) / ROW_STEP)
  return Math.max(1, Math.min(FIRST_VIEW_TURNS, rows))
}

/** The shown sub-agent nodes under each node that is no sub-agent's, in order. */
function runsByTurn(visible: readonly GraphNode[]): Map<string, string[]> {
  const byId = new Map(visible.map((node) => [node.id, node]))
  const turnOf = new Map<string, string>()
  const runs = new Map<string, string[]>()
  for (const node of visible) {
    if (node.kind !== 'subagent' || node.parentId === null) continue
    const parent = byId.get(node.parentId)
    if (parent === undefined) continue
    const turn = startsRun(node, parent.kind) ? parent.id : turnOf.get(parent.id)
    if (turn === undefined) continue
    turnOf.set(node.id, turn)
    const started = runs.get(turn)
    if (started === undefined) runs.set(turn, [node.id])
    else started.push(node.id)
  }
  return runs
}

/**
 * The first view of the shown nodes `visible` (parents first) laid out at `positions` in a pane
 * `pane` px. A sub-agent's run sits on its turn's active path but is no point of the
 * conversation: the turns counted are the others.
 */
export function firstView(
  visible: readonly GraphNode[],
  positions: ReadonlyMap<string, Point>,
  pane: Pane
): FirstView {
  const turns = visible.filter((node) => node.onActivePath && node.kind !== 'subagent')
  const runs = runsByTurn(visible)
  const most = turnsThatFit(pane)
  const framed = (count: number) =>
    turns.slice(-count).flatMap((turn) => [turn.id, ...(runs.get(turn.id) ?? [])])
  // The newest of those turns that started runs is framed with them, however many turns that
  // leaves: as full cards where the pane has the room, else compact ones.
  const starter = turns.slice(-most).findLastIndex((turn) => runs.has(turn.id))
  if (starter === -1) return { ids: framed(most), minZoom: COMPACT_BELOW_ZOOM }
  const fewest = Math.min(most, turns.length) - starter
  for (const least of [COMPACT_BELOW_ZOOM, LEGIBLE_ZOOM]) {
    for (let count = most; count >= fewest; count--) {
      const ids = framed(count)
      if (zoomToFit(ids, positions, pane) >= least) return { ids, minZoom: least }
    }
  }
  // It ran more than fit beside the turns after it: they, it and its first runs, as many as fit.
  const turn = turns.at(-fewest)!
  const ids = turns.slice(-fewest).map((node) => node.id)
  for (const run of runs.get(turn.id) ?? []) {
    if (zoomToFit([...ids, run], positions, pane) < LEGIBLE_ZOOM) break
    ids.push(run)
  }
  return { ids, minZoom: LEGIBLE_ZOOM }
}
