// Finding 9: "Malformed `%` escapes get a 500 with an empty body: 400."
import { afterEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startWebHost, type WebHost } from '../../src/web/server'
import { recordingHandlers } from '../support/recording-handlers'

let host: WebHost | null = null
afterEach(async () => {
  await host?.close()
  host = null
})

async function start(): Promise<WebHost> {
  const staticDir = mkdtempSync(join(tmpdir(), 'rs-static-'))
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Rewind Studio</title>')
  mkdirSync(join(staticDir, 'assets'))
  writeFileSync(join(staticDir, 'assets', '100%.js'), 'console.log(1)')
  host = await startWebHost({ handlers: recordingHandlers().handlers, staticDir, log: () => {} })
  return host
}

describe('a path with a malformed % escape', () => {
  for (const path of ['/%', '/assets/%E0%A4%A', '/%zz.js', '/%C0%AF']) {
    it(`${path} is a 400 that says why`, async () => {
      const { port, token } = await start()
      const response = await fetch(`http://127.0.0.1:${port}${path}?token=${token}`)
      expect(response.status).toBe(400)
      expect(await response.text()).toMatch(/malformed % escape/i)
    })
  }

  it('a well-formed escape still finds its file', async () => {
    const { port, token } = await start()
    const response = await fetch(`http://127.0.0.1:${port}/assets/100%25.js?token=${token}`)
    expect(response.status).toBe(200)
  })
})
