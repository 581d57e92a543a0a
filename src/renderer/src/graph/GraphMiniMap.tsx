// The overview of the whole tree, top right of the canvas. The nodes are drawn once per change of
// the graph on a canvas, and the view's frame is a box moved over it: panning moves the box, not
// the drawing. (React Flow's MiniMap is one SVG of every node whose viewport mask changes on each
// pan frame, so the browser painted 5,000 rects per frame: docs/performance.md.) A click or a drag
// on it moves the view there; the wheel zooms. Drawn only in a pane with room for it
// (clear-view.ts).
import { Panel, useStore, useStoreApi, type ReactFlowState } from '@xyflow/react'
import { useCallback, useEffect, useMemo, useRef, type PointerEvent, type WheelEvent } from 'react'
import { selectFlowNodes, useGraphStore } from '../stores/graph-store'
import type { FlowNode } from './flow-model'
import { selectTheme, useThemeStore } from '../theme'
import { NODE_HEIGHT, NODE_WIDTH } from './layout'
import { MINIMAP_SIZE, showsMinimap } from './clear-view'

export const selectMinimapShown = (s: ReactFlowState) =>
  showsMinimap({ width: s.width, height: s.height })

/** Room left around the tree inside the minimap, in minimap pixels. */
const INSET = 4

/** A short tree is drawn at this scale at most, so it looks short rather than filling the map. */
const MAX_SCALE = 0.2

/** Where the flow's coordinates land in the minimap: scale, then offset. */
interface MapFit {
  minX: number
  minY: number
  scale: number
  offsetX: number
  offsetY: number
}

function fitOf(nodes: readonly FlowNode[]): MapFit | null {
  if (nodes.length === 0) return null
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const { position } of nodes) {
    minX = Math.min(minX, position.x)
    minY = Math.min(minY, position.y)
    maxX = Math.max(maxX, position.x + NODE_WIDTH)
    maxY = Math.max(maxY, position.y + NODE_HEIGHT)
  }
  const room = { width: MINIMAP_SIZE.width - 2 * INSET, height: MINIMAP_SIZE.height - 2 * INSET }
  const scale = Math.min(MAX_SCALE, room.width / (maxX - minX), room.height / (maxY - minY))
  return {
    minX,
    minY,
    scale,
    offsetX: INSET + (room.width - (maxX - minX) * scale) / 2,
    offsetY: INSET + (room.height - (maxY - minY) * scale) / 2
  }
}

function draw(canvas: HTMLCanvasElement, nodes: readonly FlowNode[], fit: MapFit | null): void {
  const ratio = window.devicePixelRatio || 1
  canvas.width = Math.round(MINIMAP_SIZE.width * ratio)
  canvas.height = Math.round(MINIMAP_SIZE.height * ratio)
  const context = canvas.getContext('2d')
  if (context === null) return
  context.setTransform(ratio, 0, 0, ratio, 0, 0)
  context.clearRect(0, 0, MINIMAP_SIZE.width, MINIMAP_SIZE.height)
  if (fit === null) return
  // The theme's colours, read where they are defined (they follow the OS's light or dark mode).
  const style = getComputedStyle(canvas)
  const colours = {
    other: style.getPropertyValue('--muted').trim() || 'gray',
    active: style.getPropertyValue('--active').trim() || 'blue'
  }
  // A node is at least one pixel: a tree of thousands still shows each branch.
  const width = Math.max(1, NODE_WIDTH * fit.scale)
  const height = Math.max(1, NODE_HEIGHT * fit.scale)
  for (const onActivePath of [false, true]) {
    context.fillStyle = onActivePath ? colours.active : colours.other
    context.beginPath()
    for (const node of nodes) {
      if (node.data.node.onActivePath !== onActivePath) continue
      context.rect(
        fit.offsetX + (node.position.x - fit.minX) * fit.scale,
        fit.offsetY + (node.position.y - fit.minY) * fit.scale,
        width,
        height
      )
    }
    context.fill()
  }
}

const selectTransform = (s: ReactFlowState) => s.transform
const selectWidth = (s: ReactFlowState) => s.width
const selectHeight = (s: ReactFlowState) => s.height

/**
 * The frame of what the canvas shows, in minimap pixels, kept inside the minimap: a view wider
 * than the tree is framed by the minimap's edges (the map stays fixed while the view pans).
 */
function ViewFrame({ fit }: { fit: MapFit }) {
  // The transform is a new array only when the view moved: the frame re-renders then only.
  const [tx, ty, zoom] = useStore(selectTransform)
  const width = useStore(selectWidth)
  const height = useStore(selectHeight)
  const x = fit.offsetX + (-tx / zoom - fit.minX) * fit.scale
  const y = fit.offsetY + (-ty / zoom - fit.minY) * fit.scale
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v))
  const left = clamp(x, MINIMAP_SIZE.width)
  const top = clamp(y, MINIMAP_SIZE.height)
  const right = clamp(x + (width / zoom) * fit.scale, MINIMAP_SIZE.width)
  const bottom = clamp(y + (height / zoom) * fit.scale, MINIMAP_SIZE.height)
  return (
    <div
      className="graph-minimap__frame"
      style={{
        width: right - left,
        height: bottom - top,
        transform: `translate(${left}px, ${top}px)`
      }}
    />
  )
}

export function GraphMiniMap() {
  return useStore(selectMinimapShown) ? <MiniMapPanel /> : null
}

function MiniMapPanel() {
  const nodes = useGraphStore(selectFlowNodes)
  const fit = useMemo(() => fitOf(nodes), [nodes])
  const canvas = useRef<HTMLCanvasElement>(null)
  const store = useStoreApi<FlowNode>()
  const redraw = useCallback(() => {
    if (canvas.current !== null) draw(canvas.current, nodes, fit)
  }, [nodes, fit])
  // Drawn again on a change of theme too: its colours come from the theme's variables.
  const theme = useThemeStore(selectTheme)
  useEffect(redraw, [redraw, theme])

  /** Centres the view on the flow point under the pointer, at the zoom it has. */
  const moveTo = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      if (fit === null) return
      const box = event.currentTarget.getBoundingClientRect()
      const x = fit.minX + (event.clientX - box.left - fit.offsetX) / fit.scale
      const y = fit.minY + (event.clientY - box.top - fit.offsetY) / fit.scale
      const { setCenter, transform } = store.getState()
      void setCenter(x, y, { zoom: transform[2] })
    },
    [fit, store]
  )
  const onPointerDown = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      event.currentTarget.setPointerCapture(event.pointerId)
      moveTo(event)
    },
    [moveTo]
  )
  const onPointerMove = useCallback(
    (event: PointerEvent<HTMLDivElement>) => {
      if (event.currentTarget.hasPointerCapture(event.pointerId)) moveTo(event)
    },
    [moveTo]
  )
  const onWheel = useCallback(
    (event: WheelEvent<HTMLDivElement>) => {
      const { panZoom } = store.getState()
      void panZoom?.scaleBy(event.deltaY < 0 ? 1.2 : 1 / 1.2)
    },
    [store]
  )

  return (
    <Panel position="top-right">
      <div
        className="graph-minimap"
        role="img"
        aria-label="Minimap of the branch graph"
        style={MINIMAP_SIZE}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onWheel={onWheel}
      >
        <canvas ref={canvas} style={MINIMAP_SIZE} />
        {fit !== null && <ViewFrame fit={fit} />}
      </div>
    </Panel>
  )
}
