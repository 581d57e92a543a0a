// Issue 26, item 10: "Idle sockets are never closed and there is no connection cap: 1,000
// tokenless sockets against a 400-descriptor limit leave the page unreachable. Time out idle and
// unauthenticated sockets; cap connections."
//
// The first case is the attack itself: the real `serve`, started with 400 descriptors (prlimit),
// and 1,000 sockets that connect and say nothing. The others run the web host alone in a child
// process with its timeouts shortened, to see each rule at work without waiting its full time.
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { serve, type ServedApp } from '../../e2e/support/serve'
import { connectStudio } from '../support/studio-socket'
import {
  closedByHost,
  type HostProcess,
  openRawWebSocket,
  startHostProcess
} from '../support/web-host-process'

let app: ServedApp | null = null
let host: HostProcess | null = null
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await app?.stop()
  await host?.stop()
  app = null
  host = null
})

/** A TCP connection that says nothing; resolves once connected (or refused: it is closed then). */
function silentSocket(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    sockets.push(socket)
    socket.on('error', () => undefined)
    socket.once('connect', () => resolve(socket))
    socket.once('close', () => resolve(socket))
  })
}

const hungUp = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) resolve()
    socket.once('close', () => resolve())
  })

describe('connections to the web host', () => {
  it('1,000 tokenless sockets against a 400-descriptor limit: the page and its socket still answer', async () => {
    app = await serve({ maxFiles: 400 })
    const { port } = new URL(app.url)
    await Promise.all(Array.from({ length: 1000 }, () => silentSocket(Number(port))))
    const page = await fetch(app.url)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="root">')
    const studio = await connectStudio(app.url)
    expect(await studio.call('app:info')).toMatchObject({ ok: true })
    studio.close()
    expect(app.alive(), app.output()).toBe(true)
  }, 90_000)

  it('closes a connection that never shows the token, silent or part way through its headers', async () => {
    host = await startHostProcess({ unauthenticatedMs: 300 })
    const silent = await silentSocket(host.port)
    const slow = await silentSocket(host.port)
    slow.write(`GET /?token=${host.token} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n`)
    await Promise.all([hungUp(silent), hungUp(slow)])
    expect((await fetch(`${host.origin}/?token=${host.token}`)).status).toBe(200)
  })

  it('closes the connection of a request it refused', async () => {
    host = await startHostProcess()
    const refused = await fetch(`${host.origin}/`)
    expect(refused.status).toBe(403)
    expect(refused.headers.get('connection')).toBe('close')
    const bad = await fetch(`${host.origin}/%E0%A4%A?token=${host.token}`)
    expect(bad.status).toBe(400)
    expect(bad.headers.get('connection')).toBe('close')
  })

  it('past the cap, the oldest tokenless connection goes first; a page’s socket is never pushed out', async () => {
    host = await startHostProcess({ maxConnections: 10 })
    const page = await openRawWebSocket(host)
    const silent = []
    for (let i = 0; i < 20; i++) silent.push(await silentSocket(host.port))
    // Room was made for each newcomer by closing the oldest without the token.
    await Promise.all(silent.slice(0, 11).map(hungUp))
    expect(silent.slice(11).every((s) => !s.destroyed)).toBe(true)
    expect(page.destroyed).toBe(false)
    expect((await fetch(`${host.origin}/?token=${host.token}`)).status).toBe(200)
    page.destroy()
  })

  it('closes the socket of a page that stopped answering pings', async () => {
    host = await startHostProcess({ pingMs: 200 })
    // A raw socket answers no ping (a browser answers by itself while the page lives).
    const page = await openRawWebSocket(host)
    await closedByHost(page)
    expect(host.alive(), host.stderr()).toBe(true)
  })
})
