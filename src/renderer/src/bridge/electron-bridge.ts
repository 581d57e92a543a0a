import type {
  Bridge,
  EventChannel,
  EventPayload,
  Reply,
  RequestArgs,
  RequestChannel,
  RequestResult
} from '../../../shared/contract'
import { eventMethodName, requestMethodName, type WindowApi } from '../../../shared/window-api'
import { BridgeError } from './bridge-error'

export type { WindowApi }

export function electronBridge(api: WindowApi): Bridge {
  async function request<C extends RequestChannel>(
    channel: C,
    args: RequestArgs<C>
  ): Promise<RequestResult<C>> {
    const method = api[requestMethodName(channel)] as unknown as (
      a: RequestArgs<C>
    ) => Promise<Reply>
    const reply = await method(args)
    if (!reply.ok) throw new BridgeError(reply.error)
    // The main process checked the value against the contract before answering.
    return reply.value as RequestResult<C>
  }

  function on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void) {
    const subscribe = api[eventMethodName(event)] as unknown as (
      l: (payload: EventPayload<E>) => void
    ) => () => void
    return subscribe(listener)
  }

  // The main process lives as long as the window: IPC never disconnects.
  const onDisconnect = () => () => undefined

  return { request, on, onDisconnect }
}
