// Bring into this branch… (issue 31) as a person uses it, on the demo's scripted turns: a branch
// left by a rewind is brought back, its conclusions (the demo script's summary) and its files (a
// three-way merge; a hand edit here makes a conflict, resolved side by side by an edited result).
// The merge node and its edge show in the graph; Undo takes it all back. Screenshots in
// e2e/screenshots/merge-*.png; each screen passes the accessibility check.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { demoWorkspace, twoBranches } from './support/demo'
import { serve, type ServedApp } from './support/serve'
import { send, shot, turn } from './support/ui'

test.describe('bring into this branch', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('merges a branch left by a rewind, a conflict resolved by an edited result; Undo takes it back', async ({
    page
  }) => {
    const config = () => readFileSync(join(app.workspace, 'config.py'), 'utf8')
    await page.goto(app.url)
    await twoBranches(page)
    // A hand edit here, on the line the other branch removed: a conflict to resolve.
    writeFileSync(
      join(app.workspace, 'config.py'),
      config().replace('DEBUG = True', 'DEBUG = False')
    )

    // Only a node of another branch offers it.
    await turn(page, 'only create utils.py').click()
    await expect(page.getByRole('button', { name: 'Bring into this branch…' })).toHaveCount(0)
    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Bring into this branch…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Bring into this branch' })
    const files = dialog.getByRole('list', { name: 'Files to bring in' })
    await expect(files.getByRole('listitem', { name: 'config.py' })).toContainText(
      'conflict: both changed the same lines'
    )
    // utils.py is here already, with the same content: not listed.
    await expect(files.getByRole('listitem', { name: 'utils.py' })).toHaveCount(0)
    const conflict = dialog.getByRole('group', { name: 'Conflict in config.py' })
    await expect(conflict.getByRole('region', { name: 'This branch’s config.py' })).toContainText(
      'DEBUG = False'
    )
    await expect(conflict.getByRole('region', { name: 'Brought-in config.py' })).not.toContainText(
      'DEBUG'
    )
    const bringIn = dialog.getByRole('button', { name: 'Bring in' })
    await expect(bringIn).toBeDisabled()
    await shot(page, 'merge-01-conflict')
    await expectAccessible(page, 'merge-01-conflict')

    await conflict.getByRole('radio', { name: 'Edit the result' }).check()
    const edited = conflict.getByRole('textbox', { name: 'Merged config.py' })
    await expect(edited).toHaveValue(/<<<<<<< this branch/)
    await edited.fill('TIMEOUT = 30\nHOST = "localhost"\n')
    await expect(bringIn).toBeEnabled()
    await shot(page, 'merge-02-edited')
    await expectAccessible(page, 'merge-02-edited')
    await bringIn.click()
    await expect(dialog).toBeHidden()
    expect(config()).toBe('TIMEOUT = 30\nHOST = "localhost"\n')
    // The restore's progress goes with the merge that asked for it.
    await expect(page.getByRole('progressbar', { name: 'Files restored' })).toHaveCount(0)

    // The merge is a node of this branch, drawn from the node it brought in.
    const merged = page.getByRole('group', { name: /Brought in conclusions and 1 file from/ })
    await expect(merged).toBeVisible()
    await expect(page.locator('[aria-label="Brought into this branch"]')).toHaveCount(1)
    await merged.click()
    await expect(page.getByRole('region', { name: 'Messages' })).toContainText(
      'Brought in another branch of the session'
    )
    await shot(page, 'merge-03-merged')
    await expectAccessible(page, 'merge-03-merged')

    await page.getByRole('button', { name: /^Undo brought in conclusions and 1 file/i }).click()
    // The merge stays in the log, off the branch (Redo brings it back); the files are as before.
    await expect(page.getByRole('button', { name: /^Redo brought in conclusions/i })).toBeEnabled()
    await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeDisabled()
    expect(config()).toContain('DEBUG = False')
    await shot(page, 'merge-04-undone')
  })
})

test.describe('bring in an exploration whose report is here', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('offers neither its conclusions nor files this branch holds already', async ({ page }) => {
    await page.goto(app.url)
    await send(page, 'explore the project with a checkpoint')
    // The agent's rewind left its report on this branch: the model reads it here already.
    const report = page.getByRole('group', { name: /^Rewind report: / })
    await expect(report).toBeVisible()
    // The exploration is folded into the report: its badge opens it.
    await report.getByRole('button', { name: '1 exploration', exact: true }).click()
    await page.getByRole('group', { name: /^Exploration: Explored with/ }).click()
    await page.getByRole('button', { name: 'Bring into this branch…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Bring into this branch' })
    const conclusions = dialog.getByRole('checkbox', {
      name: /^Its conclusions: this branch holds/
    })
    await expect(conclusions).toBeDisabled()
    await expect(conclusions).not.toBeChecked()
    const files = dialog.getByRole('checkbox', { name: /^Its files: none to bring in/ })
    await expect(files).toBeDisabled()
    await expect(files).not.toBeChecked()
    await expect(dialog.getByRole('status')).toHaveText(
      'Nothing to bring in: this branch has its conclusions and its files already.'
    )
    await expect(dialog.getByRole('button', { name: 'Bring in' })).toBeDisabled()
    await shot(page, 'merge-05-nothing-to-bring')
    await expectAccessible(page, 'merge-05-nothing-to-bring')
  })
})
