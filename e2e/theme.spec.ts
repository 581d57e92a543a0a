// The theme in the browser: Light, Dark or System (the OS's scheme, followed as it changes),
// chosen in the header, remembered across a reload, followed by a second tab. Screenshots
// theme-*.png at 1280x800 and 900x700; axe in the dark theme.
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { expectAccessible } from './support/axe'
import { repoRoot, serve, type ServedApp } from './support/serve'
import { send, shot } from './support/ui'

const themeOf = (page: Page) => page.locator('html').getAttribute('data-theme')
const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor)

let app: ServedApp
test.beforeAll(async () => {
  app = await serve({ copyFrom: join(repoRoot, 'demo', 'workspace') })
})
test.afterAll(async () => app?.stop())

test('Light, Dark or System, remembered across a reload and followed by another tab', async ({
  page,
  context
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto(app.url)
  const theme = page.getByRole('banner').getByRole('combobox', { name: 'Theme' })
  await expect(theme).toHaveValue('system')
  await expect.poll(() => themeOf(page)).toBe('light')
  await send(page, 'add TIMEOUT = 30 to config.py')
  const light = await background(page)

  await theme.selectOption('Dark')
  await expect.poll(() => themeOf(page)).toBe('dark')
  expect(await background(page)).not.toBe(light)
  await expect(page.locator('.react-flow.dark')).toHaveCount(1)
  await shot(page, 'theme-01-dark-1280')
  await expectAccessible(page, 'the dark theme')
  await page.setViewportSize({ width: 900, height: 700 })
  await shot(page, 'theme-02-dark-900')
  await page.setViewportSize({ width: 1280, height: 800 })

  // Remembered: a reload opens dark, whatever the OS says.
  await page.reload()
  await expect(theme).toHaveValue('dark')
  await expect.poll(() => themeOf(page)).toBe('dark')

  // Another tab follows a change made in this one.
  const other = await context.newPage()
  await other.emulateMedia({ colorScheme: 'light' })
  await other.goto(app.url)
  await expect.poll(() => themeOf(other)).toBe('dark')
  await theme.selectOption('Light')
  await expect.poll(() => themeOf(other)).toBe('light')
  await other.close()

  // System follows the OS's scheme as it changes.
  await theme.selectOption('System')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => themeOf(page)).toBe('dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await expect.poll(() => themeOf(page)).toBe('light')
  await shot(page, 'theme-03-system-light-1280')
})
