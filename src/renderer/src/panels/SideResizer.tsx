// The handle between the graph and the right column: drag it, or focus it and use the arrow
// keys, to give the transcript more room (or the graph). The width is remembered in this
// browser profile.
import { useCallback, useState, type KeyboardEvent, type PointerEvent } from 'react'

const STORAGE_KEY = 'rewind-studio.side-width'
const DEFAULT_WIDTH = 440
const MIN_WIDTH = 320
/** The graph keeps at least this much, and the sessions column its 210 px. */
const MIN_GRAPH_WIDTH = 360
const SESSIONS_WIDTH = 210
const KEY_STEP = 16

function maxWidth(): number {
  return Math.max(MIN_WIDTH, window.innerWidth - SESSIONS_WIDTH - MIN_GRAPH_WIDTH)
}

function clamp(width: number): number {
  return Math.round(Math.min(maxWidth(), Math.max(MIN_WIDTH, width)))
}

function storedWidth(): number {
  try {
    const stored = Number(window.localStorage.getItem(STORAGE_KEY))
    return Number.isFinite(stored) && stored > 0 ? clamp(stored) : DEFAULT_WIDTH
  } catch {
    return DEFAULT_WIDTH // storage refused (a private window): the default will do
  }
}

/**
 * The layout's columns: sessions, graph, side panel. The side panel's width is clamped in CSS
 * too, so a window made narrower after a resize never scrolls sideways.
 */
export function layoutColumns(sideWidth: number): string {
  const roomLeft = `calc(100vw - ${SESSIONS_WIDTH + MIN_GRAPH_WIDTH}px)`
  return `${SESSIONS_WIDTH}px minmax(0, 1fr) clamp(${MIN_WIDTH}px, ${sideWidth}px, ${roomLeft})`
}

/** The right column's width in px, and a setter that keeps it in bounds and remembers it. */
export function useSideWidth(): [number, (width: number) => void] {
  const [width, setWidth] = useState(storedWidth)
  const update = useCallback((next: number) => {
    const bounded = clamp(next)
    setWidth(bounded)
    try {
      window.localStorage.setItem(STORAGE_KEY, String(bounded))
    } catch {
      // Not remembered; it still applies now.
    }
  }, [])
  return [width, update]
}

export function SideResizer({
  width,
  onResize
}: {
  width: number
  onResize: (width: number) => void
}) {
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault()
    const handle = event.currentTarget
    handle.setPointerCapture(event.pointerId)
    const startX = event.clientX
    const startWidth = width
    // The column grows as the handle moves left.
    const move = (e: globalThis.PointerEvent) => onResize(startWidth + startX - e.clientX)
    const stop = () => {
      handle.removeEventListener('pointermove', move)
      handle.removeEventListener('pointerup', stop)
      handle.removeEventListener('pointercancel', stop)
    }
    handle.addEventListener('pointermove', move)
    handle.addEventListener('pointerup', stop)
    handle.addEventListener('pointercancel', stop)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next =
      event.key === 'ArrowLeft'
        ? width + KEY_STEP
        : event.key === 'ArrowRight'
          ? width - KEY_STEP
          : event.key === 'Home'
            ? MIN_WIDTH
            : event.key === 'End'
              ? maxWidth()
              : null
    if (next === null) return
    event.preventDefault()
    onResize(next)
  }

  return (
    <div
      className="side-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Width of the side panel"
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={maxWidth()}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  )
}
