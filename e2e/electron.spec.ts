// The same app in the real Electron window, through Playwright's _electron, where a binary is
// installed. Elsewhere (no binary could be downloaded) the suite is skipped with the reason.
import { createRequire } from 'node:module'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { repoRoot, screenshotDir } from './support/serve'

function electronBinary(): string | null {
  try {
    return createRequire(import.meta.url)('electron') as string
  } catch {
    return null
  }
}

const binary = electronBinary()
const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY)
const skipReason =
  binary === null
    ? 'no Electron binary is installed on this machine (its download is unavailable here)'
    : !hasDisplay
      ? 'no display (set DISPLAY, e.g. under xvfb-run) for an Electron window'
      : null
if (skipReason !== null) console.log(`e2e/electron.spec.ts skipped: ${skipReason}`)

test.describe('Electron window', () => {
  test.skip(skipReason !== null, skipReason ?? '')

  test('opens hardened, and the renderer reaches main only through window.api', async () => {
    const app = await electron.launch({
      executablePath: binary as string,
      args: [repoRoot, '--demo'],
      env: { ...process.env, REWIND_STUDIO_HOME: mkdtempSync(join(tmpdir(), 'rs-electron-')) }
    })
    const window = await app.firstWindow()
    await expect(window.getByRole('button', { name: 'Send' })).toBeVisible()
    // Electron exposes no getter for a window's preferences: check what they imply in the page.
    const page = await window.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      apiKeys: Object.keys((globalThis as { api?: object }).api ?? {}).sort()
    }))
    expect(page.require).toBe('undefined')
    expect(page.process).toBe('undefined')
    expect(page.apiKeys).toContain('rewindApply')
    expect(page.apiKeys).not.toContain('invoke')
    const reply = await window.evaluate(() =>
      (
        window as unknown as { api: { rewindApply: (a: unknown) => Promise<unknown> } }
      ).api.rewindApply({ mode: 'x' })
    )
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_payload' } })
    await window.screenshot({ path: join(screenshotDir, 'electron-01-opened.png') })
    await app.close()
  })
})
