// Finding 6, "The web host dies": "A malformed upgrade target (`GET http://[`) from any local
// process, without the token, kills it (an uncaught `new URL`)."
// The same target as a plain request must not kill it either, nor get a 500: it is a bad request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type HostProcess, rawExchange, startHostProcess } from '../support/web-host-process'

let host: HostProcess
beforeEach(async () => {
  host = await startHostProcess()
})
afterEach(async () => {
  await host.stop()
})

function request(target: string, upgrade: boolean): string {
  return [
    `GET ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${host.port}`,
    ...(upgrade
      ? [
          `Origin: ${host.origin}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          'Sec-WebSocket-Version: 13'
        ]
      : ['Connection: close']),
    '',
    ''
  ].join('\r\n')
}

describe('a malformed request target', () => {
  it('as a WebSocket upgrade without the token: refused with 400, and the host goes on serving', async () => {
    const answer = await rawExchange(host.port, request('http://[', true))
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(host.alive(), host.stderr()).toBe(true)
    expect((await fetch(`${host.origin}/?token=${host.token}`)).status).toBe(200)
  })

  it('as a page request: refused with 400, and the host goes on serving', async () => {
    const answer = await rawExchange(host.port, request('http://[', false))
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect((await fetch(`${host.origin}/?token=${host.token}`)).status).toBe(200)
  })
})
