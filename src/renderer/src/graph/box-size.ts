// A canvas's box measured before the first paint and on every resize: what a canvas frames its
// first view for (React Flow measures its pane only once it has drawn).
import { useLayoutEffect, useRef, useState, type RefObject } from 'react'

export interface BoxSize {
  width: number
  height: number
}

export function useBoxSize(): [RefObject<HTMLDivElement | null>, BoxSize] {
  const box = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState<BoxSize>({ width: 0, height: 0 })
  useLayoutEffect(() => {
    const element = box.current
    if (element === null) return
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight })
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [box, size]
}
