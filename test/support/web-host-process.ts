// Starts test/support/web-host-child.ts and speaks to it the way a browser (or any local process)
// would: raw bytes on a TCP socket, HTTP requests, WebSocket frames.
import { type ChildProcess, spawn } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import type { WebHostOptions } from '../../src/web/server'

export interface HostProcess {
  port: number
  token: string
  origin: string
  /** Everything the child wrote to stderr (its log, or the crash). */
  stderr(): string
  /** Whether the process is still running. */
  alive(): boolean
  stop(): Promise<void>
}

/** The host alone in a child process; `limits` shorten its connection limits and timeouts. */
export async function startHostProcess(
  limits: WebHostOptions['limits'] = {}
): Promise<HostProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'web-host-child.ts'), JSON.stringify(limits)],
    { stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const [port, token] = await new Promise<[number, string]>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const match = /READY (\d+) (\S+)\n/.exec(stdout)
      if (match) resolve([Number(match[1]), match[2] as string])
    })
    child.once('exit', (code) => reject(new Error(`web host child exited (${code}):\n${stderr}`)))
  })
  return {
    port,
    token,
    origin: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    }
  }
}

/** Sends `bytes` on a fresh TCP connection and resolves with all the host answered once it closes. */
export function rawExchange(port: number, bytes: Buffer | string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
    // A reset is an answer too: the host hung up.
    socket.on('error', () => resolve(answer))
    socket.on('close', () => resolve(answer))
    socket.write(bytes)
  })
}

/** An upgraded WebSocket connection on a raw socket (our origin, the token), for hand-made frames. */
export function openRawWebSocket(host: HostProcess): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1')
    let head = ''
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      socket.off('data', onData)
      if (head.startsWith('HTTP/1.1 101')) resolve(socket)
      else reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`))
    }
    socket.on('data', onData)
    socket.once('error', reject)
    socket.write(
      [
        `GET /ws?token=${host.token} HTTP/1.1`,
        `Host: 127.0.0.1:${host.port}`,
        `Origin: ${host.origin}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        '',
        ''
      ].join('\r\n')
    )
  })
}

/** A client frame as RFC 6455 lays it out; `masked` false and `rsv` set make it invalid. */
export function clientFrame(
  payload: Buffer,
  options: { masked?: boolean; rsv?: number; declaredLength?: number } = {}
): Buffer {
  const masked = options.masked ?? true
  const length = options.declaredLength ?? payload.length
  const first = 0x80 | ((options.rsv ?? 0) << 4) | 0x1 // FIN, text
  const maskBit = masked ? 0x80 : 0
  let header: Buffer
  if (length < 126) header = Buffer.from([first, maskBit | length])
  else if (length < 65536) {
    header = Buffer.alloc(4)
    header.writeUInt8(first, 0)
    header.writeUInt8(maskBit | 126, 1)
    header.writeUInt16BE(length, 2)
  } else {
    header = Buffer.alloc(10)
    header.writeUInt8(first, 0)
    header.writeUInt8(maskBit | 127, 1)
    header.writeBigUInt64BE(BigInt(length), 2)
  }
  if (!masked) return Buffer.concat([header, payload])
  const key = Buffer.from([0x11, 0x22, 0x33, 0x44])
  const body = Buffer.from(payload.map((byte, i) => byte ^ (key[i % 4] as number)))
  return Buffer.concat([header, key, body])
}

/** Resolves once the host closes `socket` (it should, after a bad frame). */
export function closedByHost(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve()
    socket.on('error', () => undefined)
    socket.once('close', () => resolve())
    socket.resume()
  })
}
