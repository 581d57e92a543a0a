import type {
  Bridge,
  EventChannel,
  EventPayload,
  RequestArgs,
  RequestChannel,
  RequestResult
} from '../../../shared/contract'
import { type ClientFrame, ServerFrame, WEBSOCKET_PATH } from '../../../shared/wire'
import { BridgeError, ConnectionClosedError } from './bridge-error'

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
}

/** The contract over a WebSocket to the web host that served this page, with its token. */
export function webSocketBridge(location: Location): Bridge {
  const token = new URLSearchParams(location.search).get('token') ?? ''
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const socket = new WebSocket(
    `${scheme}//${location.host}${WEBSOCKET_PATH}?token=${encodeURIComponent(token)}`
  )
  const pending = new Map<number, Pending>()
  const disconnectListeners = new Set<(message: string) => void>()
  let closed = false
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true })
    socket.addEventListener('error', () => reject(new ConnectionClosedError()), { once: true })
  })
  let nextId = 1

  socket.addEventListener('message', (message) => {
    const frame = ServerFrame.safeParse(JSON.parse(String(message.data)))
    if (!frame.success) return
    if ('id' in frame.data) {
      const waiting = pending.get(frame.data.id)
      pending.delete(frame.data.id)
      const reply = frame.data.reply
      if (reply.ok) waiting?.resolve(reply.value)
      else waiting?.reject(new BridgeError(reply.error))
    } else {
      const { event, payload } = frame.data
      for (const listener of listeners.get(event) ?? []) listener(payload)
    }
  })
  socket.addEventListener('close', () => {
    closed = true
    const error = new ConnectionClosedError()
    for (const waiting of pending.values()) waiting.reject(error)
    pending.clear()
    for (const listener of disconnectListeners) listener(error.message)
  })

  async function request<C extends RequestChannel>(
    channel: C,
    args: RequestArgs<C>
  ): Promise<RequestResult<C>> {
    await opened
    // A request on a closed socket would never be answered: refuse it at once.
    if (closed) throw new ConnectionClosedError()
    const id = nextId++
    const frame: ClientFrame = { id, channel, args }
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      socket.send(JSON.stringify(frame))
    })
  }

  function on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void) {
    const set = listeners.get(event) ?? new Set()
    listeners.set(event, set)
    const untyped = listener as (payload: unknown) => void
    set.add(untyped)
    return () => {
      set.delete(untyped)
    }
  }

  function onDisconnect(listener: (message: string) => void) {
    disconnectListeners.add(listener)
    return () => {
      disconnectListeners.delete(listener)
    }
  }

  return { request, on, onDisconnect }
}
