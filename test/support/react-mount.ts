// A React root in a fresh element of the test's document, made before each test and unmounted
// after it: the renderer's component tests (happy-dom) render into `mounted.root` and read
// `mounted.host`. React's act() warns unless the environment says it is a test.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach } from 'vitest'

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true

export interface Mounted {
  host: HTMLDivElement
  root: Root
}

/** Registers the before/after hooks; the returned object holds the current test's root. */
export function mountEachTest(): Mounted {
  const mounted = {} as Mounted
  beforeEach(() => {
    mounted.host = document.createElement('div')
    document.body.append(mounted.host)
    mounted.root = createRoot(mounted.host)
  })
  afterEach(() => {
    act(() => mounted.root.unmount())
    mounted.host.remove()
  })
  return mounted
}
