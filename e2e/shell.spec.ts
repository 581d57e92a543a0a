// The desktop shell's promises over the browser transport: the token guards everything, the page
// shows the app, and a malformed payload is refused with a typed error.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { repoRoot, type ServedApp, screenshotDir, serve } from './support/serve'

let app: ServedApp

test.beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true })
  app = await serve({ copyFrom: join(repoRoot, 'demo', 'workspace') })
})

test.afterAll(async () => {
  await app?.stop()
})

test('requests without the token are refused', async ({ request }) => {
  expect((await request.get(`${app.origin}/`)).status()).toBe(403)
  expect((await request.get(`${app.origin}/index.html?token=nope`)).status()).toBe(403)
})

test('the token URL shows the app on the workspace, driven by the demo model', async ({ page }) => {
  await page.goto(app.url)
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  await expect(page.getByText(app.workspace)).toBeVisible()
  await page.screenshot({ path: join(screenshotDir, 'shell-01-opened.png') })
  await expectAccessible(page, 'shell-01-opened')
})

test('follows the OS dark theme and fits 1280x800 without horizontal scrolling', async ({
  page
}) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto(app.url)
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number)
  expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(3 * 100)
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth
  )
  expect(overflow).toBe(0)
  await page.screenshot({ path: join(screenshotDir, 'shell-02-dark.png') })
  await expectAccessible(page, 'shell-02-dark', 'dark')
})

test('the side panel is resized by dragging or by the keyboard, within bounds, and remembered', async ({
  page
}) => {
  await page.goto(app.url)
  const side = page.getByRole('region', { name: 'Selected branch' })
  const handle = page.getByRole('separator', { name: 'Width of the side panel' })
  await expect(handle).toHaveAttribute('aria-valuenow', '440')
  const before = (await side.boundingBox())?.width ?? 0

  // Dragging the handle 120 px to the left widens the column by as much.
  const box = await handle.boundingBox()
  const x = (box?.x ?? 0) + (box?.width ?? 0) / 2
  const y = (box?.y ?? 0) + 200
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x - 60, y)
  await page.mouse.move(x - 120, y)
  await page.mouse.up()
  await expect(handle).toHaveAttribute('aria-valuenow', '560')
  expect(Math.round((await side.boundingBox())?.width ?? 0)).toBe(Math.round(before + 120))

  // The keyboard: arrows by 16 px, Home to the narrowest; never past the bounds.
  await handle.focus()
  await page.keyboard.press('ArrowRight')
  await expect(handle).toHaveAttribute('aria-valuenow', '544')
  await page.keyboard.press('Home')
  await expect(handle).toHaveAttribute('aria-valuenow', '320')
  await page.keyboard.press('ArrowRight')
  await expect(handle).toHaveAttribute('aria-valuenow', '320')
  await page.keyboard.press('End')
  const widest = Number(await handle.getAttribute('aria-valuenow'))
  expect(widest).toBe(1280 - 210 - 360)
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth
  )
  expect(overflow).toBe(0)

  // A reload keeps the width.
  await page.reload()
  await expect(page.getByRole('separator', { name: 'Width of the side panel' })).toHaveAttribute(
    'aria-valuenow',
    String(widest)
  )
  await page.screenshot({ path: join(screenshotDir, 'shell-04-wide-side-panel.png') })
  await expectAccessible(page, 'shell-04-wide-side-panel')
})

test('a malformed payload over the WebSocket gets a typed error', async ({ page }) => {
  await page.goto(app.url)
  const token = new URL(app.url).searchParams.get('token')
  const reply = await page.evaluate(async (wsToken) => {
    const socket = new WebSocket(`ws://${window.location.host}/ws?token=${wsToken}`)
    await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }))
    const answer = new Promise<string>((resolve) =>
      socket.addEventListener('message', (m) => resolve(String(m.data)), { once: true })
    )
    socket.send(JSON.stringify({ id: 9, channel: 'rewind:apply', args: { checkpointUuid: 42 } }))
    return JSON.parse(await answer)
  }, token)
  expect(reply.id).toBe(9)
  expect(reply.reply.ok).toBe(false)
  expect(reply.reply.error.code).toBe('invalid_payload')
  expect(reply.reply.error.message).toContain('checkpointUuid')
})

test('says so when the web host goes away, and does not hang on the next request', async ({
  page
}) => {
  const own = await serve({ copyFrom: join(repoRoot, 'demo', 'workspace') })
  await page.goto(own.url)
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  await own.stop()
  // The notice itself: a panel still loading when the host went says so too, in its own words.
  await expect(
    page.getByText('The connection to Rewind Studio closed. Reload the page to reconnect.', {
      exact: true
    })
  ).toBeVisible()
  await page.getByRole('textbox', { name: 'Prompt' }).fill('add TIMEOUT = 30 to config.py')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByText('The connection to Rewind Studio closed').first()).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(
    'add TIMEOUT = 30 to config.py'
  )
  await page.screenshot({ path: join(screenshotDir, 'shell-03-disconnected.png') })
  await expectAccessible(page, 'shell-03-disconnected')
})

test('Settings says what Bash can do and saves the Bash sandbox', async ({ page }) => {
  const own = await serve({ copyFrom: join(repoRoot, 'demo', 'workspace') })
  try {
    await page.goto(own.url)
    await page.getByRole('button', { name: 'Settings' }).click()
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    const sandbox = dialog.getByRole('checkbox', { name: 'Run Bash in a sandbox' })
    await expect(sandbox).not.toBeChecked()
    await expect(dialog.getByText(/Off, Bash runs with your rights/)).toBeVisible()
    await sandbox.check()
    await page.screenshot({ path: join(screenshotDir, 'shell-04-bash-sandbox.png') })
    await dialog.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Settings saved')).toBeVisible()
    const saved = JSON.parse(readFileSync(join(own.home, 'settings.json'), 'utf8')) as unknown
    expect(saved).toMatchObject({ bash: { sandbox: true } })
  } finally {
    await own.stop()
  }
})
