// The branch explorer in Chromium over the real web host (`rewind-studio serve`): time to the
// first frame showing graph nodes, and frame times while panning, for two 5,000-turn sessions
// (a rewind every 40 turns keeps ~125 abandoned branches, every 10 turns ~500) beside a 50-turn
// session measured the
// same way in the same run (the baseline: page load, WebSocket and fixed costs). Targets: first
// frame < 1 s, at most 2 MB received before it, pan ≥ 55 fps. Frame times are requestAnimationFrame
// intervals (Performance API timebase) while the mouse drags the pane for 120 steps. Bytes are the
// WebSocket messages' payloads as the page receives them (UTF-8), counted by a wrapper the page
// gets before its own code runs; a turn's bytes are those from Send until the page is quiet again
// (the demo model's one-line answer: stream events, graph deltas, the new transcript entries).
// Run: npx tsx bench/ui-first-frame.ts   (CHROMIUM_PATH overrides /usr/bin/chromium)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { chromiumLaunchOptions } from '../e2e/support/chromium'
import { serve, workspaceWith } from './support/served-session'
import { openToFirstFrame } from './support/ui-page'

const TURNS = 5_000
const BASELINE_TURNS = 50
const RUNS = 3

const BYTES = 'window.benchBytes'
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
  bytesBeforeFirstFrame: number
  /** Everything received until the page was quiet after opening. */
  bytesOnOpen: number
  atStart: PanFigures
  fitted: PanFigures
  turnBytes: number
}

/** Waits until no WebSocket message has come for `quietMs`; returns the bytes received so far. */
async function quietBytes(page: Page, quietMs: number): Promise<number> {
  let last = await page.evaluate<number>(BYTES)
  for (let still = 0; still < quietMs;) {
    await page.waitForTimeout(100)
    const now = await page.evaluate<number>(BYTES)
    still = now === last ? still + 100 : 0
    last = now
  }
  return last
}

/** Sends a prompt the demo model answers in one line; the bytes the page received for it. */
async function turnBytes(page: Page): Promise<number> {
  const before = await quietBytes(page, 1000)
  await page.getByRole('textbox', { name: 'Prompt' }).fill('hello')
  await page.getByRole('button', { name: 'Send' }).click()
  await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'hidden', timeout: 60_000 })
  return (await quietBytes(page, 1500)) - before
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
  const { firstFrameMs, bytesBeforeFirstFrame } = await openToFirstFrame(page, url)
  const bytesOnOpen = await quietBytes(page, 1000)
  const atStart = await panFrameTimes(page)
  // Then the whole tree in view (the Fit View control, down to the minimum zoom).
  await page.getByRole('button', { name: 'Fit View' }).click()
  await page.waitForTimeout(1000)
  const fitted = await panFrameTimes(page)
  const turn = await turnBytes(page)
  await page.close()
  return { firstFrameMs, bytesBeforeFirstFrame, bytesOnOpen, atStart, fitted, turnBytes: turn }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

async function main(): Promise<void> {
  const sessions = [
    { label: 'a rewind every 40 turns', ...workspaceWith(root, home, TURNS) },
    { label: 'a rewind every 10 turns', ...workspaceWith(root, home, TURNS, TURNS / 10) },
    { label: 'baseline', ...workspaceWith(root, home, BASELINE_TURNS) }
  ]
  const servers = await Promise.all(sessions.map((session) => serve(home, session.cwd)))
  const browser = await chromium.launch(chromiumLaunchOptions)
  try {
    const results: Figures[][] = sessions.map(() => [])
    // Alternate, so no session gets a quieter moment of this shared machine.
    for (let i = 0; i < RUNS; i++) {
      for (const [at, server] of servers.entries()) {
        results[at]!.push(await measure(browser, server.url))
      }
    }
    const range = (values: number[], unit: (v: number) => string) => {
      const sorted = [...values].sort((a, b) => a - b)
      return `${unit(sorted[0] ?? NaN)} / ${unit(median(values))} / ${unit(sorted.at(-1) ?? NaN)}`
    }
    const ms = (v: number) => `${v.toFixed(0)} ms`
    const kb = (v: number) => `${(v / 1024).toFixed(1)} KB`
    const fps = (v: number) => `${v.toFixed(1)} fps`
    const pan = (figures: PanFigures[]) =>
      `${range(
        figures.map((f) => f.fps),
        fps
      )} (frame ${median(figures.map((f) => f.medianFrameMs)).toFixed(1)} ms median, ` +
      `${median(figures.map((f) => f.p95FrameMs)).toFixed(1)} ms p95)`
    console.log(`branch explorer in Chromium, 1280x800, ${RUNS} runs (min / median / max)`)
    for (const [at, session] of sessions.entries()) {
      const figures = results[at]!
      console.log(`  ${session.turns} turns, ${session.label} (${session.branches} branches):`)
      console.log(
        `    first frame ${range(
          figures.map((f) => f.firstFrameMs),
          ms
        )}`
      )
      console.log(
        `    received before the first frame ${range(
          figures.map((f) => f.bytesBeforeFirstFrame),
          kb
        )}, ` +
          `on open ${range(
            figures.map((f) => f.bytesOnOpen),
            kb
          )}`
      )
      console.log(
        `    received for one turn ${range(
          figures.map((f) => f.turnBytes),
          kb
        )}`
      )
      console.log(`    pan at the start: ${pan(figures.map((f) => f.atStart))}`)
      console.log(`    pan after Fit View: ${pan(figures.map((f) => f.fitted))}`)
    }
    const baseline = results.at(-1)!
    const ratio = (figures: Figures[], of: (f: Figures) => number) =>
      (median(figures.map(of)) / median(baseline.map(of))).toFixed(2)
    for (const [at, session] of sessions.slice(0, -1).entries()) {
      console.log(
        `  ratio ${session.turns} turns (${session.label}) / baseline: ` +
          `first frame ${ratio(results[at]!, (f) => f.firstFrameMs)}x (target < 1000 ms, ≤ 2 MB before it), ` +
          `pan fps ${ratio(results[at]!, (f) => f.atStart.fps)}x at the start, ` +
          `${ratio(results[at]!, (f) => f.fitted.fps)}x fitted (target ≥ 55 fps)`
      )
    }
  } finally {
    await browser.close()
    for (const server of servers) server.child.kill()
    rmSync(root, { recursive: true, force: true })
  }
}

await main()
