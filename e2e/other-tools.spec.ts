// Every session a user has, in the app (issue 14): a workspace whose Claude Code (a real session
// with a rewind branch and its file-history backups, test/fixtures/claude-code), pi and oh-my-pi
// sessions show in the list with their badges; the Claude Code one opens in the explorer
// read-only, its files are restored from the backups by clicks and undone, a line another process
// appends shows up, and it is continued in Rewind Studio with the scripted model. Then workspaces:
// Open folder… switches with no restart; a second tab follows; hostile paths are refused. Then
// sub-agents: the runs a turn started fold into it, its badge ("2 agents", a button) opening them
// beside it, by click, key, the outline or a search; the last turn's in the first view at
// 1280x800 and 900x700 (issue 29; screenshots other-tools-09/10-subagents-*.png).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import {
  copyFixture,
  type FixtureName,
  readLines,
  relocateToWorkspace
} from '../test/foreign/cc-fixtures'
import { everyFormatHomes } from '../test/foreign/every-format-homes'
import { jsonl, ompTitleSlot, writeOmpSession, writePiSession } from '../test/sources/fake-homes'
import { expectAccessible } from './support/axe'
import { serve, type ServedApp } from './support/serve'
import { expectLegibleInView, send, shot, turn } from './support/ui'

/** A Claude home with the real rewind-parallel session of `workspace`, and pi / oh-my-pi homes. */
function fakeHomes() {
  const cc = relocateToWorkspace(copyFixture('rewind-parallel'))
  const base = dirname(cc.claudeHome)
  const homes = { pi: join(base, 'pi-agent'), 'oh-my-pi': join(base, 'omp-agent') }
  const ws = cc.workspace
  writePiSession(
    { homes } as Parameters<typeof writePiSession>[0],
    ws,
    [
      { type: 'session', version: 3, id: 'pi-1', timestamp: '2026-03-01T10:02:00.000Z', cwd: ws },
      {
        type: 'message',
        id: 'p1',
        parentId: null,
        timestamp: '2026-03-01T10:02:01.000Z',
        message: { role: 'user', content: [{ type: 'text', text: 'write the pi notes' }] }
      }
    ],
    '2026-03-01T10-02-00-000Z_pi-1.jsonl'
  )
  writeOmpSession(
    { homes } as Parameters<typeof writeOmpSession>[0],
    '-some-folder-1a2b3c4d',
    ompTitleSlot('Refactor importer') +
      jsonl([
        { type: 'session', version: 3, id: 'omp-1', timestamp: '2026-03-01T10:03:00Z', cwd: ws },
        {
          type: 'message',
          id: 'o1',
          parentId: null,
          timestamp: '2026-03-01T10:03:01.000Z',
          message: { role: 'user', content: 'split the importer' }
        }
      ]),
    '2026-03-01T10-03-00-000Z_omp-1.jsonl'
  )
  return {
    cc,
    env: {
      ...cc.env,
      REWIND_STUDIO_CLAUDE_HOME: cc.claudeHome,
      REWIND_STUDIO_PI_HOME: homes.pi,
      REWIND_STUDIO_OMP_HOME: homes['oh-my-pi']
    }
  }
}

/** Appends a prompt to the Claude Code transcript from another process, as Claude Code would. */
function appendPrompt(file: string, prompt: string): void {
  const lines = readLines(file)
  const last = lines.filter((l) => typeof l.uuid === 'string').at(-1)
  const template = lines.find((l) => l.type === 'user' && typeof l.message === 'object')
  const record = {
    ...template,
    uuid: '0b3c52a4-1d5e-4c8e-9a51-5f3a5d0c7e11',
    parentUuid: last?.uuid,
    timestamp: new Date().toISOString(),
    message: { role: 'user', content: prompt }
  }
  const child = spawnSync(
    process.execPath,
    [
      '-e',
      'require("fs").appendFileSync(process.argv[1], process.argv[2])',
      file,
      `${JSON.stringify(record)}\n`
    ],
    { encoding: 'utf8' }
  )
  expect(child.status).toBe(0)
}

const sessionList = (page: Page) => page.getByRole('navigation', { name: 'Sessions' })

/** The app on a Claude Code fixture's workspace, its Claude home the fixture's; `prepare` first. */
function serveClaudeFixture(
  name: FixtureName,
  prepare: (cc: ReturnType<typeof relocateToWorkspace>) => void = () => {}
): Promise<ServedApp> {
  const cc = relocateToWorkspace(copyFixture(name))
  prepare(cc)
  return serve({
    workspace: cc.workspace,
    home: cc.home,
    env: { ...cc.env, REWIND_STUDIO_CLAUDE_HOME: cc.claudeHome }
  })
}

/** Opens the page and, from the list, its Claude Code session. */
async function openClaudeSession(page: Page, app: ServedApp): Promise<void> {
  await page.goto(app.url)
  await sessionList(page)
    .getByRole('button', { name: /Claude Code/ })
    .click()
}

test.describe('other tools’ sessions', () => {
  let app: ServedApp
  let homes: ReturnType<typeof fakeHomes>
  test.beforeAll(async () => {
    homes = fakeHomes()
    app = await serve({ workspace: homes.cc.workspace, home: homes.cc.home, env: homes.env })
  })
  test.afterAll(async () => app?.stop())

  test('lists them with badges; a Claude Code session opens read-only, restores its files by clicks, undoes, goes live, continues here', async ({
    page,
    context
  }) => {
    const config = () => readFileSync(join(app.workspace, 'config.txt'), 'utf8')
    await page.goto(app.url)
    const list = sessionList(page)
    for (const badge of ['Claude Code', 'pi', 'oh-my-pi', 'Rewind Studio']) {
      await expect(list.getByText(badge, { exact: true })).toHaveCount(1)
    }
    await expect(list.getByRole('button', { name: /Refactor importer/ })).toBeVisible()
    await expect(list.getByRole('button', { name: /Claude Code.*4 prompts/ })).toBeVisible()
    await shot(page, 'other-tools-01-list')
    await expectAccessible(page, 'other-tools-01-list')

    // All projects: every project in the tools' homes, with its sessions per tool.
    await list.getByRole('button', { name: 'All projects' }).click()
    const project = list.getByRole('list', { name: 'All projects' }).getByRole('button')
    await expect(project).toHaveCount(1)
    await expect(project).toContainText(app.workspace)
    await expect(project).toContainText(/Claude Code 1, pi 1, oh-my-pi 1|Claude Code 1/)
    await shot(page, 'other-tools-01b-all-projects')
    await expectAccessible(page, 'other-tools-01b-all-projects')
    await list.getByRole('button', { name: 'This workspace' }).click()

    // Open the Claude Code session: both branches of its /rewind are drawn, nothing to type in.
    // A second tab on the same studio follows.
    const second = await context.newPage()
    await second.goto(app.url)
    await expect(second.getByRole('textbox', { name: 'Prompt' })).toBeEnabled()
    await list.getByRole('button', { name: /Claude Code/ }).click()
    await expect(second.getByRole('button', { name: 'Continue in Rewind Studio' })).toBeVisible()
    await expect(turn(second, 'instead write a readme')).toBeVisible()
    await second.close()
    await expect(turn(page, 'instead write a readme')).toBeVisible()
    await expect(turn(page, 'change the mode')).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Continue in Rewind Studio' })).toBeEnabled()

    // On a read-only session of another tool, only what works is offered.
    await turn(page, 'change the mode').click()
    const bar = page.getByLabel('Selected node')
    for (const verb of [
      'Rewind here',
      'Continue from here',
      'Switch to this branch',
      'Label',
      'Fork to new session'
    ]) {
      await expect(bar.getByRole('button', { name: verb })).toHaveCount(0)
    }
    await shot(page, 'other-tools-02-claude-session')
    await expectAccessible(page, 'other-tools-02-claude-session')

    // Restore files here: before "change the mode", config.txt said mode=a.
    expect(config()).toBe('mode=c\n')
    await bar.getByRole('button', { name: 'Restore files here' }).click()
    const dialog = page.getByRole('dialog', { name: 'Restore files here' })
    await expect(dialog).toContainText('Claude Code keeps only the content before each change')
    await expect(dialog.getByText('config.txt', { exact: true })).toBeVisible()
    await shot(page, 'other-tools-03-restore-preview')
    await expectAccessible(page, 'other-tools-03-restore-preview')
    // Twice in a row (a double click): one restore, which one Undo reverses.
    await dialog.getByRole('button', { name: 'Restore files' }).dblclick()
    await expect(dialog).toBeHidden()
    expect(config()).toBe('mode=a\n')
    expect(readFileSync(join(app.workspace, 'notes', 'one.txt'), 'utf8')).toBe('one\n')
    await expect(page.getByRole('status').first()).toContainText('restored from the backups')
    await shot(page, 'other-tools-04-restored')

    // Undo puts the files back as they were; the transcript file was never written.
    const transcript = readFileSync(homes.cc.file, 'utf8')
    await page.getByRole('button', { name: /^Undo / }).click()
    await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeDisabled()
    expect(config()).toBe('mode=c\n')
    expect(readFileSync(homes.cc.file, 'utf8')).toBe(transcript)

    // Compare says what the restore dialog says: the sides are backups taken before each change,
    // and the file the last turn wrote was never saved as it left it (issue 26, item 15).
    await expect(async () => {
      await turn(page, 'create the config').click()
      await expect(bar.locator('.selection-bar__title')).toHaveText('create the config', {
        timeout: 1000
      })
    }).toPass()
    await bar.getByRole('button', { name: 'Compare…' }).click()
    await turn(page, 'instead write a readme').click()
    await page.getByRole('button', { name: 'Compare with this node' }).click()
    const compare = page.getByRole('dialog', { name: 'Compare' })
    await expect(compare).toContainText('Claude Code keeps only the content before each change')
    await expect(compare).toContainText('README.md was never saved')
    await shot(page, 'other-tools-04b-compare-caveat')
    await expectAccessible(page, 'other-tools-04b-compare-caveat')
    await compare.getByRole('button', { name: 'Close' }).click()

    // Live: a prompt another process appends shows in the graph; the selection stays.
    // Selected first (a click while the graph still moves after the undo can miss the card):
    // the selection can only stay if it was made.
    await expect(async () => {
      await turn(page, 'make two notes').click()
      await expect(bar.locator('.selection-bar__title')).toHaveText('make two notes', {
        timeout: 1000
      })
    }).toPass()
    appendPrompt(homes.cc.file, 'one more thing')
    await expect(turn(page, 'one more thing')).toBeVisible()
    // Claude Code is at work on it (its file grew as we watched): running, not failed.
    await expect(turn(page, 'one more thing').locator('.node-badge--running')).toBeVisible()
    await expect(bar.locator('.selection-bar__title')).toHaveText('make two notes')
    // Its line in the list counts the new prompt too (issue 28 item 9).
    await expect(list.getByRole('button', { name: /Claude Code.*5 prompts/ })).toBeVisible()
    await shot(page, 'other-tools-05-live-append')

    // Continue in Rewind Studio from "instead write a readme": a session of ours, agent ready.
    await turn(page, 'instead write a readme').click()
    await page.getByRole('button', { name: 'Continue in Rewind Studio' }).click()
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toBeEnabled()
    await expect(turn(page, 'instead write a readme')).toBeVisible()
    await expect(turn(page, 'change the mode')).toHaveCount(0)
    await send(page, 'say hello')
    await expect(turn(page, 'say hello')).toBeVisible()
    expect(config()).toBe('mode=c\n')
    await shot(page, 'other-tools-06-continued')
    await expectAccessible(page, 'other-tools-06-continued')
  })
})

// Issue 26, item 8: opening the pi session in the list ended the host ("every tab shows
// 'connection closed'"). Every format the app reads opens in the served page, one after the
// other, with a second tab following: the graph is drawn each time and the host stays up.
test.describe('every format in the served app', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    const homes = everyFormatHomes()
    app = await serve({ workspace: homes.workspace, home: homes.home, env: homes.env })
  })
  test.afterAll(async () => app?.stop())

  test('ours, Claude Code, the corpus pi session and oh-my-pi each open with their graph, the host up', async ({
    page,
    context
  }) => {
    const closed = (p: Page) => p.getByText(/The connection to Rewind Studio closed/)
    await page.goto(app.url)
    await send(page, 'say hello')
    await expect(turn(page, 'say hello')).toBeVisible()
    const second = await context.newPage()
    await second.goto(app.url)
    const list = sessionList(page)
    // `turn`: one drawn in the graph, and the last prompt of the branch the transcript shows.
    const formats: { name: string; button: RegExp; turn: string }[] = [
      { name: 'claude-code', button: /^Claude Code/, turn: 'instead write a readme' },
      { name: 'pi', button: /^pi /, turn: 'yeah, do it all' },
      { name: 'oh-my-pi', button: /^oh-my-pi/, turn: 'split the importer' },
      { name: 'rewind-studio', button: /^Rewind Studio.*1 prompt/, turn: 'say hello' }
    ]
    for (const format of formats) {
      await list.getByRole('button', { name: format.button }).click()
      for (const tab of [page, second]) {
        await expect(turn(tab, format.turn)).toBeVisible()
        await expect(closed(tab)).toHaveCount(0)
      }
      // The transcript is this session's too: its last prompt, not the one shown before.
      await expect(
        page
          .getByRole('region', { name: 'Messages' })
          .getByRole('article', { name: 'You' })
          .filter({ hasText: format.turn })
      ).not.toHaveCount(0)
      expect(app.alive(), app.output()).toBe(true)
      await shot(page, `every-format-${format.name}`)
    }
    await expectAccessible(page, 'every-format-rewind-studio')
    await second.close()
  })
})

test.describe('workspaces', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({ files: { 'a.txt': 'first\n' } })
  })
  test.afterAll(async () => app?.stop())

  test('Open folder… switches the workspace with no restart; a second tab follows; hostile paths are refused', async ({
    page,
    context
  }) => {
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'rs-e2e-other-')))
    mkdirSync(join(other, 'project-b'))
    const target = join(other, 'project-b')
    await page.goto(app.url)
    const second = await context.newPage()
    await second.goto(app.url)
    await expect(second.locator('.header__workspace')).toHaveText(app.workspace)

    await page.getByRole('button', { name: 'Open folder…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Open folder' })
    const field = dialog.getByRole('textbox', { name: 'Folder' })

    // Hostile paths: the root, a .git, a folder that is not there: refused, nothing changes.
    await field.fill('/')
    await dialog.getByRole('button', { name: 'Open', exact: true }).click()
    await expect(page.getByText(/root of the file system/)).toBeVisible()
    await field.fill(`${app.workspace}/.git/`)
    await expect(dialog).toContainText('goes through a .git folder')
    await field.fill(join(other, 'missing'))
    await dialog.getByRole('button', { name: 'Open', exact: true }).click()
    await expect(page.getByText(/No folder .*missing/)).toBeVisible()
    await expect(page.locator('.header__workspace')).toHaveText(app.workspace)

    // Completion lists the folders under what is typed; choosing one and Open switches.
    await field.fill(`${other}/pro`)
    await dialog.getByRole('button', { name: target }).click()
    await expect(field).toHaveValue(`${target}/`)
    await shot(page, 'workspaces-01-open-folder')
    await expectAccessible(page, 'workspaces-01-open-folder')
    // Twice in a row: the second click finds the switch done.
    const open = dialog.getByRole('button', { name: 'Open', exact: true })
    await open.click()
    await expect(dialog).toBeHidden()
    await expect(page.locator('.header__workspace')).toHaveText(target)
    await expect(second.locator('.header__workspace')).toHaveText(target)

    // The studio works on the new folder: a turn there, and the recent list knows both folders.
    await send(page, 'hello there')
    await page.getByRole('button', { name: 'Open folder…' }).click()
    const recent = page.getByRole('region', { name: 'Recent workspaces' })
    await expect(
      recent.getByRole('button', { name: new RegExp(`^${target} · 1 session`) })
    ).toBeDisabled()
    await shot(page, 'workspaces-02-recent')
    await recent.getByRole('button', { name: new RegExp(`^${app.workspace} ·`) }).click()
    await expect(page.locator('.header__workspace')).toHaveText(app.workspace)
    await expect(second.locator('.header__workspace')).toHaveText(app.workspace)
  })
})

/** A sub-agent run's node, by the start of its title. */
const subagentNode = (page: Page, title: string) =>
  page.getByRole('group', { name: new RegExp(`^Sub-agent: ${title}`) })

test.describe('sub-agents', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serveClaudeFixture('compact-subagents')
  })
  test.afterAll(async () => app?.stop())

  test('a Claude Code session’s sub-agents fold into the turn that ran them, a badge opening them', async ({
    page
  }) => {
    await openClaudeSession(page, app)
    const subagent = (title: string) => subagentNode(page, title)
    const delegate = turn(page, 'delegate the survey')
    const badge = delegate.getByRole('button', { name: '2 agents', exact: true })
    const outline = page.getByRole('tree', { name: 'Branch outline' })
    const row = (title: string) => outline.getByRole('treeitem', { name: new RegExp(`^${title}`) })
    await page.getByRole('button', { name: 'Fit View' }).click()
    // Folded at first: the turn's badge counts them, the outline marks their rows folded.
    await expect(delegate).toHaveAccessibleName(/, 2 agents folded,/)
    await expect(badge).toHaveAttribute('aria-expanded', 'false')
    await expect(subagent('survey A')).toHaveCount(0)
    await expect(row('survey A')).toHaveAccessibleName(/sub-agent, folded/)
    // The conversation stands at the last turn, not in a sub-agent's run.
    await expect(page.getByLabel('Selected node').locator('.selection-bar__title')).toHaveText(
      'last words'
    )
    await shot(page, 'other-tools-07-subagents-folded')
    await expectAccessible(page, 'other-tools-07-subagents-folded')

    // A click on the badge draws them beside the turn; another folds them again.
    await badge.click()
    await expect(badge).toHaveAttribute('aria-expanded', 'true')
    await expect(subagent('survey A')).toBeVisible()
    await expect(subagent('survey B')).toBeVisible()
    await expect(row('survey A')).not.toHaveAccessibleName(/folded/)
    await page.getByRole('button', { name: 'Fit View' }).click()
    await shot(page, 'other-tools-07-subagents')
    await expectAccessible(page, 'other-tools-07-subagents')
    await badge.click()
    await expect(subagent('survey A')).toHaveCount(0)
    await expect(turn(page, 'edit the survey')).toBeVisible()

    // By the keyboard: the selected turn's badge is the next Tab stop after it.
    await delegate.click()
    await page.keyboard.press('Tab')
    await expect(badge).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(subagent('survey B')).toBeVisible()
    // The bar says the same, and folds them too.
    const bar = page.getByLabel('Selected node')
    await expect(bar.locator('.selection-bar__title')).toHaveText('delegate the survey')
    await bar.getByRole('button', { name: 'Hide 2 agents' }).click()
    await expect(subagent('survey B')).toHaveCount(0)

    // A run chosen in the outline opens its fold (a search result goes the same way: reveal).
    await row('survey B').click()
    await expect(subagent('survey B')).toBeFocused()
    await expect(subagent('survey A')).toBeVisible()

    // A sub-agent's node offers nothing that needs a point of the conversation.
    await subagent('survey B').click()
    await expect(bar.getByRole('button', { name: 'Compare…' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Continue in Rewind Studio' })).toBeDisabled()
  })
})

test.describe('the runs the last turn started', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    // Claude Code ran two sub-agents at once for the session's one prompt.
    app = await serveClaudeFixture('subagents-progress-2.1.63')
  })
  test.afterAll(async () => app?.stop())

  for (const size of [
    { width: 1280, height: 800 },
    { width: 900, height: 700 }
  ]) {
    test(`fold into their turn in the first view at ${size.width}x${size.height}, and open beside it`, async ({
      page
    }) => {
      await page.setViewportSize(size)
      await openClaudeSession(page, app)
      const delegate = turn(page, 'delegate the survey')
      // The first view frames the turns; the runs are the turn's badge.
      await expectLegibleInView(page, [delegate])
      await expect(subagentNode(page, 'survey A')).toHaveCount(0)
      const badge = delegate.getByRole('button', { name: '2 agents', exact: true })
      await expect(badge).toBeVisible()
      const folded = `other-tools-09-subagents-first-view-${size.width}`
      await shot(page, folded)
      await expectAccessible(page, folded)
      await badge.click()
      await expect(subagentNode(page, 'survey A')).toBeVisible()
      await expect(subagentNode(page, 'survey B')).toBeVisible()
      const opened = `other-tools-10-subagents-opened-${size.width}`
      await shot(page, opened)
      await expectAccessible(page, opened)
    })
  }
})

test.describe('a sub-agent’s own sub-agent', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serveClaudeFixture('nested-subagents')
  })
  test.afterAll(async () => app?.stop())

  test('folds into the node of the sub-agent that ran it, folded away with it', async ({
    page
  }) => {
    await openClaudeSession(page, app)
    const subagent = (title: string) => subagentNode(page, title)
    const nest = turn(page, 'delegate the nest')
    await expect(subagent('outer agent')).toHaveCount(0)
    await nest.getByRole('button', { name: '1 agent', exact: true }).click()
    // The outer one is drawn beside its turn, its own sub-agent folded into it.
    await expect(subagent('outer agent')).toBeVisible()
    await expect(subagent('inner agent')).toHaveCount(0)
    await subagent('outer agent').getByRole('button', { name: '1 agent', exact: true }).click()
    await expectLegibleInView(page, [nest, subagent('outer agent'), subagent('inner agent')])
    await shot(page, 'other-tools-08-nested-subagents')
    await expectAccessible(page, 'other-tools-08-nested-subagents')

    // The outer sub-agent folds its own away; the session's turn folds both.
    await subagent('outer agent').click()
    const bar = page.getByLabel('Selected node')
    await bar.getByRole('button', { name: 'Hide 1 agent' }).click()
    await expect(subagent('inner agent')).toHaveCount(0)
    await expect(subagent('outer agent')).toBeVisible()
    await bar.getByRole('button', { name: 'Show 1 agent' }).click()
    await expect(subagent('inner agent')).toBeVisible()
    await nest.click()
    await bar.getByRole('button', { name: 'Hide 1 agent' }).click()
    await expect(subagent('outer agent')).toHaveCount(0)
    await expect(subagent('inner agent')).toHaveCount(0)
  })
})

test.describe('a backup Claude Code lost', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    // Every backup of notes/two.txt is gone from Claude Code's file-history.
    app = await serveClaudeFixture('rewind-parallel', (cc) => {
      for (const line of readLines(cc.file)) {
        const backups = (
          line.snapshot as { trackedFileBackups?: Record<string, unknown> } | undefined
        )?.trackedFileBackups
        const name = (backups?.['notes/two.txt'] as { backupFileName?: string | null } | undefined)
          ?.backupFileName
        const file = join(cc.claudeHome, 'file-history', cc.sessionId, name ?? '')
        if (typeof name === 'string' && existsSync(file)) rmSync(file)
      }
    })
  })
  test.afterAll(async () => app?.stop())

  test('is named in the preview and after the restore, which restores the rest', async ({
    page
  }) => {
    await openClaudeSession(page, app)
    await turn(page, 'change the mode').click()
    await page
      .getByLabel('Selected node')
      .getByRole('button', { name: 'Restore files here' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Restore files here' })
    const missing = dialog.getByRole('alert').filter({ hasText: 'No backup, left as they are' })
    await expect(missing).toContainText('notes/two.txt')
    await shot(page, 'other-tools-08-missing-backup')
    await expectAccessible(page, 'other-tools-08-missing-backup')
    await dialog.getByRole('button', { name: 'Restore files' }).click()
    await expect(dialog).toBeHidden()
    await expect(
      page.getByText(/left as they are \(no backup\): notes\/two\.txt/).first()
    ).toBeVisible()
    expect(readFileSync(join(app.workspace, 'config.txt'), 'utf8')).toBe('mode=a\n')
    expect(existsSync(join(app.workspace, 'notes', 'two.txt'))).toBe(false)
  })
})
