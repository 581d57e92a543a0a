// The explorer at the sizes issue 29 and issue 33 name, in Chromium over the real web host, at
// 1280x800: a 2,000-turn session with 300 branches, a 20,000-turn one (500 branches) and a
// 50-turn one (the baseline, same run). For each: the first frame; selecting a node to its
// details drawn (a click on a node to the frame after the side panel shows it: median of 100,
// alternating between shown nodes); pan frame rate; the page's JS heap after a gc; and after Fit
// View, how many branches are on a card, the smallest text on the cards (px on screen) and
// whether any two cards overlap.
// Targets: 2,000/300: every branch's title at ≥ 11 px without overlap after Fit View, first
// frame < 1 s, select < 50 ms, pan ≥ 55 fps. 20,000: first frame < 1.5 s (issue 33; issue 29
// < 2 s), select < 50 ms, memory reported beside the 50-turn session's.
// Run: npx tsx bench/ui-explorer.ts   (CHROMIUM_PATH overrides /usr/bin/chromium)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { chromiumLaunchOptions } from '../e2e/support/chromium'
import { serve, workspaceWith } from './support/served-session'
import { openToFirstFrame } from './support/ui-page'

const RUNS = Number(process.env.RUNS ?? 3)
const CLICKS = 100

const root = mkdtempSync(join(tmpdir(), 'rs-bench-explorer-'))
const home = join(root, 'home')

/** In the page: CLICKS clicks on shown nodes, each timed to the frame after the side panel
 * changed; the median and p95 (ms). */
const TIME_SELECTS = `(async () => {
  const panel = document.querySelector('[aria-label="Selected branch"]')
  const nodes = [...document.querySelectorAll('.react-flow__node.flow-node')]
  if (panel === null || nodes.length < 2) throw new Error('no side panel or fewer than 2 nodes')
  const times = []
  const selected = () => document.querySelector('.node-card--selected')?.closest('.react-flow__node')
  for (let i = 0; i < ${CLICKS}; i++) {
    let node = nodes[i % nodes.length]
    if (node === selected()) node = nodes[(i + 1) % nodes.length]
    // A click the panel does not answer (the same text drawn again) is left out after 2 s.
    const changed = new Promise((resolve) => {
      const observer = new MutationObserver(() => { observer.disconnect(); resolve(true) })
      observer.observe(panel, { childList: true, subtree: true, characterData: true })
      setTimeout(() => { observer.disconnect(); resolve(false) }, 2000)
    })
    const start = performance.now()
    node.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 1, clientY: 1 }))
    const answered = await changed
    await new Promise((resolve) => requestAnimationFrame(() => resolve()))
    if (answered) times.push(performance.now() - start)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  times.sort((a, b) => a - b)
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)], answered: times.length }
})()`

/** In the page, after Fit View: the branches on cards, the least text px, overlapping pairs. */
const CARDS = `(() => {
  const cards = [...document.querySelectorAll('.react-flow__node.branch-node')]
  let least = Infinity
  const boxes = []
  let branches = 0
  for (const card of cards) {
    const box = card.getBoundingClientRect()
    boxes.push(box)
    const folded = /^(\\d+) branches folded/.exec(card.getAttribute('aria-label') ?? '')
    branches += folded === null ? 1 : Number(folded[1])
    for (const element of card.querySelectorAll('*')) {
      if (element.childElementCount > 0 || (element.textContent ?? '').trim() === '') continue
      const scale = element.getBoundingClientRect().height / element.offsetHeight
      least = Math.min(least, parseFloat(getComputedStyle(element).fontSize) * scale)
    }
  }
  boxes.sort((a, b) => a.top - b.top)
  let overlaps = 0
  for (let i = 1; i < boxes.length; i++) if (boxes[i].top < boxes[i - 1].bottom - 0.5) overlaps++
  const canvas = document.querySelector('.graph-canvas').getBoundingClientRect()
  const off = boxes.filter((b) => b.top < canvas.top - 0.5 || b.bottom > canvas.bottom + 0.5 || b.right > canvas.right + 0.5).length
  const total = document.querySelectorAll('[aria-label="Branch outline"] [role="treeitem"]').length
  return { cards: cards.length, branches, total, least, overlaps, off }
})()`

const RECORD_FRAMES = `(() => {
  const frames = []
  let last = performance.now()
  const tick = (now) => { frames.push(now - last); last = now; window.benchFrame = requestAnimationFrame(tick) }
  window.benchFrame = requestAnimationFrame(tick)
  window.benchFrames = frames
})()`

async function panFps(page: Page): Promise<number> {
  await page.evaluate(RECORD_FRAMES)
  const box = (await page.locator('.react-flow__pane').boundingBox())!
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  for (let i = 0; i < 120; i++) {
    await page.mouse.move(x + Math.sin(i / 10) * 200, y + (i % 60) * 5 - 150)
    await page.waitForTimeout(16)
  }
  await page.mouse.up()
  const frames = await page.evaluate<number[]>('window.benchFrames.slice(1)')
  await page.evaluate('cancelAnimationFrame(window.benchFrame)')
  return 1000 / (frames.reduce((sum, f) => sum + f, 0) / frames.length)
}

interface Figures {
  firstFrameMs: number
  selectMedianMs: number
  selectP95Ms: number
  /** Clicks the panel answered (one on a node showing the same text again redraws nothing). */
  answered: number
  fps: number
  heapMb: number
  cards: {
    cards: number
    branches: number
    total: number
    least: number
    overlaps: number
    off: number
  }
}

async function measure(browser: Browser, url: string): Promise<Figures> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  const step = (what: string) => {
    if (process.env.BENCH_DEBUG !== undefined) console.error(`  ${url.slice(0, 30)} ${what}`)
  }
  const { firstFrameMs } = await openToFirstFrame(page, url)
  step('first frame')
  await page.waitForTimeout(1000)
  const selects = await page.evaluate<{ median: number; p95: number; answered: number }>(
    TIME_SELECTS
  )
  // Clicks on nodes of one branch may redraw nothing (its transcript shows already): some must.
  if (selects.answered < 10) throw new Error(`${selects.answered} of ${CLICKS} clicks answered`)
  step('selects')
  const fps = await panFps(page)
  step('pan')
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('Performance.enable')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN
  await page.getByRole('button', { name: 'Fit View' }).click()
  await page.waitForTimeout(1000)
  const cards = await page.evaluate<Figures['cards']>(CARDS)
  await page.close()
  return {
    firstFrameMs,
    selectMedianMs: selects.median,
    selectP95Ms: selects.p95,
    answered: selects.answered,
    fps,
    heapMb: heap / 2 ** 20,
    cards
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const range = (values: number[], digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b)
  return [sorted[0], median(values), sorted.at(-1)]
    .map((v) => (v ?? NaN).toFixed(digits))
    .join(' / ')
}

async function main(): Promise<void> {
  const sessions = [
    workspaceWith(root, home, 2_000, 300),
    workspaceWith(root, home, 20_000, 500),
    workspaceWith(root, home, 50, 1)
  ]
  const servers = await Promise.all(sessions.map((session) => serve(home, session.cwd)))
  const browser = await chromium.launch(chromiumLaunchOptions)
  try {
    const results: Figures[][] = sessions.map(() => [])
    for (let i = 0; i < RUNS; i++) {
      for (const [at, server] of servers.entries())
        results[at]!.push(await measure(browser, server.url))
    }
    console.log(`branch explorer in Chromium, 1280x800, ${RUNS} runs (min / median / max)`)
    for (const [at, session] of sessions.entries()) {
      const figures = results[at]!
      const last = figures.at(-1)!.cards
      console.log(`  ${session.turns} turns, ${session.branches} rewinds:`)
      console.log(`    first frame ${range(figures.map((f) => f.firstFrameMs))} ms`)
      console.log(
        `    select → details ${range(
          figures.map((f) => f.selectMedianMs),
          1
        )} ms median of the ${Math.min(...figures.map((f) => f.answered))}+ of ${CLICKS} clicks the panel redrew for ` +
          `(p95 ${range(
            figures.map((f) => f.selectP95Ms),
            1
          )} ms)`
      )
      console.log(
        `    pan ${range(
          figures.map((f) => f.fps),
          1
        )} fps`
      )
      console.log(
        `    JS heap after gc ${range(
          figures.map((f) => f.heapMb),
          1
        )} MB`
      )
      console.log(
        `    after Fit View: ${last.cards} cards holding ${last.branches} of ${last.total} branches, ` +
          `least text ${last.least === Infinity ? '-' : last.least.toFixed(2)} px, ` +
          `${last.overlaps} overlapping, ${last.off} off the canvas`
      )
    }
  } finally {
    await browser.close()
    for (const server of servers) server.child.kill()
    rmSync(root, { recursive: true, force: true })
  }
}

await main()
