// Sharing a session through git in the served app, as two people do it: Alice's app pushes with
// Share… (its preview first: what is sent, what is masked), Bob's app lists it under Shared
// sessions, opens it read-only and continues from a node of it with that node's files. Real
// git: a bare repository as the remote, two clones with a data home each. Each step saves a
// screenshot in e2e/screenshots/ and passes the accessibility check.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { twoMachines, userGitState } from '../test/support/git-machines'
import { expectAccessible } from './support/axe'
import { repoRoot, serve } from './support/serve'
import { promptField, send, shot, turn } from './support/ui'

const KEY = 'sk-ant-api03-' + 'Rt5'.repeat(30)

test('Share… previews and pushes; Shared sessions opens it read-only on another clone; Continue from here brings its files', async ({
  page
}) => {
  // Two apps, two pushes' worth of git, ten screens checked in two themes.
  test.setTimeout(240_000)
  const { a, b } = twoMachines({
    'config.py': readFileSync(join(repoRoot, 'demo/workspace/config.py'), 'utf8')
  })
  // Alice.
  const alice = await serve({ workspace: a.workspace, home: a.home })
  try {
    await page.goto(alice.url)
    // The transcript shows the key masked, so the turn is waited for by its end, not its text.
    await promptField(page).fill(`add TIMEOUT = 30 to config.py (the API key is ${KEY})`)
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(async () => {
      const allow = page.getByRole('button', { name: 'Allow' })
      if (await allow.isVisible()) await allow.click()
      await expect(turn(page, 'add TIMEOUT')).toBeVisible({ timeout: 100 })
      await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden({ timeout: 100 })
    }).toPass({ timeout: 20_000 })
    await send(page, 'also remove DEBUG and create utils.py')
    await page.getByRole('button', { name: 'Share…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share through git' })
    await expect(dialog.getByRole('region', { name: 'What is sent' })).toContainText(
      'The whole tree: 2 turns, 2 files'
    )
    await expect(dialog).toContainText('First push of this session')
    const redactions = dialog.getByRole('region', { name: 'Redaction preview' })
    await expect(redactions).toContainText('Masked before it is sent (1)')
    await expect(redactions).toContainText(`sk-ant-…(${KEY.length} chars, masked)`)
    await expect(dialog).not.toContainText(KEY)
    await shot(page, 'share-01-preview')
    await expectAccessible(page, 'share-01-preview')
    // The active branch alone: asked again, shown for that choice.
    await dialog.getByRole('radio', { name: 'The active branch' }).check()
    await expect(dialog.getByRole('region', { name: 'What is sent' })).toContainText('One branch')
    await dialog.getByRole('radio', { name: 'The whole tree' }).check()
    await expect(dialog.getByRole('region', { name: 'What is sent' })).toContainText(
      'The whole tree'
    )
    await page.setViewportSize({ width: 900, height: 700 })
    await shot(page, 'share-01b-preview-900')
    await page.setViewportSize({ width: 1280, height: 800 })
    await dialog.getByRole('button', { name: 'Push' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByRole('status').first()).toContainText('Shared to origin')
    // Again: only what is new goes (here the new push's share.json).
    await page.getByRole('button', { name: 'Share…' }).click()
    await expect(dialog).toContainText('New since the last push: 1 object')
    await dialog.getByRole('button', { name: 'Push' }).click()
    await expect(dialog).toBeHidden()
  } finally {
    await alice.stop()
  }

  // Bob.
  const bobGit = userGitState(b.workspace)
  const before = readFileSync(join(b.workspace, 'config.py'), 'utf8')
  const bob = await serve({ workspace: b.workspace, home: b.home })
  try {
    await page.goto(bob.url)
    const sessions = page.getByRole('navigation', { name: 'Sessions' })
    await sessions.getByRole('button', { name: 'Shared' }).click()
    const shared = sessions.getByRole('list', { name: 'Sessions shared on origin' })
    const item = shared.getByRole('button', { name: /add TIMEOUT = 30 to config\.py/ })
    await expect(item).toContainText('by Alice <alice@example.com>')
    await expect(item).toContainText('2 turns')
    await expect(shared).not.toContainText(KEY)
    await shot(page, 'share-02-shared-list')
    await page.setViewportSize({ width: 900, height: 700 })
    await shot(page, 'share-02b-shared-list-900')
    await page.setViewportSize({ width: 1280, height: 800 })
    await expectAccessible(page, 'share-02-shared-list')

    await item.click()
    await expect(
      page.getByRole('alert').filter({ hasText: 'Read-only: pulled from a git remote' })
    ).toBeVisible()
    await expect(turn(page, 'add TIMEOUT')).toBeVisible()
    await expect(turn(page, 'also remove DEBUG')).toBeVisible()
    await expect(page.getByText(/Shared by Alice <alice@example.com> on/).first()).toBeVisible()
    await expect(page.getByRole('button', { name: 'Share…' })).toBeDisabled()
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toBeDisabled()
    expect(readFileSync(join(b.workspace, 'config.py'), 'utf8')).toBe(before)
    expect(userGitState(b.workspace)).toEqual(bobGit)
    await shot(page, 'share-03-opened-read-only')
    await expectAccessible(page, 'share-03-opened-read-only')

    await turn(page, 'add TIMEOUT').click()
    await page.getByRole('button', { name: 'Continue from here' }).click()
    const cont = page.getByRole('dialog', { name: 'Continue from here' })
    await expect(cont.getByText('config.py', { exact: true })).toBeVisible()
    await shot(page, 'share-04-continue-preview')
    await expectAccessible(page, 'share-04-continue-preview')
    await cont.getByRole('button', { name: 'Continue' }).click()
    await expect(cont).toBeHidden()
    await expect(page.getByRole('alert').filter({ hasText: 'Read-only' })).toHaveCount(0)
    await expect(turn(page, 'add TIMEOUT')).toBeVisible()
    await expect(turn(page, 'also remove DEBUG')).toHaveCount(0)
    expect(readFileSync(join(b.workspace, 'config.py'), 'utf8')).toContain('TIMEOUT = 30')
    await shot(page, 'share-05-continued')
    await expectAccessible(page, 'share-05-continued')

    // Undone as any restore.
    await page.getByRole('button', { name: /^Undo / }).click()
    await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeDisabled()
    expect(readFileSync(join(b.workspace, 'config.py'), 'utf8')).toBe(before)
  } finally {
    await bob.stop()
  }
})
