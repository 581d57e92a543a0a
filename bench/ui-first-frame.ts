// The branch explorer in Chromium over the real web host (`rewind-studio serve`): time to the
// first frame showing graph nodes, and frame times while panning, for a 5,000-turn session
// (a rewind every 40 turns keeps ~125 abandoned branches) beside a 50-turn session measured the
// same way in the same run (the baseline: page load, WebSocket and fixed costs). Targets: first
// frame < 1.5 s, pan at 60 fps. Frame times are requestAnimationFrame intervals (Performance API
// timebase) while the mouse drags the pane for 120 steps.
// Run: npx tsx bench/ui-first-frame.ts   (CHROMIUM_PATH overrides /usr/bin/chromium)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { chromiumLaunchOptions } from '../e2e/support/chromium'
import { serve, workspaceWith } from './support/served-session'

const TURNS = 5_000
const BASELINE_TURNS = 50
const RUNS = 3

// Page code is passed as text: this script is typed for Node, without the DOM's types.
const MARK_FIRST_FRAME = `
  const observer = new MutationObserver(() => {
    if (document.querySelector('.react-flow__node .node-card') === null) return
    observer.disconnect()
    requestAnimationFrame(() => { document.documentElement.dataset.firstFrame = String(performance.now()) })
  })
  observer.observe(document, { childList: true, subtree: true })`
const FIRST_FRAME = 'document.documentElement.dataset.firstFrame'
const RECORD_FRAMES = `(() => {
  const frames = []
  let last = performance.now()
  const tick = (now) => { frames.push(now - last); last = now; window.benchFrame = requestAnimationFrame(tick) }
  window.benchFrame = requestAnimationFrame(tick)
  window.benchFrames = frames
})()`
const RECORDED_FRAMES = 'window.benchFrames.slice(1)'
const STOP_RECORDING = 'cancelAnimationFrame(window.benchFrame)'

const root = mkdtempSync(join(tmpdir(), 'rs-bench-ui-'))
const home = join(root, 'home')

interface PanFigures {
  medianFrameMs: number
  p95FrameMs: number
  fps: number
}

interface Figures {
  firstFrameMs: number
  atStart: PanFigures
  fitted: PanFigures
}

/** Drags the pane for 120 steps while recording the intervals between animation frames. */
async function panFrameTimes(page: Page): Promise<PanFigures> {
  await page.evaluate(RECORD_FRAMES)
  const box = await page.locator('.react-flow__pane').boundingBox()
  if (box === null) throw new Error('no React Flow pane on the page')
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  for (let i = 0; i < 120; i++) {
    await page.mouse.move(x + Math.sin(i / 10) * 200, y + (i % 60) * 5 - 150)
    await page.waitForTimeout(16)
  }
  await page.mouse.up()
  const frames = await page.evaluate<number[]>(RECORDED_FRAMES)
  await page.evaluate(STOP_RECORDING)
  frames.sort((a, b) => a - b)
  const mean = frames.reduce((sum, f) => sum + f, 0) / frames.length
  return {
    medianFrameMs: frames[Math.floor(frames.length / 2)] ?? NaN,
    p95FrameMs: frames[Math.floor(frames.length * 0.95)] ?? NaN,
    fps: 1000 / mean
  }
}

async function measure(browser: Browser, url: string): Promise<Figures> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.addInitScript(MARK_FIRST_FRAME)
  await page.goto(url)
  // Polled: waitForFunction would eval a string, which the page's CSP forbids.
  let mark: string | undefined
  for (let waited = 0; mark === undefined; waited += 50) {
    if (waited > 60_000) throw new Error('no graph node appeared within 60 s')
    await page.waitForTimeout(50)
    mark = await page.evaluate<string | undefined>(FIRST_FRAME)
  }
  const firstFrameMs = Number(mark)
  await page.waitForTimeout(1000)
  const atStart = await panFrameTimes(page)
  // Then the whole tree in view (the Fit View control, down to the minimum zoom).
  await page.getByRole('button', { name: 'Fit View' }).click()
  await page.waitForTimeout(1000)
  const fitted = await panFrameTimes(page)
  await page.close()
  return { firstFrameMs, atStart, fitted }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

async function main(): Promise<void> {
  const big = workspaceWith(root, home, TURNS)
  const small = workspaceWith(root, home, BASELINE_TURNS)
  const servers = [await serve(home, big.cwd), await serve(home, small.cwd)]
  const browser = await chromium.launch(chromiumLaunchOptions)
  try {
    const results = { big: [] as Figures[], small: [] as Figures[] }
    // Alternate, so neither size gets a quieter moment of this shared machine.
    for (let i = 0; i < RUNS; i++) {
      results.big.push(await measure(browser, servers[0]!.url))
      results.small.push(await measure(browser, servers[1]!.url))
    }
    const pan = (figures: PanFigures[]) =>
      `frame ${median(figures.map((f) => f.medianFrameMs)).toFixed(1)} ms median, ` +
      `${median(figures.map((f) => f.p95FrameMs)).toFixed(1)} ms p95, ` +
      `${median(figures.map((f) => f.fps)).toFixed(1)} fps`
    const first = (figures: Figures[]) => median(figures.map((f) => f.firstFrameMs))
    const fps = (figures: PanFigures[]) => median(figures.map((f) => f.fps))
    console.log(`branch explorer in Chromium, 1280x800, median of ${RUNS} runs`)
    for (const [label, figures] of [
      [`${big.turns} turns`, results.big],
      [`${small.turns} turns (baseline)`, results.small]
    ] as const) {
      console.log(`  ${label}: first frame ${first(figures).toFixed(0)} ms`)
      console.log(`    pan at the start: ${pan(figures.map((f) => f.atStart))}`)
      console.log(`    pan after Fit View: ${pan(figures.map((f) => f.fitted))}`)
    }
    console.log(
      `  ratio ${big.turns}/${small.turns}: first frame ${(first(results.big) / first(results.small)).toFixed(2)}x (target < 1500 ms), ` +
        `pan fps ${(fps(results.big.map((f) => f.atStart)) / fps(results.small.map((f) => f.atStart))).toFixed(2)}x ` +
        `at the start, ${(fps(results.big.map((f) => f.fitted)) / fps(results.small.map((f) => f.fitted))).toFixed(2)}x fitted`
    )
  } finally {
    await browser.close()
    for (const server of servers) server.child.kill()
    rmSync(root, { recursive: true, force: true })
  }
}

await main()
