// A cold start over many sessions, as a user meets it: 2,000 sessions of our format in the data
// home and no index yet. The page is shown while the host builds the index in steps, the session
// list fills under "Indexing sessions: N of M", and once every session is listed the status goes.
// Saves a screenshot of the list while it fills (e2e/screenshots/session-list-filling.png).
import { expect, test } from '@playwright/test'
import { writeManySessions } from '../test/support/many-sessions'
import { expectAccessible } from './support/axe'
import { serve } from './support/serve'
import { promptField, shot } from './support/ui'

const SESSIONS = 2_000

test('a cold start shows the page at once and fills the session list as the index is built', async ({
  page
}) => {
  test.setTimeout(180_000)
  const app = await serve({
    // 100 KB each: a build of some seconds on this machine, so the filling can be seen.
    before: ({ workspace, home }) => writeManySessions(home, workspace, SESSIONS, 100 * 1024)
  })
  try {
    await page.goto(app.url)
    // The page is there while the index is still being built.
    await expect(promptField(page)).toBeVisible()
    const sessions = page.getByRole('navigation', { name: 'Sessions' })
    const indexing = sessions.getByRole('status').filter({ hasText: 'Indexing sessions' })
    await expect(indexing).toHaveText(/^Indexing sessions: [\d,]+ of 2,000$/)
    await expect(sessions.getByRole('progressbar', { name: 'Session files indexed' })).toBeVisible()
    // Filling: some sessions listed already under the status, not yet all of them. The count is
    // read between two sightings of the status: the list goes from filling to filled only once.
    const list = sessions.getByRole('list', { name: 'Sessions of this workspace' })
    const listedWhileFilling = async () => {
      if (!(await indexing.isVisible())) return false
      const listed = await list.getByRole('listitem').count()
      return listed > 0 && listed < SESSIONS && (await indexing.isVisible())
    }
    await expect.poll(listedWhileFilling, { timeout: 60_000 }).toBe(true)
    await shot(page, 'session-list-filling')
    // Filled: every session, and the status gone.
    await expect(list.getByRole('listitem')).toHaveCount(SESSIONS, { timeout: 120_000 })
    await expect(indexing).toBeHidden()
    await expectAccessible(page, 'the session list, filled')
  } finally {
    await app.stop()
  }
})
