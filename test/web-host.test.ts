import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { validatingSink } from '../src/core/studio/events'
import { MAX_PROMPT_BYTES } from '../src/shared/prompt-limit'
import { startWebHost, type WebHost } from '../src/web/server'
import { fixedInfo, recordingHandlers } from './support/recording-handlers'

function staticDir() {
  const dir = mkdtempSync(join(tmpdir(), 'rs-static-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Rewind Studio</title>')
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
  return dir
}

let host: WebHost | null = null
afterEach(async () => {
  await host?.close()
  host = null
})

async function start() {
  const { handlers, calls } = recordingHandlers()
  host = await startWebHost({ handlers, staticDir: staticDir(), log: () => {} })
  return { host, calls }
}

function connect(url: string, origin: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { origin })
    socket.once('open', () => resolve(socket))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

function ask(socket: WebSocket, frame: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    socket.once('message', (data) => resolve(JSON.parse(data.toString())))
    socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  })
}

describe('web host', () => {
  it('refuses pages and assets requested without the token', async () => {
    const { host } = await start()
    const origin = `http://127.0.0.1:${host.port}`
    expect((await fetch(`${origin}/`)).status).toBe(403)
    expect((await fetch(`${origin}/assets/app.js`)).status).toBe(403)
    expect((await fetch(`${origin}/?token=wrong`)).status).toBe(403)
  })

  it('serves the page with the token, and its assets with the cookie it sets', async () => {
    const { host } = await start()
    const page = await fetch(host.url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string
    const asset = await fetch(`http://127.0.0.1:${host.port}/assets/app.js`, {
      headers: { cookie }
    })
    expect(asset.status).toBe(200)
    expect(await asset.text()).toBe('console.log(1)')
  })

  it('refuses a path that climbs out of the static folder', async () => {
    const { host } = await start()
    const response = await fetch(
      `http://127.0.0.1:${host.port}/..%2f..%2fetc%2fpasswd?token=${host.token}`
    )
    expect(response.status).toBe(404)
  })

  it('refuses a WebSocket without the token or from another origin', async () => {
    const { host } = await start()
    const origin = `http://127.0.0.1:${host.port}`
    await expect(connect(`ws://127.0.0.1:${host.port}/ws`, origin)).rejects.toThrow(/403/)
    await expect(
      connect(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, 'http://evil.example')
    ).rejects.toThrow(/403/)
  })

  it('answers a valid request and rejects malformed payloads with a typed error, calling no handler', async () => {
    const { host, calls } = await start()
    const socket = await connect(
      `ws://127.0.0.1:${host.port}/ws?token=${host.token}`,
      `http://127.0.0.1:${host.port}`
    )
    expect(await ask(socket, { id: 1, channel: 'app:info', args: {} })).toEqual({
      id: 1,
      reply: { ok: true, value: fixedInfo }
    })
    const bad = (await ask(socket, {
      id: 2,
      channel: 'rewind:apply',
      args: { checkpointUuid: 'x', mode: 'everything' }
    })) as { reply: { ok: boolean; error: { code: string; message: string } } }
    expect(bad.reply.ok).toBe(false)
    expect(bad.reply.error.code).toBe('invalid_payload')
    expect(bad.reply.error.message).toMatch(/mode/)
    const unknown = (await ask(socket, { id: 3, channel: 'fs:delete', args: {} })) as {
      reply: { error: { code: string } }
    }
    expect(unknown.reply.error.code).toBe('unknown_channel')
    const garbage = (await ask(socket, 'not json')) as { reply: { error: { code: string } } }
    expect(garbage.reply.error.code).toBe('invalid_payload')
    expect(calls).toEqual([['app:info', {}]])
    socket.close()
  })

  it('pushes events to connected pages', async () => {
    const { host } = await start()
    const socket = await connect(
      `ws://127.0.0.1:${host.port}/ws?token=${host.token}`,
      `http://127.0.0.1:${host.port}`
    )
    const received = new Promise((resolve) =>
      socket.once('message', (d) => resolve(JSON.parse(d.toString())))
    )
    host.broadcast('agent:event', { type: 'status', running: true })
    expect(await received).toEqual({
      event: 'agent:event',
      payload: { type: 'status', running: true }
    })
    socket.close()
  })

  it('refuses a page or socket asked for under another host name (DNS rebinding), token or not', async () => {
    const { host } = await start()
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: host.port,
          path: `/?token=${host.token}`,
          headers: { host: `evil.example:${host.port}` }
        },
        (res) => {
          res.resume()
          resolve(res.statusCode)
        }
      )
      req.once('error', reject)
      req.end()
    })
    expect(status).toBe(403)
    await expect(
      new Promise((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
          origin: `http://evil.example:${host.port}`,
          headers: { host: `evil.example:${host.port}` }
        })
        socket.once('open', resolve)
        socket.once('unexpected-response', (_req, res) =>
          reject(new Error(`HTTP ${res.statusCode}`))
        )
        socket.once('error', reject)
      })
    ).rejects.toThrow(/403/)
  })

  it('turns a handler that throws into an internal error with its message and no stack', async () => {
    const { host } = await start()
    const socket = await connect(
      `ws://127.0.0.1:${host.port}/ws?token=${host.token}`,
      `http://127.0.0.1:${host.port}`
    )
    const reply = (await ask(socket, { id: 7, channel: 'settings:get', args: {} })) as {
      id: number
      reply: { ok: boolean; error: { code: string; message: string } }
    }
    expect(reply).toEqual({
      id: 7,
      reply: {
        ok: false,
        error: { code: 'internal', message: 'settings:get is not part of this test' }
      }
    })
    socket.close()
  })

  it('rejects a prompt over its size limit and extra keys before any handler', async () => {
    const { host, calls } = await start()
    const socket = await connect(
      `ws://127.0.0.1:${host.port}/ws?token=${host.token}`,
      `http://127.0.0.1:${host.port}`
    )
    const huge = (await ask(socket, {
      id: 1,
      channel: 'agent:send',
      args: { prompt: 'x'.repeat(MAX_PROMPT_BYTES + 1) }
    })) as { reply: { error: { code: string } } }
    expect(huge.reply.error.code).toBe('invalid_payload')
    const extra = (await ask(socket, {
      id: 2,
      channel: 'agent:stop',
      args: { now: true }
    })) as { reply: { error: { code: string } } }
    expect(extra.reply.error.code).toBe('invalid_payload')
    expect(calls).toEqual([])
    socket.close()
  })
})

describe('events leaving the core', () => {
  it('drops, with a log line, an event that does not fit the contract', () => {
    const sent: unknown[] = []
    const logged: string[] = []
    const sink = validatingSink(
      (event, payload) => sent.push([event, payload]),
      (line) => logged.push(line)
    )
    sink('agent:event', { type: 'status', running: 'yes' } as never)
    sink('agent:event', { type: 'status', running: false })
    expect(sent).toEqual([['agent:event', { type: 'status', running: false }]])
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatch(/^Dropped a agent:event event outside the contract/)
  })
})
