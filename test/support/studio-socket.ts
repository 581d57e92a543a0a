// The contract over a served host's WebSocket, as the page speaks it: our origin, the run's token,
// one {id, channel, args} frame per request. Events pushed meanwhile are kept in order.
import WebSocket from 'ws'
import type { Reply } from '../../src/shared/contract'
import { type ServerFrame, WEBSOCKET_PATH } from '../../src/shared/wire'

export interface StudioSocket {
  /** Sends one request and resolves with its reply (ok or an error value). */
  call(channel: string, args?: unknown): Promise<Reply>
  /** Every event pushed so far, oldest first. */
  readonly events: { event: string; payload: unknown }[]
  /**
   * Resolves with the first event (pushed before or after the call) that `matches` accepts;
   * rejects when the connection closes first.
   */
  nextEvent(matches: (event: string, payload: unknown) => boolean): Promise<unknown>
  close(): void
}

/** Connects to the host serving `url` (the page's URL, with its token). */
export async function connectStudio(url: string): Promise<StudioSocket> {
  const page = new URL(url)
  const socket = new WebSocket(
    `ws://${page.host}${WEBSOCKET_PATH}?token=${page.searchParams.get('token') ?? ''}`,
    { origin: page.origin }
  )
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  const pending = new Map<number, (reply: Reply) => void>()
  const events: { event: string; payload: unknown }[] = []
  const waiters: {
    matches: (e: string, p: unknown) => boolean
    found: (p: unknown) => void
    closed: (error: Error) => void
  }[] = []
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as ServerFrame
    if ('reply' in frame) {
      pending.get(frame.id)?.(frame.reply)
      pending.delete(frame.id)
      return
    }
    events.push(frame)
    for (const waiter of [...waiters]) {
      if (!waiter.matches(frame.event, frame.payload)) continue
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.found(frame.payload)
    }
  })
  socket.on('close', () => {
    const closed: Reply = {
      ok: false,
      error: { code: 'unavailable', message: 'connection closed' }
    }
    for (const answer of pending.values()) answer(closed)
    pending.clear()
    for (const waiter of waiters.splice(0)) waiter.closed(new Error('the connection closed'))
  })
  let next = 1
  return {
    events,
    call(channel, args = {}) {
      const id = next++
      return new Promise((resolve) => {
        if (socket.readyState !== WebSocket.OPEN) {
          resolve({ ok: false, error: { code: 'unavailable', message: 'connection closed' } })
          return
        }
        pending.set(id, resolve)
        socket.send(JSON.stringify({ id, channel, args }))
      })
    },
    nextEvent(matches) {
      const seen = events.find((e) => matches(e.event, e.payload))
      if (seen !== undefined) return Promise.resolve(seen.payload)
      if (socket.readyState !== WebSocket.OPEN) {
        return Promise.reject(new Error('the connection closed'))
      }
      return new Promise((found, closed) => waiters.push({ matches, found, closed }))
    },
    close: () => socket.close()
  }
}
