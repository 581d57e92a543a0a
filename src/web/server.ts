// The web host: the built renderer over HTTP and the IPC contract over a WebSocket, both on
// 127.0.0.1 only, both behind a per-run token. The token plays the part Electron's sender check
// plays in src/main/ipc.ts: a request without it is refused before anything else runs.
//
// The token travels in URLs only (the page's, the socket's), never in a cookie: cookies ignore
// the port, so every service on 127.0.0.1 would receive it. The page's own asset requests carry
// no query string; a cookie with a key of its own lets them through, and opens nothing else.
//
// Connections are bounded (connection-guard.ts): those without the token are timed out, refused
// ones closed, and the oldest of them make room for a new one past the cap; a page that stops
// answering pings loses its socket. Whatever a local process opens, the page stays reachable.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import type { EventChannel, Handlers } from '../shared/contract'
import {
  ClientFrame,
  MAX_CLIENT_FRAME_BYTES,
  type ServerFrame,
  WEBSOCKET_PATH
} from '../shared/wire'
import { dispatch } from '../core/studio/dispatch'
import { type ConnectionLimits, ConnectionGuard, DEFAULT_LIMITS } from './connection-guard'
import { decodeUrlPath, readStaticFile } from './static-files'
import { newToken, tokenMatches } from './token'

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'"
].join('; ')

export interface WebHostOptions {
  handlers: Handlers
  /** The built renderer folder (out/renderer). */
  staticDir: string
  port?: number
  token?: string
  log?: (message: string) => void
  /** The connection budget and timeouts (defaults: DEFAULT_LIMITS, PING_MS); tests shorten them. */
  limits?: Partial<ConnectionLimits & { pingMs: number }>
}

/**
 * How often a page's WebSocket is pinged: one that has not answered the last ping by the next is
 * gone (a browser answers by itself, whatever the page is doing) and its socket is closed.
 */
export const PING_MS = 30_000
/** A request's headers, and the whole request, must arrive within these (Node's own checks). */
const HEADERS_TIMEOUT_MS = 10_000
const REQUEST_TIMEOUT_MS = 30_000

export interface WebHost {
  url: string
  port: number
  token: string
  /** Sends an event to every connected page. */
  broadcast(event: EventChannel, payload: unknown): void
  close(): Promise<void>
}

function cookieValue(request: IncomingMessage, cookie: string): string | null {
  const header = request.headers.cookie ?? ''
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === cookie) return value.join('=')
  }
  return null
}

function badRequest(response: ServerResponse, why: string): void {
  response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
  response.end(`Bad request: ${why}.\n`)
}

function refuseUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`)
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newToken()
  /** Opens the static files only (see the header): what the cookie carries instead of the token. */
  const assetKey = newToken()
  const log = options.log ?? ((message: string) => console.error(message))
  const guard = new ConnectionGuard({ ...DEFAULT_LIMITS, ...options.limits })
  let origin = ''
  /** Named after the port, so the cookie of a host on another port does not overwrite it. */
  let assetCookie = ''

  /** Refuses other hosts' names (DNS rebinding). */
  function fromOurHost(request: IncomingMessage): boolean {
    const host = request.headers.host ?? ''
    return host === new URL(origin).host || host === `localhost:${new URL(origin).port}`
  }

  function hasToken(url: URL): boolean {
    return tokenMatches(token, url.searchParams.get('token'))
  }

  function hasAssetKey(request: IncomingMessage): boolean {
    return tokenMatches(assetKey, cookieValue(request, assetCookie))
  }

  /** The request's target, or null when it is no URL at all (`GET http://[`). */
  function targetOf(request: IncomingMessage): URL | null {
    return URL.canParse(request.url ?? '/', origin) ? new URL(request.url ?? '/', origin) : null
  }

  async function serveHttp(request: IncomingMessage, response: ServerResponse) {
    const url = targetOf(request)
    if (url === null) {
      badRequest(response, 'the request target is not a URL')
      return
    }
    if (!fromOurHost(request) || !(hasToken(url) || hasAssetKey(request))) {
      // Refused: the connection goes with the answer, it holds no descriptor for later.
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
      response.end(
        'Forbidden: this Rewind Studio server needs the token printed when it started.\n'
      )
      return
    }
    guard.authenticate(request.socket)
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405).end()
      return
    }
    const path = decodeUrlPath(url.pathname)
    if (path === null) {
      badRequest(response, 'the path has a malformed % escape')
      return
    }
    const file = await readStaticFile(options.staticDir, path)
    if (file === null) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n')
      return
    }
    response.writeHead(200, {
      'content-type': file.contentType,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      // The page's own asset requests carry no query string: the cookie lets them through.
      'set-cookie': `${assetCookie}=${assetKey}; HttpOnly; SameSite=Strict; Path=/`
    })
    response.end(request.method === 'HEAD' ? undefined : file.body)
  }

  const server = createServer((request, response) => {
    serveHttp(request, response).catch((error: unknown) => {
      log(`web host: ${error instanceof Error ? error.message : String(error)}`)
      if (!response.headersSent) response.writeHead(500)
      response.end()
    })
  })
  server.headersTimeout = HEADERS_TIMEOUT_MS
  server.requestTimeout = REQUEST_TIMEOUT_MS
  server.on('connection', (socket: Socket) => guard.admit(socket))
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES })

  server.on('upgrade', (request, socket, head) => {
    // Node hands the socket over without its error listener: a reset before ws owns it would be
    // an unhandled 'error' event, which ends the process.
    socket.on('error', () => socket.destroy())
    const url = targetOf(request)
    if (url === null) {
      refuseUpgrade(socket, '400 Bad Request')
      return
    }
    // A page on another site could open this socket; only our own origin with the token may.
    const sameOrigin =
      request.headers.origin === origin ||
      request.headers.origin === `http://localhost:${new URL(origin).port}`
    if (url.pathname !== WEBSOCKET_PATH || !fromOurHost(request) || !hasToken(url) || !sameOrigin) {
      refuseUpgrade(socket, '403 Forbidden')
      return
    }
    guard.authenticate(socket as Socket)
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client))
  })

  /** The pages that answered the last ping (see PING_MS). */
  const answered = new WeakSet<WebSocket>()
  const heartbeat = setInterval(() => {
    for (const client of sockets.clients) {
      if (!answered.has(client)) {
        client.terminate()
        continue
      }
      answered.delete(client)
      client.ping()
    }
  }, options.limits?.pingMs ?? PING_MS)
  heartbeat.unref()

  sockets.on('connection', (client: WebSocket) => {
    answered.add(client)
    client.on('pong', () => answered.add(client))
    // A frame ws refuses (too big, not UTF-8, RSV bits, unmasked) closes this connection and
    // arrives here; unheard, the 'error' event would end the process and every page with it.
    client.on('error', (error) => log(`web host: closed a connection: ${error.message}`))
    client.on('message', (data) => {
      answer(client, data.toString()).catch((error: unknown) =>
        log(`web host: a request failed outside dispatch: ${(error as Error)?.stack ?? error}`)
      )
    })
  })

  async function answer(client: WebSocket, text: string) {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      raw = undefined
    }
    const frame = ClientFrame.safeParse(raw)
    if (!frame.success) {
      const reply: ServerFrame = {
        id: -1,
        reply: {
          ok: false,
          error: {
            code: 'invalid_payload',
            message: 'Malformed frame: expected {id, channel, args}.'
          }
        }
      }
      client.send(JSON.stringify(reply))
      return
    }
    const reply = await dispatch(options.handlers, frame.data.channel, frame.data.args, log)
    if (client.readyState === WebSocket.OPEN) {
      client.send(JSON.stringify({ id: frame.data.id, reply } satisfies ServerFrame))
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  origin = `http://127.0.0.1:${port}`
  assetCookie = `rewind_studio_assets_${port}`

  return {
    url: `${origin}/?token=${token}`,
    port,
    token,
    broadcast(event, payload) {
      const frame = JSON.stringify({ event, payload } satisfies ServerFrame)
      for (const client of sockets.clients) {
        if (client.readyState === WebSocket.OPEN) client.send(frame)
      }
    },
    async close() {
      clearInterval(heartbeat)
      for (const client of sockets.clients) client.terminate()
      await new Promise<void>((resolve) => sockets.close(() => resolve()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
