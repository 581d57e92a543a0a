// Finding (issue 13, export): "ONE self-contained HTML file of the whole tree (inline CSS and
// inline script only, no network, no external scripts; a CSP meta that forbids network; …
// escaping every piece of session text (the session is untrusted: a prompt with
// `</script><script>` must not run)".
//
// A session file anyone could write (hostile prompt, answer, tool call, label, ids and cwd) is
// exported by the real CLI and opened in Chromium with the network off: the page holds exactly
// its own one script, shows the hostile text as text, runs nothing of it, asks for nothing but
// itself, and its own script works. A second page has markup injected as if escaping had
// failed: the CSP alone still keeps it from running.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumLaunchOptions } from '../../e2e/support/chromium'
import { runCli } from '../support/cli'

const at = '2026-01-01T00:00:00.000Z'
const PAYLOAD = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
const EVIL_ID = 'p1"><script>window.__pwned=3</script>'

function hostileSession(dir: string): string {
  const records = [
    {
      type: 'session',
      uuid: 's',
      parentUuid: null,
      timestamp: at,
      version: 1,
      sessionId: 's<script>window.__pwned=4</script>',
      cwd: '/tmp/<iframe src="https://example.com/">'
    },
    {
      type: 'user',
      uuid: EVIL_ID,
      parentUuid: null,
      timestamp: at,
      message: { role: 'user', content: `hello ${PAYLOAD}` }
    },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: EVIL_ID,
      timestamp: at,
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: `answer <iframe src="https://example.com/"></iframe> \u202eevil` },
          {
            type: 'tool_use',
            id: 't1',
            name: '"><script>window.__pwned=5</script>',
            input: { file_path: '</pre><script>window.__pwned=6</script>' }
          }
        ]
      }
    },
    {
      type: 'user',
      uuid: 'r1',
      parentUuid: 'a1',
      timestamp: at,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: `</details>${PAYLOAD}` }]
      }
    },
    {
      type: 'label',
      uuid: 'l1',
      parentUuid: 'r1',
      timestamp: at,
      targetUuid: EVIL_ID,
      label: '<b onmouseover="window.__pwned=7">label</b>'
    }
  ]
  const file = join(dir, 'hostile.jsonl')
  writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''))
  return file
}

let browser: Browser
beforeAll(async () => {
  browser = await chromium.launch(chromiumLaunchOptions)
})
afterAll(async () => {
  await browser.close()
})

/** Opens `file` offline; every request but the page itself is refused and listed. */
async function openOffline(file: string) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } })
  await context.setOffline(true)
  const page = await context.newPage()
  const requests: string[] = []
  const dialogs: string[] = []
  await page.route('**/*', (route) => {
    const url = route.request().url()
    if (url === `file://${file}`) return route.continue()
    requests.push(url)
    return route.abort()
  })
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(`file://${file}`)
  return { context, page, requests, dialogs }
}

describe('HTML export of a hostile session', () => {
  it('shows the hostile text as text and runs none of it, offline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-export-xss-'))
    const out = join(dir, 'export.html')
    const run = await runCli(['export', hostileSession(dir), '--format', 'html', '-o', out], {
      env: { REWIND_STUDIO_HOME: join(dir, 'home') }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const { context, page, requests, dialogs } = await openOffline(out)
    try {
      expect(
        await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)
      ).toBeUndefined()
      expect(await page.locator('script').count()).toBe(1)
      expect(await page.locator('img, iframe, b[onmouseover]').count()).toBe(0)
      const body = await page.locator('main').innerText()
      expect(body).toContain(`hello ${PAYLOAD}`)
      expect(body).toContain('answer <iframe src="https://example.com/"></iframe> \\u202eevil')
      expect(body).toContain('<b onmouseover="window.__pwned=7">label</b>')
      // The page's own script runs (its hash is in the policy): a branch can be read alone.
      await page.getByRole('button', { name: 'Read this branch' }).first().click()
      await expect
        .poll(() => page.getByRole('status').innerText())
        .toBe('Showing one branch (1 node)')
      await page.locator('details').first().click()
      await page.screenshot({ path: join(dir, 'export-hostile.png') })
      expect(requests).toEqual([])
      expect(dialogs).toEqual([])
      expect(
        await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)
      ).toBeUndefined()
    } finally {
      await context.close()
    }
  })

  it('keeps markup that escaped the escaping from running: the CSP allows only its own script', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-export-csp-'))
    const out = join(dir, 'export.html')
    const run = await runCli(['export', hostileSession(dir), '--format', 'html', '-o', out], {
      env: { REWIND_STUDIO_HOME: join(dir, 'home') }
    })
    expect(run.code).toBe(0)
    // As if one piece of session text had been written unescaped.
    const injected = join(dir, 'injected.html')
    writeFileSync(
      injected,
      readFileSync(out, 'utf8').replace(
        '<main>',
        '<main><script>window.__pwned=8</script><img src="https://example.com/x.png" onerror="window.__pwned=9"><link rel="stylesheet" href="https://example.com/s.css">'
      )
    )
    const { context, page, requests } = await openOffline(injected)
    try {
      expect(
        await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)
      ).toBeUndefined()
      expect(requests).toEqual([])
      await page.getByRole('button', { name: 'Active branch' }).click()
      await expect.poll(() => page.getByRole('status').innerText()).toMatch(/Showing one branch/)
    } finally {
      await context.close()
    }
  })
})
