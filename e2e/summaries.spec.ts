// Summaries as a person uses them in the explorer, with the demo's scripted model (its "summary"):
// leave a branch with a summary of it (the choice in the rewind dialog, with instructions), see
// the summary node linked to the branch it summarizes and its text in the Inspector; then
// summarize up to a prompt and see the compaction node; summarize from a prompt and get the prompt
// back in the composer. Then, with the real SDK against the loopback Messages server, the tokens
// the API counted: per turn in the Inspector and in the header's context meter. Screenshots in e2e/screenshots/.
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { expectClearOfMinimap, send, shot, turn } from './support/ui'
import { startMessagesServer } from '../test/support/messages-server'

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

    // Switching back to the first branch summarizes the one left; the choice is remembered.
    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Switch to this branch' }).click()
    const toSwitch = page.getByRole('dialog', { name: 'Switch to this branch' })
    await toSwitch.getByRole('radio', { name: 'Summarize', exact: true }).check()
    await toSwitch.getByRole('checkbox', { name: 'Remember my choice' }).check()
    await toSwitch.getByRole('button', { name: 'Switch branch' }).click()
    await expect(toSwitch).toBeHidden()
    await expect(page.getByRole('group', { name: /^Branch summary: / })).toHaveCount(2)
    await expect(page.locator('.react-flow__edge.flow-edge--summary')).toHaveCount(2)
    // The view follows the conversation to where it now stands: the new summary, selected (the
    // UI sweep of stop 46 found the canvas left on the branch left, the selection off view).
    const landed = page.locator('.react-flow__node:has(.node-card--selected)')
    await expect(landed).toHaveAccessibleName(/^Branch summary: .*active path/)
    await expect(landed).toBeInViewport({ ratio: 1 })
    await expectClearOfMinimap(page, landed)
    await shot(page, 'summaries-045-switch-lands-in-view')
    // The switch can still leave the turn it selects under the minimap (a known flaw, issue 29):
    // Fit View brings it clear, where a click lands.
    const switched = turn(page, 'also remove DEBUG')
    await page.getByRole('button', { name: 'Fit View' }).click()
    await expectClearOfMinimap(page, switched)
    await switched.click()
    await page.getByRole('button', { name: 'Continue from here' }).click()
    const toContinue = page.getByRole('dialog', { name: 'Continue from here' })
    await expect(toContinue.getByRole('radio', { name: 'Summarize', exact: true })).toBeChecked()
    await shot(page, 'summaries-05-continue-remembers-the-choice')
    await toContinue.getByRole('button', { name: 'Cancel' }).click()
  })

  test('summarize from a prompt: the prompt comes back, the turns stay, the files do not move', async ({
    page
  }) => {
    const fresh = await serve({ copyFrom: demoWorkspace })
    try {
      await page.goto(fresh.url)
      await send(page, 'add TIMEOUT = 30 to config.py')
      await send(page, 'also remove DEBUG and create utils.py')
      const files = () => readFileSync(join(fresh.workspace, 'config.py'), 'utf8')
      const before = files()

      await turn(page, 'also remove DEBUG').click()
      await page.getByRole('button', { name: 'Summarize from here' }).click()
      const dialog = page.getByRole('dialog', { name: 'Summarize from here' })
      await expect(dialog).toContainText('“also remove DEBUG and create utils.py”')
      await dialog
        .getByRole('textbox', { name: 'Instructions for the summary (optional)' })
        .fill('name the files')
      await shot(page, 'summaries-07-summarize-from-here')
      await expectAccessible(page, 'summaries-07-summarize-from-here')
      await dialog.getByRole('button', { name: 'Summarize' }).click()
      await expect(dialog).toBeHidden()

      // The prompt is offered again; the conversation goes on from before it, with the summary.
      await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(
        'also remove DEBUG and create utils.py'
      )
      const summary = page.getByRole('group', { name: /^Branch summary: / })
      await expect(summary).toHaveCount(1)
      await expect(summary).toHaveAccessibleName(/active path/)
      await expect(page.locator('.react-flow__edge.flow-edge--summary')).toHaveCount(1)
      // The summarized turn stays in the graph, off the active path now: no second summary of it.
      const left = turn(page, 'also remove DEBUG')
      await expect(left).toBeVisible()
      await expect(left).not.toHaveAccessibleName(/active path/)
      await left.click()
      await expect(page.getByRole('button', { name: 'Summarize from here' })).toHaveCount(0)
      await expect(page.getByRole('button', { name: 'Switch to this branch' })).toBeVisible()
      await summary.click()
      await page.getByRole('tab', { name: 'Inspector' }).click()
      const report = page.getByRole('region', { name: 'Report' })
      await expect(report).toContainText('Modified: config.py, utils.py')
      await shot(page, 'summaries-08-summarized-from-here')
      await expectAccessible(page, 'summaries-08-summarized-from-here')
      // No file changed: the workspace is as the second turn left it.
      expect(files()).toBe(before)
      expect(readFileSync(join(fresh.workspace, 'utils.py'), 'utf8')).not.toBe('')
    } finally {
      await fresh.stop()
    }
  })

  test('the tokens the API counted: per turn in the Inspector and in the context meter', async ({
    page
  }) => {
    // Every request is answered; its usage says it took a quarter of its body's length.
    const server = await startMessagesServer([], {
      answer: () => ({
        kind: 'message',
        content: [{ type: 'text', text: 'config.py holds DEBUG.' }]
      }),
      usage: 'body-size'
    })
    const real = await serve({
      copyFrom: demoWorkspace,
      env: { ANTHROPIC_BASE_URL: server.url }
    })
    try {
      await page.goto(real.url)
      await page.getByRole('button', { name: 'Settings' }).click()
      const settings = page.getByRole('dialog', { name: 'Settings' })
      await settings.getByLabel('API key').fill('sk-loopback-not-a-real-key')
      await settings.getByLabel('Model').fill('claude-test')
      await settings.getByRole('button', { name: 'Save settings' }).click()
      await settings.getByRole('button', { name: 'Close' }).click()
      await expect(page.getByText('Demo model', { exact: true })).toBeHidden()
      await expect(page.getByRole('alert').filter({ hasText: 'No API key' })).toHaveCount(0)

      await send(page, 'what does config.py hold?')
      expect(server.requests).toHaveLength(1)
      const input = Math.ceil((server.requests[0]?.raw.length ?? 0) / 4)
      // The next request holds this one and its answer (the server counts 5 output tokens).
      const context = (input + 5).toLocaleString('en-US')
      // The meter reads the API's count now, not an estimate.
      const meter = page.getByRole('meter', { name: 'Context' })
      await expect(meter).toHaveAttribute(
        'aria-valuetext',
        new RegExp(`% of the context window \\(${context} of 200,000 tokens\\)$`)
      )
      await turn(page, 'what does config.py hold').click()
      await page.getByRole('tab', { name: 'Inspector' }).click()
      const tokens = page.getByRole('region', { name: 'Tokens' })
      const shown = input.toLocaleString('en-US')
      await expect(tokens).toContainText(`1 request · input ${shown} · cache read 0`)
      await expect(tokens).toContainText('output 5')
      await expect(tokens).toContainText(`Context of the last request: ${context} tokens`)
      await shot(page, 'summaries-06-tokens-per-turn')
      await expectAccessible(page, 'summaries-06-tokens-per-turn')

      // A smaller window in Settings: the meter measures against it at once.
      await page.getByRole('button', { name: 'Settings' }).click()
      await settings.getByLabel('Context window (tokens)').fill('100000')
      await settings.getByRole('button', { name: 'Save settings' }).click()
      await settings.getByRole('button', { name: 'Close' }).click()
      await expect(meter).toHaveAttribute(
        'aria-valuetext',
        new RegExp(`% of the context window \\(${context} of 100,000 tokens\\)$`)
      )
    } finally {
      await real.stop()
      await server.close()
    }
  })
})
