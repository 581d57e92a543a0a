// What the UI benchmarks measure in the page the same way: the first frame showing graph nodes
// and the bytes the WebSocket brought before it (a wrapper the page gets before its own code).
import type { Page } from 'playwright-core'

// Page code is passed as text: this script is typed for Node, without the DOM's types.
const MARK_FIRST_FRAME = `
  window.benchBytes = 0
  const Socket = window.WebSocket
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args)
      this.addEventListener('message', (event) => {
        window.benchBytes += typeof event.data === 'string' ? new Blob([event.data]).size : event.data.byteLength
      })
    }
  }
  const observer = new MutationObserver(() => {
    if (document.querySelector('.react-flow__node .node-card') === null) return
    observer.disconnect()
    requestAnimationFrame(() => {
      document.documentElement.dataset.firstFrame = String(performance.now())
      document.documentElement.dataset.firstFrameBytes = String(window.benchBytes)
    })
  })
  observer.observe(document, { childList: true, subtree: true })`
const FIRST_FRAME = 'document.documentElement.dataset.firstFrame'
const FIRST_FRAME_BYTES = 'Number(document.documentElement.dataset.firstFrameBytes)'

/** Opens `url` in `page`; the first frame's time (performance.now) and the bytes before it. */
export async function openToFirstFrame(
  page: Page,
  url: string
): Promise<{ firstFrameMs: number; bytesBeforeFirstFrame: number }> {
  await page.addInitScript(MARK_FIRST_FRAME)
  await page.goto(url)
  // Polled: waitForFunction would eval a string, which the page's CSP forbids.
  let mark: string | undefined
  for (let waited = 0; mark === undefined; waited += 50) {
    if (waited > 120_000) throw new Error('no graph node appeared within 120 s')
    await page.waitForTimeout(50)
    mark = await page.evaluate<string | undefined>(FIRST_FRAME)
  }
  return {
    firstFrameMs: Number(mark),
    bytesBeforeFirstFrame: await page.evaluate<number>(FIRST_FRAME_BYTES)
  }
}
