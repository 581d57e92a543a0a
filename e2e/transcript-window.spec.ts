// A long branch's transcript is fetched by windows (issue 15 item 7): the page opens on its end,
// holds a bounded number of messages, fetches earlier ones as the reader scrolls up (letting the
// end go), and later ones again as they scroll back down.
import { mkdirSync } from 'node:fs'
import { expect, test, type Locator } from '@playwright/test'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { writeSyntheticSession } from '../test/session/synthetic'
import { serve, type ServedApp } from './support/serve'

/** The count a "Show earlier/later messages (N)" button gives, 0 when it is not there. */
async function countIn(button: Locator): Promise<number> {
  if ((await button.count()) === 0) return 0
  return Number(/\((\d+)\)/.exec((await button.textContent()) ?? '')?.[1] ?? NaN)
}

test.describe('a long transcript', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({
      // About 400 turns (the synthetic writer's ~2.6 KB each), as the session the studio opens.
      before: ({ workspace, home }) => {
        const dir = sessionsDir(home, workspace)
        mkdirSync(dir, { recursive: true })
        const file = `${dir}/${sessionFileName('2026-01-01T00:00:00.000Z', '01900000-0000-7000-8000-000000000000')}`
        writeSyntheticSession(file, 1024 * 1024, 1, { cwd: workspace })
      }
    })
  })
  test.afterAll(async () => app?.stop())

  test('fetches earlier messages as it scrolls up and later ones as it scrolls down', async ({
    page
  }) => {
    await page.goto(app.url)
    const messages = page.getByRole('region', { name: 'Messages' })
    const earlier = messages.getByRole('button', { name: /^Show earlier messages/ })
    const later = messages.getByRole('button', { name: /^Show later messages/ })
    const rows = messages.locator('article')
    // Opened on the branch's end: earlier messages wait on the server.
    await expect(earlier).toBeVisible()
    await expect(later).toHaveCount(0)
    const atOpen = await countIn(earlier)
    expect(atOpen).toBeGreaterThan(300)
    expect(await rows.count()).toBeLessThanOrEqual(300)

    // Scrolling up fetches earlier messages; past the most held, the end is let go.
    await expect(async () => {
      await messages.evaluate((list) => (list.scrollTop = 0))
      expect(await countIn(later)).toBeGreaterThan(0)
    }).toPass({ timeout: 20_000 })
    expect(await countIn(earlier)).toBeLessThan(atOpen)
    expect(await rows.count()).toBeLessThanOrEqual(300)

    // Scrolling back down fetches the later ones again, down to the end.
    const laterBefore = await countIn(later)
    await expect(async () => {
      await messages.evaluate((list) => (list.scrollTop = list.scrollHeight))
      expect(await countIn(later)).toBeLessThan(laterBefore)
    }).toPass({ timeout: 20_000 })
    await expect(async () => {
      await messages.evaluate((list) => (list.scrollTop = list.scrollHeight))
      await expect(later).toHaveCount(0, { timeout: 200 })
    }).toPass({ timeout: 20_000 })
  })
})
