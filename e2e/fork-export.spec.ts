// Fork to new session and Export… as a person uses them, on the demo's scripted turns. Each step
// saves a screenshot in e2e/screenshots/ to look at; each screen passes the accessibility check.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { demoWorkspace, twoBranches } from './support/demo'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { send, shot, turn } from './support/ui'

test.describe('fork to new session', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('forks the first turn with its files into a session that opens at once; Undo puts the files back', async ({
    page
  }) => {
    const config = () => readFileSync(join(app.workspace, 'config.py'), 'utf8')
    await page.goto(app.url)
    await send(page, 'add TIMEOUT = 30 to config.py')
    await send(page, 'also remove DEBUG and create utils.py')
    expect(config()).not.toContain('DEBUG')

    await turn(page, 'add TIMEOUT').click()
    await page.getByRole('button', { name: 'Fork to new session' }).click()
    const dialog = page.getByRole('dialog', { name: 'Fork to new session' })
    await expect(dialog).toContainText('The files stay as they are now.')
    await shot(page, 'fork-01-dialog')
    await expectAccessible(page, 'fork-01-dialog')

    await dialog.getByRole('checkbox', { name: /Also bring the files back/ }).check()
    await expect(dialog.getByText('config.py', { exact: true })).toBeVisible()
    await expect(dialog.getByText('utils.py', { exact: true })).toBeVisible()
    await shot(page, 'fork-02-restore-preview')
    await expectAccessible(page, 'fork-02-restore-preview')
    await dialog.getByRole('button', { name: 'Fork' }).click()
    await expect(dialog).toBeHidden()

    // The fork is open: its graph holds the first turn only; the origin is in the session list.
    await expect(turn(page, 'add TIMEOUT')).toBeVisible()
    await expect(turn(page, 'also remove DEBUG')).toHaveCount(0)
    await expect(page.getByRole('status').first()).toContainText('Forked into a new session')
    expect(config()).toContain('DEBUG = True')
    expect(readdirSync(app.workspace)).not.toContain('utils.py')
    // The restore's progress went with the fork's reply (it stayed over the composer).
    await expect(page.getByText(/Restoring files:/)).toHaveCount(0)
    const sessions = page.getByRole('navigation', { name: 'Sessions' })
    await expect(sessions.getByRole('listitem')).toHaveCount(2)
    // The two are told apart: the fork is titled as one (issue 29).
    await expect(
      sessions.getByRole('button', { name: /Fork of “add TIMEOUT = 30 to config\.py”/ })
    ).toBeVisible()
    await shot(page, 'fork-03-forked')
    await expectAccessible(page, 'fork-03-forked')

    await page.getByRole('button', { name: /^Undo restore the files of "add TIMEOUT/ }).click()
    await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeDisabled()
    expect(config()).not.toContain('DEBUG')
    expect(readdirSync(app.workspace)).toContain('utils.py')

    // The fork goes on by itself: a new prompt is its second turn.
    await send(page, 'also remove DEBUG and create utils.py')
    await expect(turn(page, 'also remove DEBUG')).toBeVisible()
  })
})

test.describe('export', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('saves the whole tree as one HTML page that opens offline, and a branch as Markdown', async ({
    page,
    browser
  }) => {
    await page.goto(app.url)
    await twoBranches(page)

    await page.getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export' })
    await dialog.getByRole('radio', { name: 'HTML page' }).check()
    await expect(dialog.getByRole('radio', { name: 'The whole tree' })).toBeChecked()
    await shot(page, 'export-01-dialog')
    await expectAccessible(page, 'export-01-dialog')
    const downloading = page.waitForEvent('download')
    await dialog.getByRole('button', { name: 'Export' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toMatch(/^rewind-studio-[\w-]+-tree\.html$/)
    const saved = join(mkdtempSync(join(tmpdir(), 'rs-e2e-export-')), download.suggestedFilename())
    await download.saveAs(saved)
    await expect(dialog).toBeHidden()

    // The page, opened with the network off: every turn, both branches, its own script working.
    const offline = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await offline.setOffline(true)
    const requests: string[] = []
    offline.on('request', (request) => {
      if (!request.url().startsWith('file://')) requests.push(request.url())
    })
    try {
      const exported = await offline.newPage()
      await exported.goto(`file://${saved}`)
      const outline = exported.getByRole('navigation', { name: 'Branches' })
      await expect(outline.getByRole('link')).toHaveCount(3)
      await expect(outline.getByRole('link', { name: /only create utils\.py/ })).toBeVisible()
      await exported.getByRole('button', { name: 'Active branch' }).click()
      await expect(exported.getByRole('status')).toHaveText('Showing one branch (2 nodes)')
      await expect(exported.getByRole('heading', { name: /also remove DEBUG/ })).toBeHidden()
      await exported.getByRole('button', { name: 'Whole tree' }).click()
      await exported.getByRole('link', { name: /also remove DEBUG/ }).click()
      await exported.locator('section.selected details').first().click()
      await exported.screenshot({
        path: join(repoRoot, 'e2e/screenshots/export-02-html-offline.png')
      })
      await expectAccessible(exported, 'export-02-html-offline')
      expect(requests).toEqual([])
    } finally {
      await offline.close()
    }

    await page.getByRole('button', { name: 'Export…' }).click()
    await expect(dialog.getByRole('radio', { name: 'Markdown' })).toBeChecked()
    await expect(dialog.getByRole('radio', { name: 'The active branch' })).toBeChecked()
    const markdown = page.waitForEvent('download')
    await dialog.getByRole('button', { name: 'Export' }).click()
    const md = await markdown
    const mdFile = join(mkdtempSync(join(tmpdir(), 'rs-e2e-export-')), md.suggestedFilename())
    await md.saveAs(mdFile)
    const text = readFileSync(mdFile, 'utf8')
    expect(text).toContain('## 1. add TIMEOUT = 30 to config.py')
    expect(text).toContain('## 2. only create utils.py and keep DEBUG')
    expect(text).not.toContain('also remove DEBUG')
    await expect(page.getByRole('status').first()).toContainText('Exported')
  })
})
