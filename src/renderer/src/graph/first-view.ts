// What a session's turns' canvas shows first: where the conversation stands. The last turns of
// the active path, as many as fit the pane as full cards (at most FIRST_VIEW_TURNS), with the
// path back to where the conversation's branch leaves the main line (its fork in view, not off
// the pane to the left), and the sub-agent runs the newest of them to start any started where
// they are shown (they fold into their turn at first: graph-view.ts). Runs and a branch columns
// away take room: the oldest turns are dropped (never those) for full cards to fit; where they
// cannot (a 360 px canvas at 900x700 shows one column of them), the view is framed at the zoom
// that fits, no less than where compact cards read at 11 px. Pure.
import type { GraphNode } from '../../../shared/views'
import { startsRun } from './branches'
import { clearRoom, overlayInsets, type Pane } from './clear-view'
import { boundsOf } from './flow-window'
import { NODE_HEIGHT, ROW_STEP, type Point } from './layout'
import { COMPACT_BELOW_ZOOM, COMPACT_MOST_ZOOM, FULL_LEGIBLE_ZOOM, LEGIBLE_ZOOM } from './zooms'

/** How many turns at the end of the active path the first view frames, at most. */
export const FIRST_VIEW_TURNS = 6

export interface FirstView {
  /** The nodes to frame. */
  ids: string[]
  /** The least zoom they are framed at: full cards, or compact ones where runs need the room. */
  minZoom: number
  /** The most: under COMPACT_BELOW_ZOOM where they are framed as compact cards. */
  maxZoom: number
}

/**
 * Where a view that must hold more than the last turns is framed: full cards at 11 px text and
 * more, else compact ones (12 px text down to zoom 0.4, 11 px at LEGIBLE_ZOOM), never between,
 * where full cards draw their smallest text under 11 px.
 */
const LEGIBLE_VIEWS = [
  { minZoom: FULL_LEGIBLE_ZOOM, maxZoom: 1 },
  { minZoom: LEGIBLE_ZOOM, maxZoom: COMPACT_MOST_ZOOM }
]

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
 * How many of the last turns `turns` (the active path's, parents first) run back to the last of
 * them on the main line (the root's column): 1 when the newest is on it. After a continue into a
 * branch drawn columns away (a run adopted from a third column), those turns are the path from
 * the fork to where the conversation stands; framing the branch's turns alone left its fork off
 * the view to the left.
 */
function turnsToMainLine(turns: readonly GraphNode[], positions: ReadonlyMap<string, Point>) {
  const main = turns.length === 0 ? undefined : positions.get(turns[0]!.id)?.x
  const last = turns.findLastIndex((turn) => positions.get(turn.id)?.x === main)
  return last === -1 ? 1 : turns.length - last
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
  // The last `count` turns, from `fewest` up to as many as fit, legible (LEGIBLE_VIEWS); null
  // when even `fewest` do not fit.
  const fitting = (fewest: number): FirstView | null => {
    for (const zooms of LEGIBLE_VIEWS) {
      for (let count = Math.max(most, fewest); count >= fewest; count--) {
        const ids = framed(count)
        if (zoomToFit(ids, positions, pane) >= zooms.minZoom) return { ids, ...zooms }
      }
    }
    return null
  }
  // The newest of those turns that started runs is framed with them, however many turns that
  // leaves, and so is the path back to the main line where the conversation left it.
  const starter = turns.slice(-most).findLastIndex((turn) => runs.has(turn.id))
  const forRuns = starter === -1 ? 1 : Math.min(most, turns.length) - starter
  const forFork = turnsToMainLine(turns, positions)
  if (starter === -1 && forFork === 1) {
    return { ids: framed(most), minZoom: COMPACT_BELOW_ZOOM, maxZoom: 1 }
  }
  const withFork = forFork > 1 ? fitting(Math.max(forFork, forRuns)) : null
  if (withFork !== null) return withFork
  // The fork is further than a legible view reaches (columns away on a 360 px canvas): the
  // branch's own last turns, as full cards.
  if (starter === -1) {
    return { ids: framed(Math.min(most, forFork - 1)), minZoom: COMPACT_BELOW_ZOOM, maxZoom: 1 }
  }
  const withRuns = fitting(forRuns)
  if (withRuns !== null) return withRuns
  // It ran more than fit beside the turns after it: they, it and its first runs, as many as fit.
  const turn = turns.at(-forRuns)!
  const ids = turns.slice(-forRuns).map((node) => node.id)
  for (const run of runs.get(turn.id) ?? []) {
    if (zoomToFit([...ids, run], positions, pane) < LEGIBLE_ZOOM) break
    ids.push(run)
  }
  return { ids, minZoom: LEGIBLE_ZOOM, maxZoom: COMPACT_MOST_ZOOM }
}
