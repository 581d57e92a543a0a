// Accessibility as a test: axe-core on the screen a spec has reached, in the light and the dark
// theme, against WCAG 2.1 A and AA. Every spec calls it on every screen it visits, so a colour,
// a name or a focus trap that breaks the rules fails the suite where it was introduced.
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** One line per violation and node: the rule, its help and where, so a failure says what to fix. */
function describe(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string[] {
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help} at ${node.target.join(' ')}` +
        (node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, ' ')})` : '')
    )
  )
}

/**
 * Zero WCAG 2.1 AA violations on the page as it is now, in both themes; `screen` names it in the
 * failure. The page's own colour scheme is restored afterwards (light unless a spec chose dark).
 */
export async function expectAccessible(
  page: Page,
  screen: string,
  restore: 'light' | 'dark' = 'light'
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze()
    expect(describe(results.violations), `${screen}, ${colorScheme} theme`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: restore })
}
