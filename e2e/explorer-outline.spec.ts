// Issue 29 items 1-2: the branch outline beside the graph (the region "Branches") on a session of
// the size where the graph alone stopped reading (35 turns, 4 branches left behind). One row per
// branch named by its title, nested as they fork, the active one marked; a click or Enter takes
// the graph to the branch; the arrows move through the rows; a search keeps only the branches
// holding a match. It sits under the sessions at 1280x800 and 900x700 alike.
// Screenshots in e2e/screenshots/ (explorer-outline-*), axe on every screen.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { writeSyntheticSession } from '../test/session/synthetic'
import { expectAccessible } from './support/axe'
import { serve, type ServedApp } from './support/serve'
import { focusedElement, shot } from './support/ui'

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

let app: ServedApp
test.beforeAll(async () => {
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
  writeSyntheticSession(file, Infinity, 29, { turns: 35, branches: 4, cwd: workspace })
  app = await serve({ env: { REWIND_STUDIO_HOME: home }, args: ['--cwd', workspace] })
})
test.afterAll(async () => app?.stop())

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
