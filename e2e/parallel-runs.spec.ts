// Try in parallel… (issue 30) as a person uses it, with a scripted model: three runs from an
// earlier turn, one slow; they show beside the turn as they go, in a second tab and after a
// reload too; the slow one is stopped mid-way; the others end as branches, are compared in the
// Runs table (files, lines, the check's exit code), one is adopted with the others summarized
// (its files on disk, Undo takes it back); another, drawn columns away, is adopted and the page
// opened again frames it with the turn it forks from (issue 29). Started twice, the second start is a table of its own.
// Screenshots in e2e/screenshots/parallel-*.png at 1280x800 and 900x700.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { serve, type ServedApp } from './support/serve'
import { expectLegibleInView, send, shot, turn } from './support/ui'
import { RUN_RULES } from '../test/parallel/run-script'

const SCRIPT = {
  summary: 'The run tried another way; its files are on its branch.',
  rules: [
    ...RUN_RULES,
    {
      match: 'slow run',
      responses: [
        [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: 'echo started > slow.txt; sleep 120' }
          }
        ],
        [{ type: 'text', text: 'slow done' }]
      ]
    }
  ]
}

/** A branch of the Branches outline by its title. */
const branch = (page: Page, title: string) =>
  page.getByRole('tree', { name: 'Branch outline' }).getByRole('treeitem', {
    name: new RegExp(`^${title},`)
  })

test.describe('parallel runs', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'rs-e2e-parallel-')), 'script.json')
    writeFileSync(script, JSON.stringify(SCRIPT))
    app = await serve({
      files: { 'keep.txt': 'the user keeps this\n' },
      args: ['--model', `scripted:${script}`, '--permission-mode', 'bypassPermissions']
    })
  })
  test.afterAll(async () => app?.stop())

  test('runs from an earlier turn go side by side, one stopped, compared, one adopted and undone', async ({
    page,
    context
  }) => {
    test.setTimeout(120_000)
    const notes = () => readFileSync(join(app.workspace, 'notes.md'), 'utf8')
    await page.goto(app.url)
    await send(page, 'setup notes')
    await send(page, 'second notes')
    expect(notes()).toBe('v2\n')

    await turn(page, 'setup notes').click()
    await page.getByRole('button', { name: 'Try in parallel…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Try in parallel' })
    await dialog.getByRole('radio', { name: 'One prompt per run' }).check()
    await dialog.getByRole('textbox', { name: 'Prompt for run 1' }).fill('try red')
    await dialog.getByRole('textbox', { name: 'Prompt for run 2' }).fill('slow run')
    await dialog.getByRole('button', { name: 'Add a run' }).click()
    await dialog.getByRole('textbox', { name: 'Prompt for run 3' }).fill('try blue')
    await dialog.getByRole('textbox', { name: /Check command/ }).fill('cat notes.md')
    await shot(page, 'parallel-01-dialog')
    await expectAccessible(page, 'parallel-01-dialog')
    await dialog.getByRole('button', { name: 'Start 3 runs' }).click()
    await expect(dialog).toBeHidden()

    // The slow run is drawn beside the turn while it goes, in this tab, a second one, a reload:
    // in the Branches outline and in the graph.
    const slow = branch(page, 'Run 2: slow run')
    await expect(slow).toHaveAccessibleName(/running/, { timeout: 20_000 })
    const second = await context.newPage()
    await second.goto(app.url)
    await expect(branch(second, 'Run 2: slow run')).toHaveAccessibleName(/running/)
    await page.reload()
    await expect(slow).toHaveAccessibleName(/running/)
    await page.getByRole('button', { name: 'Fit View' }).click()
    await expect(
      page.getByRole('group', { name: /^Turn 2: Run 2: slow run/ })
    ).toHaveAccessibleName(/running/)
    await shot(page, 'parallel-02-running')
    // The user's files are only read meanwhile.
    expect(notes()).toBe('v2\n')
    expect(existsSync(join(app.workspace, 'slow.txt'))).toBe(false)

    // Stop the slow run mid-way (its command is sleeping in its own workspace).
    await slow.click()
    await page.getByRole('button', { name: 'Stop this run' }).click()
    // Each run ends as a branch of the turn: its own turns, off the conversation's path.
    await expect(branch(page, 'Run 2: slow run')).toHaveAccessibleName(/stopped/, {
      timeout: 30_000
    })
    for (const title of ['Run 1: try red', 'Run 3: try blue']) {
      await expect(branch(page, title)).toHaveAccessibleName(/, parallel run, done$/, {
        timeout: 30_000
      })
    }
    await expect(branch(second, 'Run 1: try red')).toBeVisible()
    await page.getByRole('button', { name: 'Fit View' }).click()

    await turn(page, 'Run 1: try red').click()
    await page.getByRole('button', { name: 'Compare runs…' }).click()
    const table = page.getByRole('dialog', { name: 'Parallel runs' })
    const red = table.getByRole('row', { name: /try red/ })
    await expect(red).toContainText('done')
    await expect(red).toContainText('exit 0')
    await expect(red).toContainText('+2')
    await expect(table.getByRole('row', { name: /slow run/ })).toContainText('stopped')
    await expect(
      table.getByText(/^Their 3 workspaces take [\d.]+ kB on disk \(as du counts it\)/)
    ).toBeVisible()
    await shot(page, 'parallel-03-compare')
    await expectAccessible(page, 'parallel-03-compare')
    await page.setViewportSize({ width: 900, height: 700 })
    await shot(page, 'parallel-04-compare-900')
    await page.setViewportSize({ width: 1280, height: 800 })

    await red.getByRole('button', { name: 'Adopt this run' }).click()
    const adopt = page.getByRole('dialog', { name: 'Adopt this run' })
    await expect(adopt.getByText('notes.md')).toBeVisible()
    await adopt.getByRole('radio', { name: 'Summarize', exact: true }).check()
    await shot(page, 'parallel-05-adopt')
    await adopt.getByRole('button', { name: 'Adopt' }).click()
    await expect(adopt).toBeHidden({ timeout: 20_000 })
    expect(notes()).toBe('v1\nred\n')
    expect(readFileSync(join(app.workspace, 'red.txt'), 'utf8')).toBe('red\n')
    // The run is on the conversation's path now; the others are summarized onto it.
    await expect(turn(page, 'Run 1: try red')).toHaveAccessibleName(/active path/)
    await expect(page.getByRole('group', { name: /^Branch summary/ })).toHaveCount(3)
    await turn(page, 'Run 1: try red').click()
    await expect(page.getByRole('button', { name: 'Adopt this run' })).toHaveCount(0)
    // A run left behind is still a run, named by its number and prompt, though summarized.
    await expect(branch(page, 'Run 3: try blue')).toHaveAccessibleName(/, parallel run, done$/)
    await shot(page, 'parallel-06-adopted')

    await page.getByRole('button', { name: /^Undo adopt run "try red"/i }).click()
    await expect.poll(notes).toBe('v2\n')
    expect(existsSync(join(app.workspace, 'red.txt'))).toBe(false)

    // A run drawn columns right of the turn it forks from (the summaries left on red's line
    // make it the longest), adopted with no summary: opened again, the first view holds it
    // with that turn, legible (compact cards where the columns between need it). At 900x700
    // the 360 px canvas cannot hold three columns' gap legibly: the run's turn alone.
    await page.getByRole('button', { name: 'Fit View' }).click()
    const blue = turn(page, 'Run 3: try blue')
    await blue.click()
    await page.getByRole('button', { name: 'Adopt this run' }).click()
    await adopt.getByRole('radio', { name: 'No summary' }).check()
    await adopt.getByRole('button', { name: 'Adopt' }).click()
    await expect(adopt).toBeHidden({ timeout: 20_000 })
    await expect(blue).toHaveAccessibleName(/active path/)
    for (const size of [
      { width: 1280, height: 800 },
      { width: 900, height: 700 }
    ]) {
      await page.setViewportSize(size)
      await page.reload()
      const inView = size.width === 1280 ? [turn(page, 'setup notes'), blue] : [blue]
      await expectLegibleInView(page, inView)
      await shot(page, `parallel-06-adopted-far-first-view-${size.width}`)
      await expectAccessible(page, `parallel-06-adopted-far-first-view-${size.width}`)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
  })
})

test.describe('parallel runs waiting for a place', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'rs-e2e-parallel-')), 'script.json')
    writeFileSync(script, JSON.stringify(SCRIPT))
    app = await serve({
      before: ({ home }) =>
        writeFileSync(join(home, 'settings.json'), JSON.stringify({ parallel: { maxRuns: 1 } })),
      args: ['--model', `scripted:${script}`, '--permission-mode', 'bypassPermissions']
    })
  })
  test.afterAll(async () => app?.stop())

  test('a run past parallel.maxRuns shows as queued at once, and stopped never starts', async ({
    page
  }) => {
    test.setTimeout(90_000)
    await page.goto(app.url)
    await send(page, 'setup notes')
    await send(page, 'second notes')
    await turn(page, 'setup notes').click()
    await page.getByRole('button', { name: 'Try in parallel…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Try in parallel' })
    await dialog.getByRole('radio', { name: 'One prompt per run' }).check()
    await dialog.getByRole('textbox', { name: 'Prompt for run 1' }).fill('slow run')
    await dialog.getByRole('textbox', { name: 'Prompt for run 2' }).fill('try blue')
    await dialog.getByRole('button', { name: 'Start 2 runs' }).click()

    const slow = branch(page, 'Run 1: slow run')
    const waiting = branch(page, 'Run 2: try blue')
    await expect(slow).toHaveAccessibleName(/running/, { timeout: 20_000 })
    await expect(waiting).toHaveAccessibleName(/queued/)
    await page.getByRole('button', { name: 'Fit View' }).click()
    await expect(
      page.getByRole('group', { name: /^Turn 2: Run 2: try blue/ })
    ).toHaveAccessibleName(/queued/)
    await shot(page, 'parallel-07-queued')

    await waiting.click()
    await page.getByRole('button', { name: 'Stop this run' }).click()
    await expect(waiting).toHaveAccessibleName(/stopped/)
    // The running one goes on: it was not the one stopped.
    await expect(slow).toHaveAccessibleName(/running/)
    await slow.click()
    await page.getByRole('button', { name: 'Stop this run' }).click()
    await expect(branch(page, 'Run 1: slow run')).toHaveAccessibleName(/stopped/, {
      timeout: 30_000
    })
    expect(existsSync(join(app.workspace, 'blue.txt'))).toBe(false)
  })
})
