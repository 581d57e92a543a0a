// Finding 6, "The web host dies": "A frame over 2 MB (a legitimate 800,000-character CJK prompt
// that the contract allows) and invalid frames (bad UTF-8, RSV bits, unmasked) kill the process:
// no `error` listener on client sockets."
// Each frame goes to the host in a separate process, from a raw socket that holds the token; the
// host must close that one connection and go on answering.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import {
  clientFrame,
  closedByHost,
  type HostProcess,
  openRawWebSocket,
  startHostProcess
} from '../support/web-host-process'

let host: HostProcess
beforeEach(async () => {
  host = await startHostProcess()
})
afterEach(async () => {
  await host.stop()
})

async function expectStillServing(): Promise<void> {
  expect(host.alive(), host.stderr()).toBe(true)
  const page = await fetch(`${host.origin}/?token=${host.token}`)
  expect(page.status).toBe(200)
}

const badFrames: [string, Buffer][] = [
  ['a frame declaring 64 MB', clientFrame(Buffer.alloc(0), { declaredLength: 64 * 1024 * 1024 })],
  ['a text frame that is not UTF-8', clientFrame(Buffer.from([0xff, 0xfe, 0xfd]))],
  ['a frame with RSV bits set', clientFrame(Buffer.from('{}'), { rsv: 0b111 })],
  ['an unmasked client frame', clientFrame(Buffer.from('{}'), { masked: false })]
]

describe('the web host survives bad WebSocket frames', () => {
  for (const [name, frame] of badFrames) {
    it(`closes the connection that sent ${name}, and goes on serving`, async () => {
      const socket = await openRawWebSocket(host)
      socket.write(frame)
      await closedByHost(socket)
      await expectStillServing()
    })
  }

  it('refuses an 800,000-character CJK prompt with a message saying the limit in bytes', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
      origin: host.origin
    })
    await new Promise((resolve, reject) => {
      socket.once('open', resolve)
      socket.once('error', reject)
    })
    const answer = new Promise<unknown>((resolve) => {
      socket.once('message', (data) => resolve(JSON.parse(data.toString())))
      socket.once('close', (code) => resolve({ closed: code }))
    })
    socket.send(
      JSON.stringify({ id: 1, channel: 'agent:send', args: { prompt: '漢'.repeat(800_000) } })
    )
    const reply = (await answer) as {
      reply: { ok: boolean; error: { code: string; message: string } }
    }
    expect(reply.reply.ok).toBe(false)
    expect(reply.reply.error.code).toBe('invalid_payload')
    expect(reply.reply.error.message).toMatch(/2,400,000 bytes.*limit is [\d,]+ bytes/)
    socket.close()
    await expectStillServing()
  })
})
