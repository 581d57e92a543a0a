// The WebSocket transport's frames. The contract's channels and schemas are the same as over
// Electron IPC; only the envelope differs.
import { z } from 'zod'
import { Reply } from './contract'

export const ClientFrame = z.object({
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  args: z.unknown()
})
export type ClientFrame = z.infer<typeof ClientFrame>

export const ServerFrame = z.union([
  z.object({ id: z.number().int(), reply: Reply }),
  z.object({ event: z.string(), payload: z.unknown() })
])
export type ServerFrame = z.infer<typeof ServerFrame>

/** The path of the WebSocket endpoint; the per-run token goes in its `token` query parameter. */
export const WEBSOCKET_PATH = '/ws'
