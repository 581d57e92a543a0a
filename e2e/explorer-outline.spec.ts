// Issue 29 items 1-2: the branches' cards of the zoomed-out graph and the branch outline beside the graph (the region "Branches") on a session of
// the size where the graph alone stopped reading (35 turns, 4 branches left behind). One row per
// branch named by its title, nested as they fork, the active one marked; a click or Enter takes
// the graph to the branch; the arrows move through the rows; a search keeps only the branches
// holding a match. It sits under the sessions at 1280x800 and 900x700 alike. Fit View on a tree
// that only fits under 11 px text shows one card per branch instead, folding runs of siblings
// when even those do not fit (2,000 turns, 300 branches); a card opens into its turns.
// Screenshots in e2e/screenshots/ (explorer-outline-*), axe on every screen.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { writeSyntheticSession } from '../test/session/synthetic'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { escape, focusedElement, promptField, send, shot } from './support/ui'

/** Serves one synthetic session of `turns` turns and `branches` rewinds. */
async function serveSession(turns: number, branches: number): Promise<ServedApp> {
  const base = mkdtempSync(join(tmpdir(), 'rs-e2e-outline-'))
  const home = join(base, 'home')
  const workspace = join(base, 'workspace')
  mkdirSync(workspace, { recursive: true })
  writeFileSync(join(workspace, 'README.md'), 'thirty-five turns\n')
  const folder = sessionsDir(home, workspace)
  mkdirSync(folder, { recursive: true })
  const file = join(
    folder,
    sessionFileName('2026-01-01T00:00:00.000Z', '01900000-0000-7000-8000-000000000029')
  )
  writeSyntheticSession(file, Infinity, 29, { turns, branches, cwd: workspace })
  return serve({ env: { REWIND_STUDIO_HOME: home }, args: ['--cwd', workspace] })
}

/**
 * The cards on screen: each one's box, and the smallest text size drawn on it (px on screen);
 * none may overlap another or leave the canvas.
 */
async function cardsOnScreen(page: Page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('.graph-canvas')!.getBoundingClientRect()
    const cards = [...document.querySelectorAll<HTMLElement>('.react-flow__node.branch-node')]
    return {
      canvas: { top: canvas.top, bottom: canvas.bottom, left: canvas.left, right: canvas.right },
      cards: cards.map((card) => {
        const box = card.getBoundingClientRect()
        let least = Infinity
        for (const element of card.querySelectorAll<HTMLElement>('*')) {
          if (element.childElementCount > 0 || (element.textContent ?? '').trim() === '') continue
          const scale = element.getBoundingClientRect().height / element.offsetHeight
          least = Math.min(least, parseFloat(getComputedStyle(element).fontSize) * scale)
        }
        return {
          name: card.getAttribute('aria-label') ?? '',
          top: box.top,
          bottom: box.bottom,
          left: box.left,
          right: box.right,
          text: least
        }
      })
    }
  })
}

function expectLegibleApart(shown: Awaited<ReturnType<typeof cardsOnScreen>>) {
  const sorted = [...shown.cards].sort((a, b) => a.top - b.top)
  for (const [i, card] of sorted.entries()) {
    expect(card.text, card.name).toBeGreaterThanOrEqual(11)
    expect(card.top, card.name).toBeGreaterThanOrEqual(shown.canvas.top - 0.5)
    expect(card.bottom, card.name).toBeLessThanOrEqual(shown.canvas.bottom + 0.5)
    expect(card.right, card.name).toBeLessThanOrEqual(shown.canvas.right + 0.5)
    if (i > 0) expect(card.top, card.name).toBeGreaterThanOrEqual(sorted[i - 1]!.bottom)
  }
}

let app: ServedApp
test.beforeAll(async () => {
  app = await serveSession(35, 4)
})
test.afterAll(async () => app?.stop())

test('Fit View shows a card per branch, legible; a card opens into its turns', async ({ page }) => {
  await page.goto(app.url)
  await expect(page.getByRole('group', { name: /conversation here/ })).toBeVisible()
  await page.getByRole('button', { name: 'Fit View' }).click()
  const cards = page.getByRole('group', { name: /^Branch: / })
  await expect(cards).toHaveCount(4)
  await expect(
    page.getByRole('group', { name: /^Branch: .*, active, conversation here$/ })
  ).toHaveCount(1)
  const shown = await cardsOnScreen(page)
  expect(shown.cards).toHaveLength(4)
  expectLegibleApart(shown)
  await shot(page, 'explorer-outline-06-cards-1280')
  await expectAccessible(page, 'the branches as cards')

  // A click on an abandoned branch's card opens it: its first turn focused in the turns' view.
  const card = page.getByRole('group', { name: /^Branch: .*, abandoned$/ }).nth(1)
  const title = (await card.getAttribute('aria-label'))!.replace(/^Branch: /, '').split(', ')[0]!
  await card.click()
  const start = page.getByRole('group', { name: new RegExp(`^Turn \\d+: ${escape(title)}`) })
  await expect(start).toBeFocused()
  await expect(cards).toHaveCount(0)

  // Show branches, then the keyboard: Down to the next card, Enter opens it.
  await page.getByRole('button', { name: 'Show branches' }).click()
  await expect(cards).toHaveCount(4)
  await cards.first().focus()
  await page.keyboard.press('ArrowDown')
  await expect(cards.nth(1)).toBeFocused()
  const next = (await cards.nth(1).getAttribute('aria-label'))!
    .replace(/^Branch: /, '')
    .split(', ')[0]!
  await page.keyboard.press('Enter')
  await expect(
    page.getByRole('group', { name: new RegExp(`^Turn \\d+: ${escape(next)}`) })
  ).toBeFocused()
  // And back by the button, which the turns come back from as they were left.
  await page.getByRole('button', { name: 'Show branches' }).click()
  await page.getByRole('button', { name: 'Show turns' }).click()
  await expect(page.getByRole('group', { name: /^Turn \d+: / }).first()).toBeVisible()
})

test('at 900x700 the cards fit the narrower canvas, still legible', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 700 })
  await page.goto(app.url)
  await page.getByRole('button', { name: 'Show branches' }).click()
  await expect(page.getByRole('group', { name: /^Branch: / })).toHaveCount(4)
  expectLegibleApart(await cardsOnScreen(page))
  await shot(page, 'explorer-outline-07-cards-900')
  await expectAccessible(page, 'the branches as cards at 900x700')
})

test.describe('2,000 turns, 300 branches', () => {
  let big: ServedApp
  test.beforeAll(async () => {
    big = await serveSession(2_000, 300)
  })
  test.afterAll(async () => big?.stop())

  test('Fit View folds runs of branches into cards that fit, each opening on a click', async ({
    page
  }) => {
    test.slow()
    await page.goto(big.url)
    await expect(page.getByRole('group', { name: /conversation here/ })).toBeVisible()
    await page.getByRole('button', { name: 'Fit View' }).click()
    const groups = page.getByRole('group', { name: /^\d+ branches folded/ })
    await expect(groups.first()).toBeVisible()
    const shown = await cardsOnScreen(page)
    expectLegibleApart(shown)
    // Every branch is on a card: its own, or its run's.
    const counted = shown.cards.reduce(
      (sum, card) =>
        sum +
        (/^(\d+) branches folded/.exec(card.name)?.[1] ? Number(/^(\d+)/.exec(card.name)![1]) : 1),
      0
    )
    const outlineRows = await page
      .getByRole('region', { name: 'Branches' })
      .getByRole('treeitem')
      .count()
    expect(counted).toBe(outlineRows)
    await shot(page, 'explorer-outline-08-cards-300-branches')
    await expectAccessible(page, '300 branches as cards')
    const before = await page.getByRole('group', { name: /^Branch: / }).count()
    await groups.first().click()
    await expect
      .poll(() => page.getByRole('group', { name: /^Branch: / }).count())
      .toBeGreaterThan(before)
    await shot(page, 'explorer-outline-09-run-opened')
  })
})

test('the outline lists every branch by title; a row takes the graph there, the arrows move', async ({
  page
}) => {
  await page.goto(app.url)
  const outline = page.getByRole('region', { name: 'Branches' })
  await expect(outline).toBeVisible()
  const rows = outline.getByRole('treeitem')
  // The main line and three of the branches its rewinds left: the last rewind's three turns are
  // the longest line after it, so they go on in the main line's column.
  await expect(rows).toHaveCount(4)
  const active = rows.first()
  await expect(active).toHaveAccessibleName(/, active, conversation here$/)
  await expect(active).toHaveAttribute('aria-current', 'true')
  await expect(active).toHaveAttribute('aria-selected', 'true')
  const left = outline.getByRole('treeitem', { name: /abandoned/ })
  await expect(left).toHaveCount(3)
  for (const row of await left.all()) await expect(row).toHaveAttribute('aria-level', '2')
  await shot(page, 'explorer-outline-01-open-1280')
  await expectAccessible(page, 'the outline at 1280x800')

  // A click on an abandoned branch's row: the graph selects the turn it starts with and focuses
  // it; the row is the selected one now.
  const second = left.nth(1)
  const name = (await second.getAttribute('aria-label'))!
  const title = name.split(', ')[0]!
  await second.click()
  const start = page.getByRole('group', { name: new RegExp(`^Turn \\d+: ${escape(title)}`) })
  await expect(start).toBeFocused()
  await expect(start).toHaveAccessibleName(/abandoned branch$/)
  await expect(second).toHaveAttribute('aria-selected', 'true')
  await shot(page, 'explorer-outline-02-row-chosen')

  // The keyboard: Down and Up move through the rows, Left goes to the branch it forks from,
  // Enter takes the graph there.
  await second.focus()
  await page.keyboard.press('ArrowDown')
  await expect(left.nth(2)).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await expect(left.nth(0)).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await expect(active).toBeFocused()
  await page.keyboard.press('End')
  await expect(left.nth(2)).toBeFocused()
  await page.keyboard.press('Home')
  await expect(active, await focusedElement(page)).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('group', { name: /conversation here/ })).toBeFocused()
  await expect(active).toHaveAttribute('aria-selected', 'true')

  // A search keeps the branches holding a match (and the main line they fork from).
  // The titles are the prompts' first words (cut with "…"): six of them find that prompt.
  const words = title.replace(/…$/, '').split(' ').slice(0, 6).join(' ')
  await page.getByRole('searchbox', { name: 'Search the session' }).fill(words)
  await expect(
    outline.getByRole('treeitem', { name: new RegExp(`^${escape(title)}`) })
  ).toHaveAccessibleName(/\d+ match(es)?$/)
  // The result says which branch it is on.
  await expect(
    page.getByRole('list', { name: 'Search results' }).getByRole('button').first()
  ).toContainText(`on “${title}”`)
  const filtered = await rows.count()
  expect(filtered).toBeLessThanOrEqual(4)
  expect(filtered).toBeGreaterThanOrEqual(2)
  await shot(page, 'explorer-outline-03-search')
  await expectAccessible(page, 'the outline filtered by a search')
  await page.getByRole('searchbox', { name: 'Search the session' }).fill(`${words} nothing-matches`)
  await expect(outline.getByText('No branch holds a match.')).toBeVisible()
  await page.getByRole('searchbox', { name: 'Search the session' }).fill('')
  await expect(rows).toHaveCount(4)
})

test('folding a branch in the graph marks its row folded; its row unfolds it', async ({ page }) => {
  await page.goto(app.url)
  const outline = page.getByRole('region', { name: 'Branches' })
  const left = outline.getByRole('treeitem', { name: /abandoned/ })
  const first = left.first()
  const title = (await first.getAttribute('aria-label'))!.split(', ')[0]!
  // Fold the main-line turn the branch leaves from: select the branch's start, go up, fold.
  await first.click()
  const start = page.getByRole('group', { name: new RegExp(`^Turn \\d+: ${escape(title)}`) })
  await expect(start).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('-')
  await expect(outline.getByRole('treeitem', { name: /, folded$/ }).first()).toBeVisible()
  await expect(start).toHaveCount(0)
  await outline.getByRole('treeitem', { name: new RegExp(`^${escape(title)}.*, folded$`) }).click()
  await expect(start).toBeFocused()
})

test('at 900x700 the outline keeps its rows readable under the sessions', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 700 })
  await page.goto(app.url)
  // The first view frames as many of the last turns as fit: the newest one is in it.
  await expect(page.getByRole('group', { name: /conversation here/ })).toBeInViewport()
  const outline = page.getByRole('region', { name: 'Branches' })
  await expect(outline.getByRole('treeitem')).toHaveCount(4)
  const box = (await outline.boundingBox())!
  expect(box.height).toBeGreaterThan(200)
  await shot(page, 'explorer-outline-04-900')
  await expectAccessible(page, 'the outline at 900x700')
})

test.describe('the demo', () => {
  let demo: ServedApp
  test.beforeAll(async () => {
    demo = await serve({ copyFrom: join(repoRoot, 'demo', 'workspace') })
  })
  test.afterAll(async () => demo?.stop())

  test('keeps offering the demo prompts not sent yet, each filling the prompt field', async ({
    page
  }) => {
    await page.goto(demo.url)
    const offered = page.getByRole('list', { name: 'Demo prompts' })
    await offered.getByRole('button', { name: 'add TIMEOUT = 30 to config.py' }).click()
    await expect(promptField(page)).toHaveValue('add TIMEOUT = 30 to config.py')
    await expect(promptField(page)).toBeFocused()
    await send(page, 'add TIMEOUT = 30 to config.py')
    // After the first turn the other two are still offered; the one sent is not.
    await expect(offered.getByRole('button')).toHaveText([
      'also remove DEBUG and create utils.py',
      'explore the project with a checkpoint'
    ])
    await offered.getByRole('button', { name: 'also remove DEBUG and create utils.py' }).click()
    await expect(promptField(page)).toHaveValue('also remove DEBUG and create utils.py')
    await shot(page, 'explorer-outline-10-demo-prompts-left')
    await expectAccessible(page, 'the demo prompts left')
  })
})
