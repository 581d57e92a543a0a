// One request path for both transports: validate the payload against the contract, run the
// handler, validate what it answers, and turn every failure into an error value. Electron IPC
// (src/main/ipc.ts) and the WebSocket host (src/web/server.ts) both call dispatch().
import {
  type ErrorCode,
  type Handlers,
  type Reply,
  type RequestChannel,
  requests
} from '../../shared/contract'
import { CodedError } from '../../shared/coded-error'

function isRequestChannel(channel: string): channel is RequestChannel {
  return Object.hasOwn(requests, channel)
}

function failure(code: ErrorCode, message: string): Reply {
  return { ok: false, error: { code, message } }
}

export async function dispatch(
  handlers: Handlers,
  channel: string,
  rawArgs: unknown,
  log: (message: string) => void = (message) => console.error(message)
): Promise<Reply> {
  if (!isRequestChannel(channel)) return failure('unknown_channel', `Unknown channel "${channel}".`)
  const schema = requests[channel]
  const parsed = schema.args.safeParse(rawArgs ?? {})
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
      .join('; ')
    return failure('invalid_payload', `Invalid payload for ${channel}: ${problems}`)
  }
  try {
    const handler = handlers[channel] as (args: unknown) => Promise<unknown>
    const value = await handler(parsed.data)
    const checked = schema.result.safeParse(value)
    if (!checked.success) {
      log(`${channel} answered outside the contract: ${checked.error.message}`)
      return failure('internal', `${channel} produced an invalid answer.`)
    }
    return { ok: true, value: checked.data }
  } catch (error) {
    // Expected (a busy agent, an unknown checkpoint...): the code and message, no stack logged.
    if (error instanceof CodedError) return failure(error.code, error.message)
    log(
      `${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`
    )
    return failure('internal', error instanceof Error ? error.message : String(error))
  }
}
