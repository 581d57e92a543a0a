// The explorer hands React Flow only the nodes around the view (graph/flow-window.ts), and brings
// a node it moves to clear of the overlays (graph/clear-view.ts): what a user must still see.
// A 2,000-turn session: the outline takes the graph to a far branch and the node is there and
// focused; the arrows walk on past the first view; Fit View frames the whole tree (its cards).
// A 12-turn session: a turn left under the minimap and reached with the keyboard comes out from
// under it. Screenshots explorer-window-*.png at 1280x800 and 900x700.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { writeSyntheticSession } from '../test/session/synthetic'
import { expectAccessible } from './support/axe'
import { serve, type ServedApp } from './support/serve'
import { escape, expectClearOfMinimap, shot } from './support/ui'

function servedSession(turns: number, branches: number): Promise<ServedApp> {
  const base = mkdtempSync(join(tmpdir(), `rs-e2e-window-${turns}-`))
  const home = join(base, 'home')
  const workspace = join(base, 'workspace')
  mkdirSync(workspace, { recursive: true })
  writeFileSync(join(workspace, 'README.md'), `${turns} turns\n`)
  const folder = sessionsDir(home, workspace)
  mkdirSync(folder, { recursive: true })
  const file = join(
    folder,
    sessionFileName('2026-01-01T00:00:00.000Z', '01900000-0000-7000-8000-000000000000')
  )
  writeSyntheticSession(file, Infinity, 1, { turns, branches, cwd: workspace })
  return serve({ env: { REWIND_STUDIO_HOME: home }, args: ['--cwd', workspace] })
}

/** Drags the canvas by (dx, dy) from a point of its pane that no node covers. */
async function dragCanvas(page: Page, dx: number, dy: number): Promise<void> {
  const canvas = (await page.locator('.graph-canvas').boundingBox())!
  const start = await page.evaluate((box) => {
    for (let y = box.y + box.height - 40; y > box.y + 130; y -= 17) {
      for (let x = box.x + 70; x < box.x + box.width - 30; x += 23) {
        if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')) return { x, y }
      }
    }
    return null
  }, canvas)
  expect(start, 'a bare spot of the canvas to drag').not.toBeNull()
  await page.mouse.move(start!.x, start!.y)
  await page.mouse.down()
  await page.mouse.move(start!.x + dx / 2, start!.y + dy / 2, { steps: 5 })
  await page.mouse.move(start!.x + dx, start!.y + dy, { steps: 5 })
  await page.mouse.up()
}

test.describe('a 2,000-turn session', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await servedSession(2_000, 100)
  })
  test.afterAll(async () => app?.stop())

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 900, height: 700 }
  ]) {
    test(`at ${viewport.width}x${viewport.height} the graph reaches every branch`, async ({
      page
    }) => {
      await page.setViewportSize(viewport)
      await page.goto(app.url)
      const current = page.getByRole('group', { name: /conversation here/ })
      await expect(current).toBeVisible()
      await expectClearOfMinimap(page, current)

      // The outline's first branch left is near the session's start, far from the first view.
      const outline = page.getByRole('region', { name: 'Branches' })
      const left = outline.getByRole('treeitem', { name: /abandoned/ }).first()
      const title = (await left.getAttribute('aria-label'))!.split(', ')[0]!
      await left.click()
      const start = page.getByRole('group', { name: new RegExp(`^Turn \\d+: ${escape(title)}`) })
      await expect(start).toBeFocused()
      await expectClearOfMinimap(page, start)
      // The arrows walk up the line from there, each turn drawn and focused as it is reached.
      const reached = new Set<string>()
      for (let step = 0; step < 12; step++) {
        await page.keyboard.press('ArrowUp')
        const focused = page.locator('.react-flow__node:focus')
        await expect(focused).toHaveCount(1)
        reached.add((await focused.getAttribute('aria-label'))!)
      }
      expect(reached.size).toBe(12)
      await shot(page, `explorer-window-01-far-branch-${viewport.width}`)
      await expectAccessible(page, 'the graph at a far branch')

      // Fit View frames all of it: 2,000 turns fit only as the branches' cards.
      await page.getByRole('button', { name: 'Fit View' }).click()
      await expect(page.getByRole('button', { name: 'Show turns' })).toBeVisible()
      await shot(page, `explorer-window-02-fit-view-${viewport.width}`)
    })
  }
})

test.describe('a 12-turn session', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await servedSession(12, 0)
  })
  test.afterAll(async () => app?.stop())

  test('a turn left under the minimap comes out from under it when the keyboard reaches it', async ({
    page
  }) => {
    await page.goto(app.url)
    // The first view: the last turns; the one before the newest is dragged under the minimap.
    const top = page.getByRole('group', { name: /^Turn 11: / })
    const second = page.getByRole('group', { name: /^Turn 12: / })
    await expect(second).toBeVisible()
    const map = (await page.locator('.graph-minimap').boundingBox())!
    const box = (await top.boundingBox())!
    await dragCanvas(
      page,
      // Its right edge at the minimap's: in the canvas, but under the minimap.
      map.x + map.width - (box.x + box.width),
      map.y + map.height / 2 - (box.y + box.height / 2)
    )
    const under = (await top.boundingBox())!
    const canvas = (await page.locator('.graph-canvas').boundingBox())!
    expect(under.y).toBeLessThan(map.y + map.height)
    expect(under.y).toBeGreaterThan(canvas.y)
    expect(under.x + under.width).toBeLessThan(canvas.x + canvas.width)
    await second.click({ position: { x: 10, y: (await second.boundingBox())!.height - 10 } })
    await expect(second).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(top).toBeFocused()
    await expectClearOfMinimap(page, top)
    await shot(page, 'explorer-window-03-out-from-under-the-minimap')
  })
})
