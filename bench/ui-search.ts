// "Search the session" in Chromium over the real web host, on a 10,000-turn session: the time
// from each keystroke (the input event) to the results drawn (the next frame after the results
// changed), typing a query one character at a time; and, in the same page, the baseline a plain
// Array.filter over the prompts' first lines costs for the same prefixes. Target: < 50 ms per
// keystroke. A key whose results stay as they were redraws nothing: its time is to the first
// frame after the input (its handling), and the keys that redrew are printed apart too.
// Also printed: loading the index (session:searchIndex, once per shape of the tree).
// Run: npx tsx bench/ui-search.ts   (CHROMIUM_PATH overrides /usr/bin/chromium)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { chromiumLaunchOptions } from '../e2e/support/chromium'
import { serve, workspaceWith } from './support/served-session'

const TURNS = 10_000
const RUNS = 3
/** Words the synthetic session is written with: every prefix matches many nodes, then fewer. */
const QUERY = 'rewind restores code'

// Page code is passed as text: this script is typed for Node, without the DOM's types.
// The input's own frame is asked for in the input event (a capture listener: before React's),
// so it comes after React handled the key; a change of the results asks for the frame after it.
const WATCH = `(() => {
  window.benchInputAt = 0
  window.benchFrameAt = 0
  window.benchDrawnAt = 0
  const search = document.querySelector('.search')
  search.addEventListener('input', () => {
    window.benchInputAt = performance.now()
    window.benchFrameAt = 0
    requestAnimationFrame(() => { window.benchFrameAt = performance.now() })
  }, true)
  new MutationObserver((changes) => {
    // The field's own value is no redraw of the results.
    if (changes.every((c) => c.target instanceof HTMLInputElement)) return
    requestAnimationFrame(() => { window.benchDrawnAt = performance.now() })
  }).observe(search, { childList: true, subtree: true, characterData: true })
})()`
const TIMES = '[window.benchInputAt, window.benchFrameAt, window.benchDrawnAt]'
/** How long a key's results are waited for after its own frame before it counts as no redraw. */
const REDRAW_WAIT_MS = 300

function titlesOf(file: string): string[] {
  const titles: string[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"type":"user"')) continue
    const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content
    if (typeof content === 'string') titles.push(content.slice(0, 120))
  }
  return titles
}

/** The baseline, in the page: Array.filter over the titles for each prefix, ms per prefix. */
function baselineScript(titles: string[]): string {
  return `(() => {
    const titles = ${JSON.stringify(titles)}
    const query = ${JSON.stringify(QUERY)}
    const times = []
    for (let i = 1; i <= query.length; i++) {
      const needle = query.slice(0, i).toLowerCase()
      const start = performance.now()
      const hits = titles.filter((t) => t.toLowerCase().includes(needle))
      times.push(performance.now() - start + hits.length * 0)
    }
    return times
  })()`
}

interface Key {
  ms: number
  redrew: boolean
}

async function keystrokes(page: Page): Promise<{ indexMs: number; perKey: Key[] }> {
  const field = page.getByRole('searchbox', { name: 'Search the session' })
  await page.evaluate(WATCH)
  // The index is fetched when the field takes the focus: timed until the first results show.
  const focusAt = Date.now()
  await field.focus()
  await field.press(QUERY[0] as string)
  await page.getByRole('status').filter({ hasText: /match/ }).waitFor()
  const indexMs = Date.now() - focusAt
  const perKey: Key[] = []
  for (const char of QUERY.slice(1)) {
    await page.evaluate('window.benchDrawnAt = 0')
    await field.press(char === ' ' ? 'Space' : char)
    let [input, frame, drawn] = [0, 0, 0]
    for (let waited = 0; frame === 0; waited += 5) {
      if (waited > 5_000) throw new Error('no frame after a keystroke within 5 s')
      await page.waitForTimeout(5)
      ;[input, frame, drawn] = await page.evaluate<[number, number, number]>(TIMES)
    }
    for (let waited = 0; drawn <= input && waited < REDRAW_WAIT_MS; waited += 5) {
      await page.waitForTimeout(5)
      ;[input, frame, drawn] = await page.evaluate<[number, number, number]>(TIMES)
    }
    perKey.push(
      drawn > input ? { ms: drawn - input, redrew: true } : { ms: frame - input, redrew: false }
    )
  }
  await field.fill('')
  return { indexMs, perKey }
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'rs-bench-search-'))
  const home = join(root, 'home')
  const session = workspaceWith(root, home, TURNS)
  const server = await serve(home, session.cwd)
  const browser = await chromium.launch(chromiumLaunchOptions)
  try {
    const titles = titlesOf(session.file)
    const keys: Key[] = []
    const baseline: number[] = []
    const index: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.goto(server.url)
      await page.getByRole('searchbox', { name: 'Search the session' }).waitFor()
      const measured = await keystrokes(page)
      keys.push(...measured.perKey)
      index.push(measured.indexMs)
      baseline.push(...(await page.evaluate<number[]>(baselineScript(titles))))
      await page.close()
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
    console.log(`search in Chromium, ${session.turns} turns, "${QUERY}" typed, ${RUNS} runs`)
    const redrew = keys.filter((key) => key.redrew).map((key) => key.ms)
    console.log(
      `  keystroke → results drawn, every key: ${stats(keys.map((key) => key.ms))} (target < 50 ms)`
    )
    console.log(
      `    the ${redrew.length} of ${keys.length} keys that redrew the results: ${stats(redrew)}`
    )
    console.log(`  baseline, Array.filter over the titles: ${stats(baseline)}`)
    console.log(`  loading the index (first keystroke, once per shape): ${stats(index)}`)
    console.log(
      `  ratio redrawing keystroke/baseline (medians): ${(median(redrew) / Math.max(median(baseline), 0.01)).toFixed(1)}x`
    )
  } finally {
    await browser.close()
    server.child.kill()
    rmSync(root, { recursive: true, force: true })
  }
}

await main()
