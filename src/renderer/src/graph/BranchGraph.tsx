// The branch explorer: the session tree in React Flow. The canvas subscribes to the node and edge
// arrays only (they change when the graph changes, never per token); selection lives in its own
// store field, and the keyboard moves it through the tree.
import {
  Background,
  ControlButton,
  Controls,
  ReactFlow,
  ReactFlowProvider,
  getViewportForBounds,
  useStore,
  useStoreApi,
  type FitViewOptions,
  type Edge,
  type NodeMouseHandler,
  type OnMoveStart
} from '@xyflow/react'
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
  type WheelEvent
} from 'react'
import { moveSelection, openNode, selectNode, setCollapsed } from '../actions/session'
import {
  conversationTip,
  selectCentreRequest,
  selectFrameRequest,
  selectFlowEdges,
  selectFlowNodes,
  selectHasNodes,
  selectPositions,
  selectSelectedId,
  selectSessionId,
  selectShowBranches,
  useGraphStore
} from '../stores/graph-store'
import { selectDemo, selectRunning, useAppStore } from '../stores/app-store'
import { composerField, focusNodeElement, nodeElement } from '../focus'
import { SearchBar } from '../panels/SearchBar'
import { BranchCanvas } from './BranchCanvas'
import type { FlowNode } from './flow-model'
import { centreInClearView, clearRoom, fitPadding, inClearView, showsMinimap } from './clear-view'
import { boundsOf, contains, flowWindow, grown, viewRect, type FlowRect } from './flow-window'
import { firstView } from './first-view'
import { NODE_HEIGHT, NODE_WIDTH, type Point } from './layout'
import { GraphMiniMap, selectMinimapShown } from './GraphMiniMap'
import { useBoxSize, type BoxSize } from './box-size'
import { nodeTypes } from './nodes'
import { COMPACT_BELOW_ZOOM, compactType, LEGIBLE_ZOOM, MIN_ZOOM } from './zooms'
import type { Direction } from './tree-index'
import { selectTheme, useThemeStore } from '../theme'

const ARROWS: Record<string, Direction> = {
  ArrowUp: 'parent',
  ArrowDown: 'child',
  ArrowLeft: 'previousSibling',
  ArrowRight: 'nextSibling'
}

/** Four corners: the Fit View button's sign (React Flow's own button is replaced: fitAll). */
function FitViewIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 30" aria-hidden="true">
      <path d="M0 0h10v4H4v6H0zM22 0h10v10h-4V4h-6zM28 20h4v10H22v-4h6zM0 20h4v6h6v4H0z" />
    </svg>
  )
}

const onNodeClick: NodeMouseHandler<FlowNode> = (_event, node) => {
  selectNode(node.id)
  focusNodeElement(node.id)
}
const onNodeDoubleClick: NodeMouseHandler<FlowNode> = (_event, node) => openNode(node.id)
const onNodeMouseEnter: NodeMouseHandler<FlowNode> = (_event, node) =>
  useGraphStore.getState().setPeek(node.id)
const onNodeMouseLeave: NodeMouseHandler<FlowNode> = () => useGraphStore.getState().setPeek(null)

/** The window's height above and below the canvas: the header, notices and the search row. */
const CHROME_HEIGHT = 160

/** Whether the shown turns fit a pane `width` x `height` px only under the legible zoom. */
function needsFolding(positions: ReadonlyMap<string, Point>, width: number, height: number) {
  if (width === 0 || height === 0 || positions.size === 0) return false
  let right = 0
  let bottom = 0
  for (const { x, y } of positions.values()) {
    right = Math.max(right, x + NODE_WIDTH)
    bottom = Math.max(bottom, y + NODE_HEIGHT)
  }
  const room = clearRoom({ width, height })
  return Math.min(room.width / right, room.height / bottom) < LEGIBLE_ZOOM
}

/** + opens the selected node's folded branch, - folds it. */
const FOLD_KEYS: Record<string, 'expand' | 'collapse'> = {
  '+': 'expand',
  '=': 'expand',
  '-': 'collapse'
}

type FlowStore = ReturnType<typeof useStoreApi<FlowNode>>

/**
 * Pans to the node when it is outside the view or under an overlay (the minimap, the controls,
 * the attribution: clear-view.ts), centring it in the part they leave; `duration` 0 jumps there.
 */
function revealNode(store: FlowStore, id: string, duration = 200): void {
  const position = useGraphStore.getState().positions.get(id)
  if (position === undefined) return
  const { transform, width, height } = store.getState()
  // Before the pane is measured the first view is fitView's to make, not ours.
  if (width === 0 || height === 0) return
  const [tx, ty, zoom] = transform
  const box = {
    left: position.x * zoom + tx,
    top: position.y * zoom + ty,
    width: NODE_WIDTH * zoom,
    height: NODE_HEIGHT * zoom
  }
  if (!inClearView(box, { width, height })) centreNode(store, id, Math.max(zoom, 0.6), duration)
}

/** Centres node `id` in the part of the canvas no overlay covers, at `zoom`. */
function centreNode(store: FlowStore, id: string, zoom: number, duration: number): void {
  const position = useGraphStore.getState().positions.get(id)
  if (position === undefined) return
  const { width, height, setCenter } = store.getState()
  const middle = { x: position.x + NODE_WIDTH / 2, y: position.y + NODE_HEIGHT / 2 }
  const { x, y } = centreInClearView(middle, zoom, { width, height })
  void setCenter(x, y, { zoom, duration })
}

/**
 * Pans to the selected node when it is outside the view (keyboard moves, a rewind). While the
 * agent runs, the view follows the newest turn, unless the user has panned or zoomed away since
 * the run started: then it stays where they put it.
 */
function useKeepSelectionInView(): { onMoveStart: OnMoveStart } {
  const store = useStoreApi<FlowNode>()
  const selectedId = useGraphStore(selectSelectedId)
  const tip = useGraphStore(conversationTip)
  const running = useAppStore(selectRunning)
  const pannedAway = useRef(false)
  useEffect(() => {
    if (running) pannedAway.current = false
  }, [running])
  useEffect(() => {
    if (selectedId !== null && !(running && pannedAway.current)) revealNode(store, selectedId)
  }, [selectedId, store, running])
  useEffect(() => {
    if (running && tip !== null && !pannedAway.current) revealNode(store, tip)
  }, [tip, running, store])
  // A move with an event is the user's (drag, wheel, pinch); one without is ours (setCenter).
  const onMoveStart = useCallback<OnMoveStart>(
    (event) => {
      if (event !== null && running) pannedAway.current = true
    },
    [running]
  )
  // A search result chosen: centre it at a zoom where its full card shows.
  const centre = useGraphStore(selectCentreRequest)
  useEffect(() => {
    if (centre === null) return
    if (!useGraphStore.getState().positions.has(centre.id)) return
    centreNode(store, centre.id, Math.max(store.getState().transform[2], COMPACT_BELOW_ZOOM), 200)
    // A node far off mounts only once the pan brings it into view (and a canvas mounting anew,
    // from the branches' cards, fits its first view meanwhile): wait up to half a second.
    focusNodeElement(centre.id)
  }, [centre, store])
  // Side lines opened from a node: it and them in view, where they were not, zoomed out no
  // further than compact cards read at 11 px.
  const frame = useGraphStore(selectFrameRequest)
  useEffect(() => {
    if (frame !== null) frameNodes(store, frame.ids)
  }, [frame, store])
  return { onMoveStart }
}

/**
 * Brings the nodes `ids` into the part of the canvas no overlay covers when one of them is not:
 * at the zoom the view has or, where they need it, less, down to LEGIBLE_ZOOM (then they are
 * centred, the box cut at its sides).
 */
function frameNodes(store: FlowStore, ids: readonly string[]): void {
  const { positions } = useGraphStore.getState()
  const { transform, width, height, panZoom } = store.getState()
  const bounds = boundsOf(ids, positions)
  if (bounds === null || panZoom === null || width === 0 || height === 0) return
  const [tx, ty, zoom] = transform
  const pane = { width, height }
  const box = {
    left: bounds.x * zoom + tx,
    top: bounds.y * zoom + ty,
    width: bounds.width * zoom,
    height: bounds.height * zoom
  }
  if (inClearView(box, pane)) return
  const padding = fitPadding(showsMinimap(pane))
  const least = Math.min(zoom, LEGIBLE_ZOOM)
  void panZoom.setViewport(getViewportForBounds(bounds, width, height, least, zoom, padding), {
    duration: 200
  })
}

/**
 * Whether the selected node (the graph's one tab stop) is rendered. It is not once panned out
 * of view (culling): the canvas itself is then the tab stop, and focusing it brings the node
 * back. Checked after each render and each pan or zoom.
 */
function useSelectionRendered(selectedId: string | null): [boolean, () => void] {
  const [rendered, setRendered] = useState(true)
  const check = useCallback(() => {
    requestAnimationFrame(() => {
      setRendered(selectedId === null || nodeElement(selectedId) !== null)
    })
  }, [selectedId])
  useEffect(check)
  return [rendered, check]
}

/**
 * The nodes and edges React Flow gets: those around the view (flow-window.ts). The first window
 * is the first view's nodes and as far around them as the view can reach at the first fit's
 * least zoom; then it moves whenever the view (a pan, a zoom, a resize, a centring) leaves it.
 */
function useFlowWindow(
  first: FitViewOptions,
  nodes: readonly FlowNode[],
  edges: readonly Edge[],
  positions: ReadonlyMap<string, Point>
) {
  const store = useStoreApi<FlowNode>()
  const [rect, setRect] = useState<FlowRect>(() => {
    const ids = (first.nodes ?? []).map((node) => node.id)
    const box = boundsOf(ids, positions) ?? { x: 0, y: 0, width: 0, height: 0 }
    const least = first.minZoom ?? COMPACT_BELOW_ZOOM
    const width = window.innerWidth / least
    const height = window.innerHeight / least
    const view = {
      x: box.x + box.width / 2 - width / 2,
      y: box.y + box.height / 2 - height / 2,
      width,
      height
    }
    return grown(view)
  })
  const current = useRef(rect)
  useEffect(
    () =>
      store.subscribe(({ transform, width, height, fitViewQueued }) => {
        // Until the first fit is made the view is React Flow's default, not what will show:
        // moving the window there would take the first view's nodes from the fit.
        if (width === 0 || height === 0 || fitViewQueued) return
        const view = viewRect(transform, width, height)
        if (contains(current.current, view)) return
        current.current = grown(view)
        setRect(current.current)
      }),
    [store]
  )
  return useMemo(() => flowWindow(rect, nodes, edges, positions), [rect, nodes, edges, positions])
}

/**
 * Sets the compact nodes' type for the zoom (compactType) on the canvas element, as CSS
 * variables: a zoom frame restyles the drawn nodes' text and re-renders no component.
 */
function useCompactType(): RefObject<HTMLDivElement | null> {
  const store = useStoreApi<FlowNode>()
  const canvas = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let zoom = 0
    const apply = (next: number) => {
      const element = canvas.current
      if (element === null || next === zoom) return
      zoom = next
      const { fontPx, lines } = compactType(zoom)
      element.style.setProperty('--compact-text', `${fontPx.toFixed(2)}px`)
      element.style.setProperty('--compact-lines', String(lines))
    }
    apply(store.getState().transform[2])
    return store.subscribe(({ transform }) => apply(transform[2]))
  }, [store])
  return canvas
}

function Canvas({ pane }: { pane: BoxSize }) {
  // One tab stop in the graph, the selected node (a roving tabindex, set by the node itself:
  // nodes.tsx useTabStop): Tab passes the graph in one step, the arrows move within it. The
  // nodes are the store's array as it is, so a selection move hands React Flow nothing new.
  const nodes = useGraphStore(selectFlowNodes)
  const selectedId = useGraphStore(selectSelectedId)
  const edges = useGraphStore(selectFlowEdges)
  const positions = useGraphStore(selectPositions)
  const theme = useThemeStore(selectTheme)
  const { onMoveStart } = useKeepSelectionInView()
  const store = useStoreApi<FlowNode>()
  const [selectionRendered, checkSelectionRendered] = useSelectionRendered(selectedId)
  const canvas = useCompactType()

  // Computed once per mounted canvas, for the pane as first measured: the first view shows where
  // the conversation stands (first-view.ts), or the node a centring waits for (a branch's card
  // opened mounts this canvas to show it). Its padding follows the pane: the minimap's band only
  // where the minimap is drawn.
  const [first] = useState<FitViewOptions>(() => {
    const { visible, centreRequest, positions } = useGraphStore.getState()
    if (centreRequest !== null && positions.has(centreRequest.id)) {
      return { nodes: [{ id: centreRequest.id }], maxZoom: 1, minZoom: COMPACT_BELOW_ZOOM }
    }
    // The notices over the canvas may come after it is measured: its height is no more than the
    // window leaves under the chrome.
    const height = Math.min(pane.height, window.innerHeight - CHROME_HEIGHT)
    const view = firstView(visible, positions, { width: pane.width, height })
    return {
      nodes: view.ids.map((id) => ({ id })),
      maxZoom: view.maxZoom,
      minZoom: view.minZoom
    }
  })
  const minimap = useStore(selectMinimapShown)
  const fitViewOptions = useMemo<FitViewOptions>(
    () => ({ ...first, padding: fitPadding(minimap) }),
    [first, minimap]
  )
  const shown = useFlowWindow(fitViewOptions, nodes, edges, positions)

  // Selection follows the focus: a node reached with Tab is the one the arrows move from. The
  // canvas itself takes the focus only when the selected node is out of view: it passes it on.
  const onFocus = useCallback(
    (event: FocusEvent<HTMLDivElement>) => {
      // Only a keyboard arrival is passed on: a click on the pane starts a pan where it is.
      if (event.target.classList.contains('react-flow')) {
        if (!event.target.matches(':focus-visible')) return
        const selected = useGraphStore.getState().selectedId
        if (selected !== null) {
          revealNode(store, selected, 0)
          focusNodeElement(selected)
        }
        return
      }
      const id = event.target.closest<HTMLElement>('.react-flow__node')?.dataset.id
      if (id !== undefined && id !== useGraphStore.getState().selectedId) selectNode(id)
      // Reached by the keyboard, a compact node shows its full card (a click selects it only).
      if (id !== undefined && event.target.matches(':focus-visible')) {
        useGraphStore.getState().setPeek(id)
      }
    },
    [store]
  )
  const onBlur = useCallback((event: FocusEvent<HTMLDivElement>) => {
    if (
      !(event.relatedTarget instanceof Element) ||
      !event.relatedTarget.closest('.react-flow__node')
    ) {
      useGraphStore.getState().setPeek(null)
    }
  }, [])

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDivElement>) => {
    const direction = ARROWS[event.key]
    if (direction !== undefined) {
      event.preventDefault()
      const moved = moveSelection(direction)
      if (moved !== null) focusNodeElement(moved)
      return
    }
    const selected = useGraphStore.getState().selectedId
    if (selected === null) return
    if (event.key === 'Enter') {
      event.preventDefault()
      openNode(selected)
    } else if (FOLD_KEYS[event.key] !== undefined) {
      event.preventDefault()
      setCollapsed(selected, FOLD_KEYS[event.key] === 'collapse')
    }
  }, [])

  // The first view's fit is made before the canvas has its final height (a notice or a row
  // over it comes later): the newest turn is brought into view if it ended up outside.
  const onInit = useCallback(() => {
    requestAnimationFrame(() => {
      const tip = conversationTip(useGraphStore.getState())
      if (tip !== null && useGraphStore.getState().centreRequest === null) revealNode(store, tip)
    })
  }, [store])
  // Zoomed out as far as the turns go, a wheel turned further out shows the branches' cards.
  const onWheel = useCallback(
    (event: WheelEvent<HTMLDivElement>) => {
      if (event.deltaY > 0 && store.getState().transform[2] <= MIN_ZOOM + 1e-3) {
        useGraphStore.getState().setShowBranches(true)
      }
    },
    [store]
  )
  // Fit View frames every shown node, not just those React Flow holds (the window); on a tree
  // that fits only under the legible zoom it shows the branches' cards instead.
  const fitAll = useCallback(() => {
    const { width, height, panZoom } = store.getState()
    const { positions } = useGraphStore.getState()
    if (needsFolding(positions, width, height)) {
      useGraphStore.getState().setShowBranches(true)
      return
    }
    const bounds = boundsOf(positions.keys(), positions)
    if (bounds === null || panZoom === null) return
    void panZoom.setViewport(
      getViewportForBounds(
        bounds,
        width,
        height,
        MIN_ZOOM,
        2,
        fitPadding(showsMinimap({ width, height }))
      )
    )
  }, [store])

  return (
    <div
      ref={canvas}
      className="graph-canvas"
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
      onWheel={onWheel}
    >
      <ReactFlow<FlowNode>
        nodes={shown.nodes}
        edges={shown.edges}
        nodeTypes={nodeTypes}
        onNodeClick={onNodeClick}
        onNodeDoubleClick={onNodeDoubleClick}
        onNodeMouseEnter={onNodeMouseEnter}
        onNodeMouseLeave={onNodeMouseLeave}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        elementsSelectable={false}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        zoomOnDoubleClick={false}
        onlyRenderVisibleElements
        minZoom={MIN_ZOOM}
        maxZoom={2}
        fitView
        fitViewOptions={fitViewOptions}
        onInit={onInit}
        colorMode={theme}
        aria-label="Branch graph"
        tabIndex={selectionRendered ? undefined : 0}
        onMoveStart={onMoveStart}
        onMoveEnd={checkSelectionRendered}
      >
        <Background gap={24} size={1} />
        <GraphMiniMap />
        <Controls showInteractive={false} showFitView={false}>
          <ControlButton
            className="react-flow__controls-fitview"
            aria-label="Fit View"
            title="Fit View"
            onClick={fitAll}
          >
            <FitViewIcon />
          </ControlButton>
          <ControlButton
            className="graph-controls__branches"
            aria-label="Show branches"
            title="Show branches"
            onClick={() => useGraphStore.getState().setShowBranches(true)}
          >
            <span aria-hidden="true">☰</span>
          </ControlButton>
        </Controls>
      </ReactFlow>
    </div>
  )
}

/** The turns' canvas, mounted once its box is measured: the first view is framed for that box. */
function TurnsCanvas() {
  const [box, size] = useBoxSize()
  return (
    <div className="graph-canvas-frame" ref={box}>
      {size.height > 0 && (
        <ReactFlowProvider>
          <Canvas pane={size} />
        </ReactFlowProvider>
      )}
    </div>
  )
}

/** The demo model's script: prompts a newcomer can click to try a rewind in the first minute. */
const DEMO_PROMPTS = [
  'add TIMEOUT = 30 to config.py',
  'also remove DEBUG and create utils.py',
  'explore the project with a checkpoint'
]

/**
 * The demo prompts no turn of the session was sent with yet, while it is the demo's walk (a
 * turn was sent with one of them); none in any other session.
 */
function useUnusedDemoPrompts(): string[] {
  const nodes = useGraphStore((s) => s.nodes)
  return useMemo(() => {
    const sent = new Set(nodes.filter((node) => node.kind === 'turn').map((node) => node.title))
    const unused = DEMO_PROMPTS.filter((prompt) => !sent.has(prompt))
    return unused.length < DEMO_PROMPTS.length ? unused : []
  }, [nodes])
}

/** A click fills the prompt field with a demo prompt and puts the focus there, to send it. */
function DemoPromptButtons({ prompts }: { prompts: readonly string[] }) {
  return (
    <ul className="graph__suggestions" aria-label="Demo prompts">
      {prompts.map((prompt) => (
        <li key={prompt}>
          <button
            type="button"
            onClick={() => {
              useAppStore.getState().setDraft(prompt)
              requestAnimationFrame(() => composerField()?.focus())
            }}
          >
            {prompt}
          </button>
        </li>
      ))}
    </ul>
  )
}

/** Over the graph once it has turns: the demo prompts not sent yet, until all are. */
function DemoPromptsLeft() {
  const demo = useAppStore(selectDemo)
  const unused = useUnusedDemoPrompts()
  if (!demo || unused.length === 0) return null
  return (
    <div className="graph__demo">
      <span>The demo model also knows:</span>
      <DemoPromptButtons prompts={unused} />
    </div>
  )
}

function EmptyGraph() {
  const demo = useAppStore(selectDemo)
  return (
    <div className="graph__empty">
      <p>No turns yet. Type a prompt below to start the conversation.</p>
      {demo && (
        <>
          <p>The demo model knows these prompts; send two, then rewind the second turn:</p>
          <DemoPromptButtons prompts={DEMO_PROMPTS} />
        </>
      )}
    </div>
  )
}

export function BranchGraph() {
  const hasNodes = useGraphStore(selectHasNodes)
  const sessionId = useGraphStore(selectSessionId)
  const showBranches = useGraphStore(selectShowBranches)
  return (
    <section className="graph" aria-label="Branch explorer">
      {hasNodes ? (
        <>
          <SearchBar />
          <DemoPromptsLeft />
          <div className="graph__canvas-box">
            {showBranches ? <BranchCanvas key={sessionId} /> : <TurnsCanvas key={sessionId} />}
          </div>
        </>
      ) : (
        <EmptyGraph />
      )}
    </section>
  )
}
