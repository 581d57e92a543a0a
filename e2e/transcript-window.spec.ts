// A long branch's transcript is fetched by windows (issue 15 item 7): the page opens on its end,
// holds a bounded number of messages, fetches earlier ones as the reader scrolls up (letting the
// end go), and later ones again as they scroll back down, even when the reader reached the end
// while earlier ones were still on their way; an answer for a session left meanwhile is dropped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { sessionFileName, sessionsDir } from '../src/core/session/paths'
import { writeSyntheticSession } from '../test/session/synthetic'
import { expectAccessible } from './support/axe'
import { serve, type ServedApp } from './support/serve'
import { shot } from './support/ui'

/**
 * The count a "Show earlier/later messages (N)" button gives, 0 when it is not there. Read in one
 * go: a count, then a text, hung on a button that went in between (the text waits for it).
 */
async function countIn(button: Locator): Promise<number> {
  const [text] = await button.allTextContents()
  return text === undefined ? 0 : Number(/\((\d+)\)/.exec(text)?.[1] ?? NaN)
}

/**
 * The page's WebSocket to the host, passed through; `holdNext` holds back the answer to the next
 * transcript range asked until `release`: a slow host, on demand.
 */
async function rangeAnswers(page: Page) {
  const asked: { before: number; after: number }[] = []
  const ranges = new Set<number>()
  const unanswered = new Set<number>()
  let holdNext = false
  let holding: number | null = null
  let held: (() => void) | null = null
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer()
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { id: number; channel: string; args: never }
      if (frame.channel === 'session:transcriptRange') {
        asked.push(frame.args)
        ranges.add(frame.id)
        unanswered.add(frame.id)
        if (holdNext) [holding, holdNext] = [frame.id, false]
      }
      server.send(message)
    })
    server.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { id?: number }
      if (frame.id === undefined || !ranges.has(frame.id)) return ws.send(message)
      const answer = () => {
        unanswered.delete(frame.id as number)
        ws.send(message)
      }
      if (frame.id === holding) held = answer
      else answer()
    })
  })
  return {
    asked,
    unanswered: () => unanswered.size,
    holdNext: () => (holdNext = true),
    release: () => {
      holding = null
      held?.()
    }
  }
}

/** The path of a session of `workspace` in the data home, made on `day` (its folder made). */
function sessionPath(home: string, workspace: string, day: string, id: string): string {
  const dir = sessionsDir(home, workspace)
  mkdirSync(dir, { recursive: true })
  return `${dir}/${sessionFileName(`${day}T00:00:00.000Z`, id)}`
}

/** Scrolls the list to `top` and resolves once its scroll event was handled. */
const scrollTo = (list: Locator, top: 'start' | 'end') =>
  list.evaluate(
    (element, to) =>
      new Promise<void>((done) => {
        element.addEventListener('scroll', () => done(), { once: true })
        element.scrollTop = to === 'start' ? 0 : element.scrollHeight
      }),
    top
  )

test.describe('a long transcript', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({
      // About 400 turns (the synthetic writer's ~2.6 KB each), as the session the studio opens.
      before: ({ workspace, home }) => {
        const file = sessionPath(
          home,
          workspace,
          '2026-01-01',
          '01900000-0000-7000-8000-000000000000'
        )
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
    await messages.evaluate((list) => (list.scrollTop = list.scrollHeight / 2))
    await shot(page, 'transcript-window-01-middle')
    await expectAccessible(page, 'transcript-window-01-middle')

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

  test('reaching the end while earlier messages are on their way fetches the later ones', async ({
    page
  }) => {
    const answers = await rangeAnswers(page)
    await page.goto(app.url)
    const messages = page.getByRole('region', { name: 'Messages' })
    const later = messages.getByRole('button', { name: /^Show later messages/ })
    await expect(messages.getByRole('button', { name: /^Show earlier messages/ })).toBeVisible()
    // Up until the end is let go, then every answer in and the reader away from the start.
    await expect(async () => {
      await messages.evaluate((list) => (list.scrollTop = 0))
      expect(await countIn(later)).toBeGreaterThan(0)
    }).toPass({ timeout: 20_000 })
    await expect
      .poll(async () =>
        answers.unanswered() === 0 ? await messages.evaluate((list) => list.scrollTop) : 0
      )
      .toBeGreaterThan(600)

    // Up: earlier messages asked for, their answer held; down to the end meanwhile.
    answers.holdNext()
    const asked = answers.asked.length
    await scrollTo(messages, 'start')
    await expect.poll(() => answers.asked.length).toBe(asked + 1)
    expect(answers.asked[asked]).toMatchObject({ before: 100, after: 0 })
    const laterBefore = await countIn(later)
    await scrollTo(messages, 'end')
    const lastRead = await messages.locator('article').last().getAttribute('data-uuid')

    // The answer lands; with no scroll after it, the later messages come, and the ones scrolled
    // to stay (the earlier answer would have let them go).
    answers.release()
    await expect.poll(() => countIn(later)).toBeLessThan(laterBefore)
    await expect(messages.locator(`article[data-uuid="${lastRead}"]`)).toHaveCount(1)
    await shot(page, 'transcript-window-02-later-after-held-earlier')
  })
})

/** A synthetic session's ids are the same in every file: another session's, by their prefix. */
const OPENED = '01900000-0000-7000-8001-'
const OTHER = '01900000-0000-7000-8000-'

test.describe('two sessions of the same shape', () => {
  let app: ServedApp
  test.beforeAll(async () => {
    app = await serve({
      // The same branch twice under other ids: a window of one has the other's indices. The
      // later one is the session the studio opens.
      before: ({ workspace, home }) => {
        const other = sessionPath(home, workspace, '2026-01-01', `${OTHER}000000000000`)
        writeSyntheticSession(other, 1024 * 1024, 1, { cwd: workspace })
        const opened = sessionPath(home, workspace, '2026-01-02', `${OPENED}000000000000`)
        writeFileSync(opened, readFileSync(other, 'utf8').replaceAll(OTHER, OPENED))
      }
    })
  })
  test.afterAll(async () => app?.stop())

  test('an answer asked for in the session left is not joined to the one opened', async ({
    page
  }) => {
    const answers = await rangeAnswers(page)
    await page.goto(app.url)
    const messages = page.getByRole('region', { name: 'Messages' })
    const earlier = messages.getByRole('button', { name: /^Show earlier messages/ })
    const rows = (prefix: string) => messages.locator(`article[data-uuid^="${prefix}"]`)
    await expect(earlier).toBeVisible()
    await expect(rows(OPENED).first()).toBeVisible()
    const atOpen = await countIn(earlier)

    // Up in the first session: its earlier messages asked for, the answer held; the other
    // session opened meanwhile, on the same indices, and scrolled up too.
    answers.holdNext()
    const asked = answers.asked.length
    await scrollTo(messages, 'start')
    await expect.poll(() => answers.asked.length).toBe(asked + 1)
    await page
      .getByRole('list', { name: 'Sessions of this workspace' })
      .locator('button:not([aria-current])')
      .click()
    await expect(rows(OPENED)).toHaveCount(0)
    await expect(rows(OTHER).first()).toBeVisible()
    await expect.poll(() => countIn(earlier)).toBe(atOpen)
    await scrollTo(messages, 'start')

    // The first session's answer lands: dropped, and the other's earlier messages asked for.
    answers.release()
    await expect.poll(() => countIn(earlier)).toBeLessThan(atOpen)
    await expect(rows(OPENED)).toHaveCount(0)
  })
})
