// window.api, the narrow surface the Electron preload exposes: one named method per contract
// channel ('rewind:preview' → rewindPreview) and one subscriber per event ('session:graph' →
// onSessionGraph). Requests resolve to a Reply value: errors cross IPC as data, never as throws.
import type { EventChannel, EventPayload, Reply, RequestArgs, RequestChannel } from './contract'

type Camel<S extends string> = S extends `${infer Head}:${infer Tail}`
  ? `${Head}${Capitalize<Tail>}`
  : S

export type RequestMethodName<C extends RequestChannel> = Camel<C>
export type EventMethodName<E extends EventChannel> = `on${Capitalize<Camel<E>>}`

export type WindowApi = {
  [C in RequestChannel as RequestMethodName<C>]: (args: RequestArgs<C>) => Promise<Reply>
} & {
  [E in EventChannel as EventMethodName<E>]: (
    listener: (payload: EventPayload<E>) => void
  ) => () => void
}

function camel(name: string): string {
  const [head = '', tail = ''] = name.split(':')
  return `${head}${tail.charAt(0).toUpperCase()}${tail.slice(1)}`
}

export function requestMethodName<C extends RequestChannel>(channel: C): RequestMethodName<C> {
  return camel(channel) as RequestMethodName<C>
}

export function eventMethodName<E extends EventChannel>(event: E): EventMethodName<E> {
  const name = camel(event)
  return `on${name.charAt(0).toUpperCase()}${name.slice(1)}` as EventMethodName<E>
}
