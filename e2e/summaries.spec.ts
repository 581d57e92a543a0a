// Summaries as a person uses them in the explorer, with the demo's scripted model (its "summary"):
// leave a branch with a summary of it (the choice in the rewind dialog, with instructions), see
// the summary node linked to the branch it summarizes and its text in the Inspector; then
// summarize up to a prompt and see the compaction node. Screenshots in e2e/screenshots/.
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { send, shot, turn } from './support/ui'

const demoWorkspace = join(repoRoot, 'demo', 'workspace')

test.describe('summaries in the explorer', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('leave a branch with a summary, then summarize up to a prompt', async ({ page }) => {
    await page.goto(app.url)
    await send(page, 'add TIMEOUT = 30 to config.py')
    await send(page, 'also remove DEBUG and create utils.py')
    const meter = page.getByRole('meter', { name: 'Context' })
    await expect(meter).toHaveAttribute('aria-valuetext', /% of the context window \(.* tokens/)

    // Rewind turn 2, summarizing the branch it leaves, with instructions.
    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Rewind here' }).click()
    const dialog = page.getByRole('dialog', { name: 'Rewind' })
    await expect(dialog.getByRole('radio', { name: 'No summary' })).toBeChecked()
    await dialog.getByRole('radio', { name: 'Summarize with my instructions' }).check()
    await dialog
      .getByRole('textbox', { name: 'Instructions for the summary' })
      .fill('say which files changed')
    await expect(dialog.getByText('utils.py', { exact: true })).toBeVisible()
    await shot(page, 'summaries-01-rewind-with-summary')
    await expectAccessible(page, 'summaries-01-rewind-with-summary')
    await dialog.getByRole('button', { name: 'Restore' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(
      'also remove DEBUG and create utils.py'
    )
    expect(readFileSync(join(app.workspace, 'config.py'), 'utf8')).toContain('DEBUG = True')

    // The summary sits where the conversation goes on, linked from the branch it summarizes.
    const summary = page.getByRole('group', {
      name: /^Branch summary: Change config.py as the user asked/
    })
    await expect(summary).toBeVisible()
    await expect(summary).toHaveAccessibleName(/active path/)
    await expect(page.locator('.react-flow__edge.flow-edge--summary')).toHaveCount(1)
    await summary.click()
    await page.getByRole('tab', { name: 'Inspector' }).click()
    const report = page.getByRole('region', { name: 'Report' })
    await expect(report).toContainText('Modified: config.py, utils.py')
    await expect(report).toContainText('This is the demo script')
    await shot(page, 'summaries-02-summary-node')
    await expectAccessible(page, 'summaries-02-summary-node')

    // A new turn after the summary, then everything before it becomes one summary.
    await page.getByRole('textbox', { name: 'Prompt' }).fill('')
    await send(page, 'only create utils.py, keep DEBUG')
    await turn(page, 'only create utils.py').click()
    await page.getByRole('button', { name: 'Summarize up to here' }).click()
    const upTo = page.getByRole('dialog', { name: 'Summarize up to here' })
    await upTo
      .getByRole('textbox', { name: 'Instructions for the summary (optional)' })
      .fill('keep the file names')
    await shot(page, 'summaries-03-summarize-up-to-here')
    await upTo.getByRole('button', { name: 'Summarize' }).click()
    await expect(upTo).toBeHidden()
    const compaction = page.getByRole('group', {
      name: /^Compaction: Change config.py as the user asked/
    })
    await expect(compaction).toBeVisible()
    await expect(compaction).toHaveAccessibleName(/active path/)
    // The turns it summarizes stay in the graph.
    await expect(turn(page, 'also remove DEBUG')).toBeVisible()
    await compaction.click()
    await page.getByRole('tab', { name: 'Inspector' }).click()
    const compacted = page.getByRole('region', { name: 'Report' })
    await expect(compacted).toContainText('Compaction')
    await expect(compacted).toContainText(
      'in place of everything before “only create utils.py, keep DEBUG”'
    )
    await shot(page, 'summaries-04-compaction-node')
    await expectAccessible(page, 'summaries-04-compaction-node')
  })
})
