// A client of the web host's WebSocket, as the page's bridge is: requests by channel with their
// replies, and every event pushed so far. For tests that drive a served app without a browser.
import { WebSocket } from 'ws'

export interface StudioClient {
  /** Sends a request and resolves with its reply ({ok, value} or {ok: false, error}). */
  ask(channel: string, args?: unknown): Promise<{ ok: boolean; value?: unknown; error?: unknown }>
  /** How many events have been pushed so far: pass it to waitForEvent to skip them. */
  eventCount(): number
  /** Resolves with the first event after the first `skip` ones that `match` accepts. */
  waitForEvent(match: (event: string, payload: unknown) => boolean, skip?: number): Promise<unknown>
  close(): void
}

interface Frame {
  id?: number
  reply?: { ok: boolean; value?: unknown; error?: unknown }
  event?: string
  payload?: unknown
}

/** Connects to the app at `url` (the printed one, with its token). */
export async function connectStudio(url: string): Promise<StudioClient> {
  const page = new URL(url)
  const socket = new WebSocket(`ws://${page.host}/ws?token=${page.searchParams.get('token')}`, {
    origin: page.origin
  })
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  const events: Frame[] = []
  const eventWaiters: {
    match: (e: string, p: unknown) => boolean
    resolve: (p: unknown) => void
  }[] = []
  const replies = new Map<number, (reply: NonNullable<Frame['reply']>) => void>()
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Frame
    if (frame.id !== undefined && frame.reply !== undefined) {
      replies.get(frame.id)?.(frame.reply)
      replies.delete(frame.id)
      return
    }
    events.push(frame)
    for (const waiter of [...eventWaiters]) {
      if (!waiter.match(frame.event ?? '', frame.payload)) continue
      eventWaiters.splice(eventWaiters.indexOf(waiter), 1)
      waiter.resolve(frame.payload)
    }
  })
  let nextId = 0
  return {
    ask: (channel, args = {}) =>
      new Promise((resolve) => {
        const id = ++nextId
        replies.set(id, resolve)
        socket.send(JSON.stringify({ id, channel, args }))
      }),
    eventCount: () => events.length,
    waitForEvent: (match, skip = 0) => {
      const seen = events.slice(skip).find((f) => match(f.event ?? '', f.payload))
      if (seen !== undefined) return Promise.resolve(seen.payload)
      return new Promise((resolve) => eventWaiters.push({ match, resolve }))
    },
    close: () => socket.close()
  }
}
