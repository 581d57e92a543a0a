// The branch explorer as a person uses it: the seed walk-through with clicks and typing, then an
// agent checkpoint whose report stays in the tree. Each step saves a screenshot in
// e2e/screenshots/ (named in the README) to look at.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { rewindHere, send, shot, turn } from './support/ui'

const demoWorkspace = join(repoRoot, 'demo', 'workspace')

test.describe('the seed walk-through, by clicks', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('rewind to checkpoint 2, see two branches, undo, switch back', async ({ page }) => {
    // A long walk (close to a minute on a loaded machine).
    test.slow()
    const config = () => readFileSync(join(app.workspace, 'config.py'), 'utf8')
    await page.goto(app.url)

    await send(page, 'add TIMEOUT = 30 to config.py')
    await send(page, 'also remove DEBUG and create utils.py')
    expect(config()).not.toContain('DEBUG')
    expect(readdirSync(app.workspace)).toContain('utils.py')
    await expect(turn(page, 'also remove DEBUG')).toBeVisible()
    await shot(page, 'explorer-01-two-turns')
    await expectAccessible(page, 'explorer-01-two-turns')

    // The keyboard reaches the same places: arrows move, Enter opens, Esc Esc opens the picker.
    await turn(page, 'also remove DEBUG').click()
    await page.keyboard.press('ArrowUp')
    await expect(turn(page, 'add TIMEOUT')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('tab', { name: 'Inspector' })).toHaveAttribute(
      'aria-selected',
      'true'
    )
    await expect(page.getByRole('region', { name: 'Prompt' })).toContainText('add TIMEOUT = 30')
    await page.keyboard.press('ArrowDown')
    await expect(turn(page, 'also remove DEBUG')).toBeFocused()
    // One tab stop in the graph (the selected node): Tab passes the graph in one step.
    await expect(page.locator('.react-flow__node[tabindex="0"]')).toHaveCount(1)
    // Panned out of view, the selected node is not rendered: the canvas is the tab stop then,
    // and hands the focus on to the node, brought back into view.
    const pane = await page.locator('.react-flow__pane').boundingBox()
    const [px, py] = [(pane?.x ?? 0) + 40, (pane?.y ?? 0) + (pane?.height ?? 0) / 2]
    for (let drag = 0; drag < 2; drag++) {
      await page.mouse.move(px, py)
      await page.mouse.down()
      await page.mouse.move(px + 280, py, { steps: 4 })
      await page.mouse.move(px + 560, py, { steps: 4 })
      await page.mouse.up()
    }
    await expect(turn(page, 'also remove DEBUG')).toHaveCount(0)
    // The demo's prompts not sent yet (after the search bar) come before the graph in the tab order.
    await page.getByRole('list', { name: 'Demo prompts' }).getByRole('button').last().focus()
    await page.keyboard.press('Tab')
    await expect(turn(page, 'also remove DEBUG')).toBeFocused()
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    const dialog = page.getByRole('dialog', { name: 'Rewind' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Rewind here' }).click()
    await page.getByRole('radio', { name: 'Code and conversation' }).check()
    await expect(dialog.getByText('config.py', { exact: true })).toBeVisible()
    await expect(dialog.getByText('utils.py', { exact: true })).toBeVisible()
    await shot(page, 'explorer-02-rewind-preview')
    await expectAccessible(page, 'explorer-02-rewind-preview')
    await dialog.getByRole('button', { name: 'Restore' }).click()

    await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(
      'also remove DEBUG and create utils.py'
    )
    expect(config()).toContain('DEBUG = True')
    expect(config()).toContain('TIMEOUT = 30')
    expect(readdirSync(app.workspace)).not.toContain('utils.py')
    await shot(page, 'explorer-03-rewound')
    await expectAccessible(page, 'explorer-03-rewound')

    await send(page, 'only create utils.py and keep DEBUG')
    await expect(turn(page, 'only create utils.py')).toBeVisible()
    await expect(turn(page, 'also remove DEBUG')).toHaveAccessibleName(/abandoned branch/)
    expect(config()).toContain('DEBUG = True')
    expect(readdirSync(app.workspace)).toContain('utils.py')
    await shot(page, 'explorer-04-two-branches')
    await expectAccessible(page, 'explorer-04-two-branches')

    // Undo the last rewind? The new prompt was sent after it, so undo is off; rewind again.
    await rewindHere(page, 'only create utils.py')
    expect(readdirSync(app.workspace)).not.toContain('utils.py')
    await page.getByRole('banner').getByRole('button', { name: /^Undo/ }).click()
    await expect(page.getByRole('banner').getByRole('button', { name: /^Undo/ })).toBeDisabled()
    // Undo is disabled while its restore goes too: the file is back when the restore ends.
    await expect.poll(() => readdirSync(app.workspace)).toContain('utils.py')
    await shot(page, 'explorer-05-undone')
    await expectAccessible(page, 'explorer-05-undone')

    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Switch to this branch' }).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Switch/ })
      .click()
    await expect(turn(page, 'also remove DEBUG')).toHaveAccessibleName(/active path/)
    expect(config()).not.toContain('DEBUG')
    expect(config()).toContain('TIMEOUT = 30')
    await shot(page, 'explorer-06-switched-back')
    await expectAccessible(page, 'explorer-06-switched-back')

    // A bookmark on the first turn, kept in the session and named in the graph.
    await turn(page, 'add TIMEOUT').click()
    await page.getByRole('button', { name: 'Label', exact: true }).click()
    const labelDialog = page.getByRole('dialog', { name: 'Label' })
    await labelDialog.getByRole('textbox').fill('timeout works')
    await labelDialog.getByRole('button', { name: 'Save label' }).click()
    await expect(turn(page, 'add TIMEOUT')).toHaveAccessibleName(/labelled timeout works/)
    await shot(page, 'explorer-07-labelled')
    await expectAccessible(page, 'explorer-07-labelled')
  })
})

test.describe('an agent checkpoint', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace, args: ['--setting', 'checkpoint.enabled=true'] })
  })
  test.afterAll(async () => app?.stop())

  test('leaves a report node whose full text the inspector shows', async ({ page }) => {
    await page.goto(app.url)
    await send(page, 'explore the project with a checkpoint')
    const report = page.getByRole('group', { name: /^Rewind report: / })
    await expect(report).toBeVisible()
    await report.click()
    await page.getByRole('tab', { name: 'Inspector' }).click()
    await expect(page.getByRole('region', { name: 'Report' })).toContainText(
      'All settings live in config.py'
    )
    await shot(page, 'explorer-08-agent-report')
    await expectAccessible(page, 'explorer-08-agent-report')
  })
})
