// Issue 12, "Done when": on a three-branch session, by clicks: continue from an abandoned node and
// send a prompt (the new node's parent is that node; the files as that node left them), rewind
// on a prompt of an abandoned branch, undo twice and redo once (the files checked on disk after
// each step), compare two nodes, search and jump. Then a 60-turn session at the least zoom: no
// text under 9 px. Screenshots in e2e/screenshots/ (explorer-branches-*), axe on every screen.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { writeSyntheticSession } from '../test/session/synthetic'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { expectWhole, focusedElement, send, shot, turn } from './support/ui'

const demoWorkspace = join(repoRoot, 'demo', 'workspace')

/** The workspace's files, as the test checks them on disk after each step. */
function files(app: ServedApp) {
  const config = readFileSync(join(app.workspace, 'config.py'), 'utf8')
  return {
    debug: config.includes('DEBUG = True'),
    timeout: config.includes('TIMEOUT = 30'),
    utils: existsSync(join(app.workspace, 'utils.py'))
  }
}
// The states the turns leave.
const AFTER_FIRST = { debug: true, timeout: true, utils: false }
const AFTER_REMOVE_DEBUG = { debug: false, timeout: true, utils: true }
const AFTER_ONLY_UTILS = { debug: true, timeout: true, utils: true }

async function rewindHere(page: Page, title: string, mode: string) {
  await turn(page, title).click()
  await page.getByRole('button', { name: 'Rewind here' }).click()
  const dialog = page.getByRole('dialog', { name: 'Rewind' })
  await dialog.getByRole('radio', { name: mode }).check()
  await expect(dialog.getByRole('button', { name: 'Restore' })).toBeEnabled()
  return dialog
}

test.describe('a three-branch session', () => {
  let app: ServedApp
  test.beforeAll(async ({ browser }) => {
    app = await serve({
      copyFrom: demoWorkspace,
      args: ['--setting', 'checkpoint.enabled=true']
    })
    const page = await browser.newPage()
    await page.goto(app.url)
    await send(page, 'add TIMEOUT = 30 to config.py')
    await send(page, 'also remove DEBUG and create utils.py')
    const first = await rewindHere(page, 'also remove DEBUG', 'Code and conversation')
    await first.getByRole('button', { name: 'Restore' }).click()
    await expect(first).toBeHidden()
    await send(page, 'only create utils.py and keep DEBUG')
    const second = await rewindHere(page, 'only create utils.py', 'Code and conversation')
    await second.getByRole('button', { name: 'Restore' }).click()
    await expect(second).toBeHidden()
    await send(page, 'explore the project with a checkpoint')
    await page.close()
  })
  test.afterAll(async () => app?.stop())

  test('continue, rewind elsewhere, undo twice, redo, compare, search', async ({ page }) => {
    // A long walk (about 50 s alone): room for a loaded machine.
    test.slow()
    await page.goto(app.url)
    await expect(turn(page, 'explore the project')).toHaveAccessibleName(/active path/)
    await expect(page.getByRole('group', { name: /^Rewind report: / })).toBeVisible()
    expect(files(app)).toEqual(AFTER_FIRST)
    await page.getByRole('button', { name: 'Fit View' }).click()
    await shot(page, 'explorer-branches-01-three-branches')
    await expectAccessible(page, 'three branches')
    // Fit View draws this small tree as compact cards: each keeps two dozen characters of its
    // title in 11 px type or more (one line of 30 px type kept ten: "also remov…").
    const debug = turn(page, 'also remove DEBUG').first()
    await expect(debug.locator('.node-card--compact')).toBeVisible()
    await expect(async () => {
      const { shown, px } = await compactTitleShown(debug)
      expect(shown).toBeGreaterThanOrEqual(24)
      expect(px).toBeGreaterThanOrEqual(11)
    }).toPass({ timeout: 5_000 })

    // Continue from the abandoned "also remove DEBUG": its files come back; a prompt goes after it.
    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Continue from here' }).click()
    const move = page.getByRole('dialog', { name: 'Continue from here' })
    await expect(move.getByRole('region', { name: 'Files to restore' })).toBeVisible()
    await shot(page, 'explorer-branches-02-continue-preview')
    await expectAccessible(page, 'the continue preview')
    await move.getByRole('button', { name: 'Continue', exact: true }).click()
    await expect(move).toBeHidden()
    expect(files(app)).toEqual(AFTER_REMOVE_DEBUG)
    await expect(page.locator('.composer__where')).toHaveText(
      'After prompt 2: “also remove DEBUG and create utils.py”'
    )
    await send(page, 'hello there')
    const hello = turn(page, 'hello there')
    await expect(hello).toHaveAccessibleName(/^Turn 3: hello there, .*conversation here/)
    expect(files(app)).toEqual(AFTER_REMOVE_DEBUG)
    // Its parent is the node continued from: the arrow up goes there.
    await hello.click()
    await page.keyboard.press('ArrowUp')
    await expect(turn(page, 'also remove DEBUG')).toBeFocused()

    // Rewind on a prompt of another abandoned branch, code only: the picker numbers that
    // branch's prompts; the files leave the conversation behind, and the markers show it.
    const dialog = await rewindHere(page, 'only create utils.py', 'Code only')
    const picker = dialog.getByRole('combobox', { name: 'Rewind to before' })
    await expect(picker.locator('option')).toHaveText([
      '1. add TIMEOUT = 30 to config.py (1 file)',
      '2. only create utils.py and keep DEBUG (1 file)'
    ])
    await expect(picker).toHaveValue(/.+/)
    await shot(page, 'explorer-branches-03-rewind-other-branch')
    await expectAccessible(page, 'the rewind picker on an abandoned branch')
    await dialog.getByRole('button', { name: 'Restore' }).click()
    await expect(dialog).toBeHidden()
    expect(files(app)).toEqual(AFTER_FIRST)
    await expect(turn(page, 'add TIMEOUT')).toHaveAccessibleName(/files here/)
    await expect(hello).toHaveAccessibleName(/conversation here/)
    await shot(page, 'explorer-branches-04-markers-apart')
    await expectAccessible(page, 'the two markers apart')

    // One more move, then undo twice and redo once: each button names its action, and the
    // files follow on disk. (An action followed by a new prompt is no longer undone: the
    // conversation has gone on from it.)
    await turn(page, 'only create utils.py').click()
    await page.getByRole('button', { name: 'Continue from here' }).click()
    await move.getByRole('button', { name: 'Continue', exact: true }).click()
    await expect(move).toBeHidden()
    expect(files(app)).toEqual(AFTER_ONLY_UTILS)
    await page.getByRole('button', { name: /^Undo continue from "only create utils.py/ }).click()
    await expect(hello).toHaveAccessibleName(/conversation here/)
    expect(files(app)).toEqual(AFTER_FIRST)
    await expect.poll(() => focusedElement(page)).not.toBe('BODY')
    await page.getByRole('button', { name: /^Undo rewind to before prompt 2 "only create/ }).click()
    await expect(
      page.getByRole('button', { name: /^Redo rewind to before prompt 2/ })
    ).toBeEnabled()
    expect(files(app)).toEqual(AFTER_REMOVE_DEBUG)
    await page.getByRole('button', { name: /^Redo rewind to before prompt 2/ }).click()
    await expect(page.getByRole('button', { name: /^Redo continue from/ })).toBeEnabled()
    expect(files(app)).toEqual(AFTER_FIRST)
    await page.getByRole('tab', { name: 'Timeline' }).click()
    const timeline = page.getByRole('region', { name: 'Timeline of actions' })
    await expect(timeline.getByRole('listitem')).toHaveCount(5)
    await expect(timeline.getByRole('listitem').last()).toContainText('undone')
    await shot(page, 'explorer-branches-05-timeline')
    // The header says all of it, at 1280x800 and at 900x700: nothing of Undo, Redo or the
    // outcome ("Redone: …") is cut.
    for (const size of [
      { width: 1280, height: 800 },
      { width: 900, height: 700 }
    ]) {
      await page.setViewportSize(size)
      const header = page.getByRole('banner')
      for (const button of [
        header.getByRole('button', { name: /^Undo rewind to before prompt 2/ }),
        header.getByRole('button', { name: /^Redo continue from/ })
      ]) {
        await expectWhole(button)
        await expectWhole(button.locator('span'))
      }
      await expectWhole(header.getByRole('status').filter({ hasText: /^Redone: / }))
      await shot(page, `explorer-branches-05-header-${size.width}`)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
    await expectAccessible(page, 'the timeline')

    // Compare the two abandoned branches' turns: the file that differs, both conversations.
    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Compare…' }).click()
    await turn(page, 'only create utils.py').click()
    await page.getByRole('button', { name: 'Compare with this node' }).click()
    const compare = page.getByRole('dialog', { name: 'Compare' })
    const differing = compare.getByRole('region', { name: 'Files that differ' })
    await expect(differing).toContainText('config.py')
    await differing.getByText('config.py', { exact: true }).click()
    await expect(differing.locator('.diff__line--add, .diff__line--del').first()).toBeVisible()
    await expect(compare.getByRole('region', { name: /^A: also remove DEBUG/ })).toContainText(
      'DEBUG is gone'
    )
    await expect(compare.getByRole('region', { name: /^B: only create utils/ })).toContainText(
      'only utils.py'
    )
    await shot(page, 'explorer-branches-06-compare')
    await expectAccessible(page, 'the compare view')
    // Close is in sight without scrolling the dialog (it was half under its edge at 1280x800
    // with the README demo's conversations; these are shorter, so the window is made lower).
    await page.setViewportSize({ width: 1280, height: 520 })
    const close = compare.getByRole('button', { name: 'Close' }).last()
    await expect(close).toBeInViewport({ ratio: 1 })
    await shot(page, 'explorer-branches-06b-compare-low-window')
    await page.setViewportSize({ width: 1280, height: 800 })
    await close.click()

    // Search and jump: the result's node is selected, unfolded, centred and focused.
    await page.getByRole('searchbox', { name: 'Search the session' }).fill('Grep')
    const results = page.getByRole('list', { name: 'Search results' })
    await expect(results.getByRole('button')).toHaveCount(1)
    // Its snippet shows the match as written, marked, on the line of text it was found in.
    await expect(results.locator('.search__snippet mark')).toHaveText('Grep')
    await shot(page, 'explorer-branches-07-search')
    await expectAccessible(page, 'search results')
    await results.getByRole('button').click()
    const exploration = page.getByRole('group', { name: /^Exploration: Explored with/ })
    await expect(exploration).toBeFocused()
    const canvas = (await page.locator('.graph-canvas').boundingBox())!
    const box = (await exploration.boundingBox())!
    expect(box.x).toBeGreaterThan(canvas.x)
    expect(box.x + box.width).toBeLessThan(canvas.x + canvas.width)
    await page.getByRole('searchbox', { name: 'Search the session' }).fill('utils')
    await page.getByRole('combobox', { name: 'Search in' }).selectOption('Prompts only')
    await expect(results.getByRole('button')).toHaveCount(2)
    await shot(page, 'explorer-branches-08-jumped')
  })
})

/**
 * How many characters of a compact node's title its card draws (the rest clamped away below
 * its lines or cut at their end), and their size on screen.
 */
function compactTitleShown(node: Locator): Promise<{ shown: number; px: number }> {
  return node.locator('.node-card__text').evaluate((element) => {
    const text = element.firstChild as Text
    const block = element.closest<HTMLElement>('.node-card__line')!
    const box = block.getBoundingClientRect()
    const range = document.createRange()
    let shown = 0
    for (let i = 0; i < text.length; i++) {
      range.setStart(text, i)
      range.setEnd(text, i + 1)
      const char = range.getBoundingClientRect()
      if (char.width > 0 && char.bottom <= box.bottom + 0.5 && char.right <= box.right + 0.5) {
        shown++
      }
    }
    const zoom = box.width / block.offsetWidth
    return { shown, px: parseFloat(getComputedStyle(element).fontSize) * zoom }
  })
}

test.describe('a 60-turn session', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), 'rs-e2e-60-'))
    const home = join(base, 'home')
    const workspace = join(base, 'workspace')
    mkdirSync(workspace, { recursive: true })
    writeFileSync(join(workspace, 'README.md'), 'sixty turns\n')
    const folder = sessionsDir(home, workspace)
    mkdirSync(folder, { recursive: true })
    const file = join(
      folder,
      sessionFileName('2026-01-01T00:00:00.000Z', '01900000-0000-7000-8000-000000000000')
    )
    writeSyntheticSession(file, Infinity, 1, { turns: 60, cwd: workspace })
    app = await serve({ env: { REWIND_STUDIO_HOME: home }, args: ['--cwd', workspace] })
  })
  test.afterAll(async () => app?.stop())

  test('stays readable zoomed out: compact nodes, no text under 9 px', async ({ page }) => {
    await page.goto(app.url)
    await expect(page.getByRole('group').first()).toBeVisible()
    // Out to the least zoom (Fit View on 60 turns shows the branches' cards instead: issue 29).
    const zoomOut = page.getByRole('button', { name: 'Zoom Out' })
    while (await zoomOut.isEnabled()) await zoomOut.click()
    await expect(page.locator('.node-card--compact').first()).toBeVisible()
    const smallest = await page.evaluate(() => {
      const zoom = Number(
        /scale\(([\d.]+)\)/.exec(
          document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? ''
        )?.[1] ?? 1
      )
      let least = Infinity
      for (const element of document.querySelectorAll<HTMLElement>('.react-flow__node *')) {
        if (element.childElementCount > 0 || (element.textContent ?? '').trim() === '') continue
        least = Math.min(least, parseFloat(getComputedStyle(element).fontSize) * zoom)
      }
      return least
    })
    expect(smallest).toBeGreaterThanOrEqual(9)
    await shot(page, 'explorer-branches-09-sixty-turns-fitted')
    await expectAccessible(page, 'sixty turns at the least zoom')
    // Hovering a compact node shows its full card.
    const canvas = (await page.locator('.graph-canvas').boundingBox())!
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2)
    for (const node of await page.locator('.react-flow__node').all()) {
      const box = (await node.boundingBox())!
      if (box.y > canvas.y + 20 && box.y + box.height < canvas.y + canvas.height - 20) {
        await node.hover()
        break
      }
    }
    await expect(page.locator('.node-peek')).toBeVisible()
    await shot(page, 'explorer-branches-10-peek')
  })

  test('the minimap frames the view; a click on it takes the view there', async ({ page }) => {
    await page.goto(app.url)
    // The first view shows the last turns: the frame sits at the bottom of the map.
    await expect(page.getByRole('group', { name: /conversation here/ })).toBeVisible()
    await expect(page.getByRole('group', { name: /^Turn 1:/ })).toHaveCount(0)
    const map = (await page
      .getByRole('img', { name: 'Minimap of the branch graph' })
      .boundingBox())!
    const frame = page.locator('.graph-minimap__frame')
    const frameTop = async () => (await frame.boundingBox())!.y - map.y
    expect(await frameTop()).toBeGreaterThan(map.height / 2)
    await page.mouse.click(map.x + map.width / 2, map.y + 6)
    await expect(page.getByRole('group', { name: /^Turn 1:/ })).toBeVisible()
    await expect.poll(frameTop).toBeLessThan(map.height / 4)
    await shot(page, 'explorer-branches-11-minimap-click')
  })
})
