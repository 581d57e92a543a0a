// Issue 26, items 1 and 2, by clicks in the served demo: a code-only rewind and its undo leave
// every turn's count as it was (the exploration turn still changed nothing, a hand edit made
// after it is no turn's), and a later continue to the exploration brings back the files as that
// turn left them; a redo of a continue that summarized the branch it left lands on the summary,
// and the next prompt goes on after it. Files checked on disk; screenshots in e2e/screenshots/
// (issue26-*), axe on each screen.
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { send, shot, turn } from './support/ui'

const demoWorkspace = join(repoRoot, 'demo', 'workspace')
const config = (app: ServedApp) => readFileSync(join(app.workspace, 'config.py'), 'utf8')
const header = (page: Page) => page.getByRole('banner')

/** Every node in view: the canvas draws only the nodes it shows. */
const fitView = (page: Page) => page.getByRole('button', { name: 'Fit View' }).click()

async function openRewind(page: Page, title: string, mode: string, changes = true) {
  await fitView(page)
  await turn(page, title).click()
  await page.getByRole('button', { name: 'Rewind here' }).click()
  const dialog = page.getByRole('dialog', { name: 'Rewind' })
  await dialog.getByRole('radio', { name: mode }).check()
  const restore = dialog.getByRole('button', { name: 'Restore' })
  if (changes) await expect(restore).toBeEnabled()
  else {
    // A code-only rewind that would change no file is not offered (nothing would be recorded).
    await expect(dialog.getByText('No files change.')).toBeVisible()
    await expect(restore).toBeDisabled()
  }
  return dialog
}

async function continueFrom(page: Page, node: ReturnType<Page['getByRole']>, summary?: string) {
  await fitView(page)
  await node.click()
  await page.getByRole('button', { name: 'Continue from here' }).click()
  const dialog = page.getByRole('dialog', { name: 'Continue from here' })
  if (summary !== undefined) await dialog.getByRole('radio', { name: summary, exact: true }).check()
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(dialog).toBeHidden()
}

let app: ServedApp | null = null
test.afterEach(async () => {
  await app?.stop()
  app = null
})

test('a code-only rewind and its undo change no turn; continue to the exploration leaves a later hand edit out', async ({
  page
}) => {
  test.slow()
  app = await serve({ copyFrom: demoWorkspace, args: ['--setting', 'checkpoint.enabled=true'] })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(app.url)
  await send(page, 'add TIMEOUT = 30 to config.py')
  await send(page, 'also remove DEBUG and create utils.py')
  await send(page, 'checkpoint: find every setting')
  const explore = turn(page, 'checkpoint: find every setting')
  await expect(explore).not.toHaveAccessibleName(/files? changed/)
  const asTurnsLeftIt = config(app)

  appendFileSync(join(app.workspace, 'config.py'), 'PORT = 8080\n')
  for (const title of ['also remove DEBUG', 'add TIMEOUT']) {
    const dialog = await openRewind(page, title, 'Code only')
    await dialog.getByRole('button', { name: 'Restore' }).click()
    await expect(dialog).toBeHidden()
    await header(page)
      .getByRole('button', { name: /^Undo rewind/ })
      .click()
    await expect(header(page).getByRole('button', { name: /^Redo/ })).toBeEnabled()
  }
  expect(config(app)).toBe(`${asTurnsLeftIt}PORT = 8080\n`)

  // Every view of the turns says what it said before.
  await expect(explore).not.toHaveAccessibleName(/files? changed/)
  await expect(turn(page, 'also remove DEBUG')).toHaveAccessibleName(/2 files changed/)
  const picker = (
    await openRewind(page, 'checkpoint: find every setting', 'Code only', false)
  ).getByRole('combobox', { name: 'Rewind to before' })
  await expect(picker.locator('option')).toHaveText([
    '1. add TIMEOUT = 30 to config.py (1 file)',
    '2. also remove DEBUG and create utils.py (2 files)',
    '3. checkpoint: find every setting'
  ])
  await shot(page, 'issue26-01-picker-after-rewind-and-undo')
  await expectAccessible(page, 'the rewind picker after a code-only rewind and its undo')
  await page.getByRole('dialog', { name: 'Rewind' }).getByRole('button', { name: 'Cancel' }).click()

  // Away to turn one, then back to the exploration: the files as it left them, no hand edit.
  await continueFrom(page, turn(page, 'add TIMEOUT'))
  // The exploration is folded into the agent's report: its badge opens it.
  await page
    .getByRole('group', { name: /^Rewind report: / })
    .getByRole('button', { name: '1 exploration', exact: true })
    .click()
  const exploration = page.getByRole('group', { name: /^Exploration: / })
  await continueFrom(page, exploration)
  expect(config(app)).toBe(asTurnsLeftIt)
  await expect(explore).not.toHaveAccessibleName(/files? changed/)
  await fitView(page)
  await shot(page, 'issue26-02-continued-to-the-exploration')
  await expectAccessible(page, 'continued to the exploration')
})

test('a redo of a continue that summarized the branch left lands on the summary', async ({
  page
}) => {
  test.slow()
  app = await serve({ copyFrom: demoWorkspace })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(app.url)
  await send(page, 'add TIMEOUT = 30 to config.py')
  await send(page, 'also remove DEBUG and create utils.py')
  await continueFrom(page, turn(page, 'add TIMEOUT'), 'Summarize')
  const summary = page.getByRole('group', { name: /^Branch summary: / })
  await expect(summary).toHaveAccessibleName(/active path/)

  await header(page).getByRole('button', { name: /^Undo/ }).click()
  await expect(summary).not.toHaveAccessibleName(/active path/)
  await header(page).getByRole('button', { name: /^Redo/ }).click()
  await expect(summary).toHaveAccessibleName(/active path/)
  await fitView(page)
  await shot(page, 'issue26-03-redone-on-the-summary')
  await expectAccessible(page, 'a redone continue with its summary')

  // The next prompt goes on after the summary, which stays on the branch.
  await send(page, 'only create utils.py and keep DEBUG')
  await expect(summary).toHaveAccessibleName(/active path/)
  await expect(turn(page, 'only create utils.py')).toHaveAccessibleName(/active path/)
  await shot(page, 'issue26-04-prompt-after-the-summary')
})
