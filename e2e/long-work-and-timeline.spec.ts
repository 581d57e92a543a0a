// Issue 29, items 3 and 4, as a person sees them in the served UI: a running command's output
// streams into its tool call with the time it has run, the answer after it is drawn as Markdown
// (its raw HTML as text, its image as words, its link a link); the timeline's entries select
// their node, and Undo to here / Redo to here walk the timeline, Summarize up to here among its
// entries. Screenshots at 1280x800 and 900x700 in e2e/screenshots/.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { promptField, send, shot, turn } from './support/ui'

const demoWorkspace = join(repoRoot, 'demo', 'workspace')

const ANSWER = [
  '## Done',
  'The command printed **two** lines; see [the docs](https://example.com/docs).',
  '',
  '- `first`',
  '- `second`',
  '',
  '<script>document.title = "ran"</script> <img src=x onerror="document.title = \'ran\'">',
  '',
  '![a tracking pixel](https://evil.example/pixel.png)'
].join('\n')

function scriptFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rs-e2e-script-')), 'script.json')
  const command = 'echo first; while [ ! -e go ]; do sleep 0.05; done; echo second'
  const rules = [
    {
      match: 'watch',
      responses: [
        [{ type: 'tool_use', name: 'Bash', input: { command } }],
        [{ type: 'text', text: ANSWER }]
      ]
    }
  ]
  writeFileSync(file, JSON.stringify({ rules }))
  return `scripted:${file}`
}

test.describe('long work shows as it happens', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({
      copyFrom: demoWorkspace,
      args: ['--model', scriptFile(), '--permission-mode', 'bypassPermissions']
    })
  })
  test.afterAll(async () => app?.stop())

  test("a running command's output streams into its call; the answer reads as Markdown", async ({
    page
  }) => {
    await page.goto(app.url)
    await promptField(page).fill('watch it run')
    await page.getByRole('button', { name: 'Send' }).click()
    const messages = page.getByRole('region', { name: 'Messages' })
    const output = messages.getByRole('log', { name: 'Output of Bash' })
    await expect(output).toHaveText('first\n', { timeout: 20_000 })
    // The call counts the time it has run, while it still waits for the file below.
    await expect(messages.getByText(/^running… \d+ s$/)).toBeVisible()
    await expect(messages.getByText(/^running… [1-9]\d* s$/)).toBeVisible({ timeout: 10_000 })
    await shot(page, 'live-01-command-streaming')
    await expectAccessible(page, 'live-01-command-streaming')
    await page.setViewportSize({ width: 900, height: 700 })
    await expect(output).toBeVisible()
    await shot(page, 'live-02-command-streaming-900')
    await page.setViewportSize({ width: 1280, height: 800 })

    writeFileSync(join(app.workspace, 'go'), '')
    await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 20_000 })
    await expect(output).toBeHidden()
    const answer = messages.getByRole('article', { name: 'Agent' }).last()
    await expect(answer.getByRole('heading', { name: 'Done' })).toBeVisible()
    await expect(answer.locator('strong')).toHaveText('two')
    const link = answer.getByRole('link', { name: 'the docs' })
    await expect(link).toHaveAttribute('href', 'https://example.com/docs')
    await expect(link).toHaveAttribute('target', '_blank')
    // Raw HTML reads as the text it is; the image as its words, never fetched.
    await expect(answer).toContainText('<script>document.title = "ran"</script>')
    await expect(answer).toContainText('[image: a tracking pixel]')
    await expect(page.locator('img, script:not([src])')).toHaveCount(0)
    expect(await page.title()).toBe('Rewind Studio')
    await shot(page, 'live-03-answer-markdown')
    await expectAccessible(page, 'live-03-answer-markdown')
  })
})

test.describe('the timeline acts', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('entries select their node; Undo to here and Redo to here walk to them', async ({
    page
  }) => {
    await page.goto(app.url)
    await send(page, 'add TIMEOUT = 30 to config.py')
    await send(page, 'also remove DEBUG and create utils.py')

    // Summarize up to the second prompt: an action of the timeline.
    await turn(page, 'also remove DEBUG').click()
    await page.getByRole('button', { name: 'Summarize up to here' }).click()
    const upTo = page.getByRole('dialog', { name: 'Summarize up to here' })
    await upTo.getByRole('button', { name: 'Summarize' }).click()
    await expect(upTo).toBeHidden()
    // Then continue from the first turn: a second action.
    await turn(page, 'add TIMEOUT').click()
    await page.getByRole('button', { name: 'Continue from here' }).click()
    const move = page.getByRole('dialog', { name: 'Continue from here' })
    await move.getByRole('button', { name: 'Continue', exact: true }).click()
    await expect(move).toBeHidden()

    await page.getByRole('tab', { name: 'Timeline' }).click()
    const timeline = page.getByRole('region', { name: 'Timeline of actions' })
    const summaryEntry = timeline.getByRole('button', {
      name: 'Summarize up to "also remove DEBUG and create utils.py"',
      exact: true
    })
    await expect(summaryEntry).toBeVisible()
    await expect(
      timeline.getByRole('button', {
        name: 'Continue from "add TIMEOUT = 30 to config.py"',
        exact: true
      })
    ).toBeVisible()
    await shot(page, 'live-04-timeline')
    await expectAccessible(page, 'live-04-timeline')

    // Its name selects the node the action went to: the compaction.
    await summaryEntry.click()
    await expect(page.locator('.selection-bar__title')).toHaveText(
      /^Change config.py as the user asked/
    )

    // Undo to the summary: the continue is undone, the conversation back on the compaction.
    await timeline
      .getByRole('button', {
        name: 'Undo to here: Summarize up to "also remove DEBUG and create utils.py"'
      })
      .click()
    await expect(timeline.getByRole('listitem').nth(1)).toContainText('undone')
    await expect(
      page.getByRole('group', { name: /^Compaction: .*conversation here/ })
    ).toBeVisible()
    await page.setViewportSize({ width: 900, height: 700 })
    await shot(page, 'live-05-timeline-undone-900')
    await expectAccessible(page, 'live-05-timeline-undone-900')
    await page.setViewportSize({ width: 1280, height: 800 })

    // Redo to the continue: done again, the conversation on the first turn.
    await timeline
      .getByRole('button', { name: 'Redo to here: Continue from "add TIMEOUT = 30 to config.py"' })
      .click()
    await expect(timeline.getByRole('listitem').nth(1)).toContainText('done')
    await expect(turn(page, 'add TIMEOUT')).toHaveAccessibleName(/conversation here/)
    // Twice in a row: where the timeline stands there is nothing to walk to.
    await expect(timeline.getByRole('button', { name: /^Redo to here/ })).toHaveCount(0)
  })
})

test.describe('a walk of the timeline refused partway', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ copyFrom: demoWorkspace })
  })
  test.afterAll(async () => app?.stop())

  test('offers no walk it cannot take, and shows the steps a refused one took at once', async ({
    page
  }) => {
    await page.goto(app.url)
    await send(page, 'add TIMEOUT = 30 to config.py')
    await send(page, 'also remove DEBUG and create utils.py')
    const continueFrom = async (text: string) => {
      await turn(page, text).click()
      await page.getByRole('button', { name: 'Continue from here' }).click()
      const move = page.getByRole('dialog', { name: 'Continue from here' })
      await move.getByRole('button', { name: 'Continue', exact: true }).click()
      await expect(move).toBeHidden()
    }
    // Three actions; a prompt after the second: Undo reaches the third alone, so only the second
    // entry (the third undone) offers "Undo to here"; the first, whose walk would have to undo the
    // second too, offers none (the sweep of stop 46 found it offered, then refused).
    await continueFrom('add TIMEOUT')
    await continueFrom('also remove DEBUG')
    await send(page, 'what changed?')
    await continueFrom('add TIMEOUT')
    await page.getByRole('tab', { name: 'Timeline' }).click()
    const timeline = page.getByRole('region', { name: 'Timeline of actions' })
    const entries = timeline.getByRole('listitem')
    await expect(entries).toHaveCount(3)
    await expect(timeline.getByRole('button', { name: /^Undo to here/ })).toHaveCount(1)
    await expect(entries.nth(1).getByRole('button', { name: /^Undo to here/ })).toBeVisible()

    // Two more. Then, with the list shown, the fourth's restore goes to another folder (as
    // `rewind --cwd COPY` leaves one; a list read now would offer no walk past it): a walk to the
    // third undoes the fifth, then finds the fourth's undo cannot run, and stops there.
    await continueFrom('also remove DEBUG')
    await continueFrom('add TIMEOUT')
    await expect(entries).toHaveCount(5)
    const restores = join(
      app.home,
      'file-history',
      readdirSync(join(app.home, 'file-history'))[0]!,
      'restores'
    )
    const journals = readdirSync(restores)
      .filter((name) => name.endsWith('.json'))
      .sort()
    expect(journals).toHaveLength(5)
    const fourth = join(restores, journals[3]!)
    writeFileSync(
      fourth,
      JSON.stringify({ ...JSON.parse(readFileSync(fourth, 'utf8')), root: '/elsewhere' })
    )
    // Entries 2-4 can be walked to (Undo reaches back to the third), the first cannot.
    await expect(timeline.getByRole('button', { name: /^Undo to here/ })).toHaveCount(3)
    await expect(entries.nth(0).getByRole('button', { name: /^Undo to here/ })).toHaveCount(0)
    await entries
      .nth(2)
      .getByRole('button', { name: /^Undo to here/ })
      .click()
    await expect(page.getByText(/After 1 step\(s\): the next undo cannot be taken/)).toBeVisible()
    // The last continue was undone: the timeline says so at once, and offers its redo.
    await expect(entries.nth(4)).toContainText('undone')
    await expect(
      timeline.getByRole('button', { name: /^Redo to here: Continue from "add TIMEOUT/ })
    ).toBeVisible()
    // Read again, the list offers no walk back past the fourth any more.
    await expect(timeline.getByRole('button', { name: /^Undo to here/ })).toHaveCount(0)
    await shot(page, 'timeline-walk-refused-partway')
  })
})
