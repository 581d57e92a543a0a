// What the specs do on the page, as a user does it: find a turn by its accessible name, send a
// prompt and answer the agent's questions, save a screenshot to look at.
import { join } from 'node:path'
import { expect, type Locator, type Page } from '@playwright/test'
import { screenshotDir } from './serve'

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(screenshotDir, `${name}.png`) })

export const promptField = (page: Page) => page.getByRole('textbox', { name: 'Prompt' })

/** `text` matched as itself in a RegExp (a title holding `(` or `?`). */
export const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A turn node of the graph ("Turn 2: <title>, …"), by the start of its title. */
export const turn = (page: Page, title: string) =>
  page.getByRole('group', { name: new RegExp(`^Turn \\d+: ${title}`) })

/**
 * The node is in the canvas and not under the minimap (where a click on it would land there);
 * a canvas too small for the minimap draws none (graph/clear-view.ts).
 */
export async function expectClearOfMinimap(page: Page, node: Locator): Promise<void> {
  await expect(async () => {
    const box = (await node.boundingBox())!
    const minimap = page.locator('.graph-minimap')
    // boundingBox waits for an element that is there: none is asked of a canvas without one.
    const map = (await minimap.count()) === 0 ? null : await minimap.boundingBox()
    const canvas = (await page.locator('.graph-canvas').boundingBox())!
    const apart =
      map === null ||
      box.x + box.width <= map.x ||
      box.x >= map.x + map.width ||
      box.y >= map.y + map.height ||
      box.y + box.height <= map.y
    expect(apart, 'the node is clear of the minimap').toBe(true)
    expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height)
  }).toPass({ timeout: 5_000 })
}

/** The element's text is all drawn: no ellipsis, no line clamped away, nothing scrolled off. */
export async function expectWhole(element: Locator): Promise<void> {
  await expect(element).toBeVisible()
  const sizes = await element.evaluate((e) => [
    e.scrollWidth,
    e.clientWidth,
    e.scrollHeight,
    e.clientHeight
  ])
  const [scrollWidth, width, scrollHeight, height] = sizes as [number, number, number, number]
  const cut = scrollWidth > width + 1 || scrollHeight > height + 1
  expect(cut, `${await element.textContent()} is drawn whole (${sizes.join(', ')})`).toBe(false)
}

/** Rewinds the code and the conversation to before a turn (by the start of its title). */
export async function rewindHere(page: Page, title: string): Promise<void> {
  await turn(page, title).click()
  await page.getByRole('button', { name: 'Rewind here' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('radio', { name: 'Code and conversation' }).check()
  await dialog.getByRole('button', { name: 'Restore' }).click()
  // The dialog closes once the main process has answered: the files are back by then.
  await expect(dialog).toBeHidden()
}

/** Types a prompt, sends it, allows what the agent asks for, and waits for the turn to end. */
export async function send(page: Page, prompt: string): Promise<void> {
  // The turn has ended once the prompt is in the transcript and the agent is idle again; idle
  // alone is also true before the run started (a permission asked later would then go unanswered).
  const sent = page
    .getByRole('region', { name: 'Messages' })
    .getByRole('article', { name: 'You' })
    .filter({ hasText: prompt })
  const before = await sent.count()
  await promptField(page).fill(prompt)
  await page.getByRole('button', { name: 'Send' }).click()
  const stop = page.getByRole('button', { name: 'Stop' })
  const allow = page.getByRole('button', { name: 'Allow' })
  await expect(async () => {
    if (await allow.isVisible()) await allow.click()
    expect(await sent.count()).toBeGreaterThan(before)
    await expect(stop).toBeHidden({ timeout: 100 })
    await expect(promptField(page)).toBeEnabled({ timeout: 100 })
  }).toPass({ timeout: 20_000 })
}

/** The element that has the focus, described for an assertion message ("BODY" when none). */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement
    if (active === null || active === document.body) return 'BODY'
    const name = active.getAttribute('aria-label') ?? active.textContent?.trim().slice(0, 40) ?? ''
    return `${active.tagName} ${name}`
  })
}

/**
 * Each node is drawn whole in the part of the canvas no overlay covers (the minimap, the
 * controls, the attribution), none over another, its text 11 px or more on screen.
 */
export async function expectLegibleInView(page: Page, nodes: Locator[]): Promise<void> {
  const canvas = (await page.locator('.graph-canvas').first().boundingBox())!
  const overlays = await page
    .locator('.graph-minimap, .react-flow__controls, .react-flow__attribution')
    .evaluateAll((found) => found.map((e) => e.getBoundingClientRect().toJSON() as Box))
  await expect(async () => {
    const boxes: Box[] = []
    for (const node of nodes) {
      const box = (await node.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(canvas.x)
      expect(box.y).toBeGreaterThanOrEqual(canvas.y)
      expect(box.x + box.width).toBeLessThanOrEqual(canvas.x + canvas.width)
      expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height)
      for (const other of [...overlays, ...boxes]) expect(overlap(box, other)).toBe(false)
      boxes.push(box)
      // The smallest text the node draws, at the zoom it is drawn at (a card is 240 px wide).
      const smallest = await node.evaluate((e) =>
        Math.min(
          ...[...e.querySelectorAll('.node-card *')]
            .filter((t) =>
              [...t.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== '')
            )
            .map((t) => parseFloat(getComputedStyle(t).fontSize))
        )
      )
      expect(smallest * (box.width / 240)).toBeGreaterThanOrEqual(11)
    }
  }).toPass({ timeout: 5_000 })
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
