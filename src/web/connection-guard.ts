// The web host's budget of connections. Every TCP connection costs a file descriptor from its
// first moment, before it has said anything: 1,000 sockets that never sent the token, against a
// 400-descriptor limit, left the page unreachable (issue 26), each held for good. So:
//
// - a connection that has not shown the token (or the asset cookie's key) within
//   `unauthenticatedMs` is closed, and so is one whose request was refused;
// - at most `maxConnections` are open: past that the oldest one still without the token goes,
//   so the newest (a page being opened) always gets its chance, and a page already open (a
//   WebSocket holding the token) is never pushed out by tokenless ones; only when every one
//   holds the token is a new connection refused;
// - an idle one that holds the token goes too: HTTP after its keep-alive, a WebSocket whose page
//   stopped answering pings (server.ts).
import type { Socket } from 'node:net'

export interface ConnectionLimits {
  /** The most connections open at once, WebSockets included. */
  maxConnections: number
  /** How long a connection may stay open without showing the token. */
  unauthenticatedMs: number
}

/**
 * Far past what one user's pages need (a tab holds one WebSocket, and a browser at most six page
 * requests at once), far below the descriptors a process gets (1,024 on Linux by default).
 */
export const DEFAULT_LIMITS: ConnectionLimits = { maxConnections: 100, unauthenticatedMs: 10_000 }

interface Tracked {
  authenticated: boolean
  /** Closes the connection if it still has not shown the token. */
  deadline: NodeJS.Timeout | null
}

export class ConnectionGuard {
  /** In the order they came: the first one without the token is the oldest. */
  private readonly open = new Map<Socket, Tracked>()

  constructor(private readonly limits: ConnectionLimits = DEFAULT_LIMITS) {}

  /** A new connection: counted, timed, and room made for it (or it is refused). */
  admit(socket: Socket): void {
    const deadline = setTimeout(() => {
      if (this.open.get(socket)?.authenticated === false) socket.destroy()
    }, this.limits.unauthenticatedMs)
    deadline.unref()
    this.open.set(socket, { authenticated: false, deadline })
    socket.once('close', () => this.forget(socket))
    if (this.open.size <= this.limits.maxConnections) return
    for (const [other, tracked] of this.open) {
      if (!tracked.authenticated) {
        // The oldest without the token: itself only when all the others hold it.
        other.destroy()
        this.forget(other)
        return
      }
    }
  }

  /** The connection showed the token: it stays, whatever comes after it. */
  authenticate(socket: Socket): void {
    const tracked = this.open.get(socket)
    if (tracked === undefined || tracked.authenticated) return
    if (tracked.deadline !== null) clearTimeout(tracked.deadline)
    tracked.authenticated = true
    tracked.deadline = null
  }

  private forget(socket: Socket): void {
    const tracked = this.open.get(socket)
    if (tracked?.deadline != null) clearTimeout(tracked.deadline)
    this.open.delete(socket)
  }
}
