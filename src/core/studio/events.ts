// Events leave the core through one sink per host. Each payload is checked against the
// contract here, once, so a renderer never receives a shape the contract does not promise.
import { type EventChannel, type EventPayload, type EventSink, events } from '../../shared/contract'

export function validatingSink(
  send: (event: EventChannel, payload: unknown) => void,
  log: (message: string) => void = (message) => console.error(message)
): EventSink {
  return <E extends EventChannel>(event: E, payload: EventPayload<E>) => {
    const checked = events[event].safeParse(payload)
    if (!checked.success) {
      log(`Dropped a ${event} event outside the contract: ${checked.error.message}`)
      return
    }
    send(event, checked.data)
  }
}
