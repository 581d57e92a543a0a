// The demo workspace's scripted turns as several specs start from them: a served copy with some
// prompts already sent, and the two branches a rewind leaves.
import { join } from 'node:path'
import { expect, type Browser, type Page } from '@playwright/test'
import { repoRoot, serve, type ServedApp } from './serve'
import { rewindHere, send, turn } from './ui'

export const demoWorkspace = join(repoRoot, 'demo', 'workspace')

/** A served copy of the demo workspace in which `prompts` were sent, from a page closed after. */
export async function serveDemoAfter(browser: Browser, prompts: string[]): Promise<ServedApp> {
  const app = await serve({ copyFrom: demoWorkspace })
  const page = await browser.newPage()
  await page.goto(app.url)
  for (const prompt of prompts) await send(page, prompt)
  await page.close()
  return app
}

/**
 * Two branches of the demo: two prompts, a rewind of the second (code and conversation), and
 * another prompt from there. The left branch ends at "also remove DEBUG…", the active one at
 * "only create utils.py…".
 */
export async function twoBranches(page: Page): Promise<void> {
  await send(page, 'add TIMEOUT = 30 to config.py')
  await send(page, 'also remove DEBUG and create utils.py')
  await rewindHere(page, 'also remove DEBUG')
  await send(page, 'only create utils.py and keep DEBUG')
  await expect(turn(page, 'only create utils.py')).toBeVisible()
}
