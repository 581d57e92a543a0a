// Finding 9: "The token cookie goes to every service on 127.0.0.1 (cookies ignore the port):
// scope it (cookie name with the port, or a path) or send the token otherwise."
// The cookie the page gets must not be the token, must not open the socket, and must not collide
// with another host's on another port; the page's own assets (no query string) still load.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startWebHost, type WebHost } from '../../src/web/server'
import { recordingHandlers } from '../support/recording-handlers'

const hosts: WebHost[] = []
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close()
})

async function start(): Promise<WebHost> {
  const staticDir = mkdtempSync(join(tmpdir(), 'rs-static-'))
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Rewind Studio</title>')
  mkdirSync(join(staticDir, 'assets'))
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)')
  const host = await startWebHost({
    handlers: recordingHandlers().handlers,
    staticDir,
    log: () => {}
  })
  hosts.push(host)
  return host
}

/** The `name=value` pair of the cookie the page sets, and its attributes. */
async function pageCookie(host: WebHost): Promise<{ pair: string; name: string; value: string }> {
  const page = await fetch(host.url)
  expect(page.status).toBe(200)
  const header = page.headers.get('set-cookie') ?? ''
  const pair = header.split(';')[0] as string
  const [name = '', value = ''] = pair.split('=')
  return { pair, name, value }
}

function upgradeStatus(host: WebHost, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws`, {
      origin: `http://127.0.0.1:${host.port}`,
      headers
    })
    socket.once('open', () => {
      socket.close()
      resolve(101)
    })
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
    socket.once('error', reject)
  })
}

describe('the cookie the page sets', () => {
  it('does not carry the token', async () => {
    const host = await start()
    const cookie = await pageCookie(host)
    expect(cookie.value).not.toBe('')
    expect(cookie.pair).not.toContain(host.token)
  })

  it('opens the page’s assets, and not the WebSocket', async () => {
    const host = await start()
    const { pair } = await pageCookie(host)
    const asset = await fetch(`http://127.0.0.1:${host.port}/assets/app.js`, {
      headers: { cookie: pair }
    })
    expect(asset.status).toBe(200)
    expect(await upgradeStatus(host, { cookie: pair })).toBe(403)
    // A cookie that does carry the token (an old host's, another app's) opens nothing either.
    expect(
      await upgradeStatus(host, { cookie: `${pair}; rewind_studio_token=${host.token}` })
    ).toBe(403)
  })

  it('is named after the port, so two hosts’ cookies do not overwrite each other', async () => {
    const [first, second] = [await start(), await start()]
    const [a, b] = [await pageCookie(first), await pageCookie(second)]
    expect(a.name).toContain(String(first.port))
    expect(a.name).not.toBe(b.name)
    // The first page's assets still load while the browser also holds the second's cookie.
    const asset = await fetch(`http://127.0.0.1:${first.port}/assets/app.js`, {
      headers: { cookie: `${a.pair}; ${b.pair}` }
    })
    expect(asset.status).toBe(200)
  })
})
