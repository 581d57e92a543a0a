// The WebSocket transport's frames. The contract's channels and schemas are the same as over
// Electron IPC; only the envelope differs.
import * as z from 'zod'
import { Reply } from './contract'
import { MAX_PROMPT_BYTES } from './prompt-limit'

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

/**
 * The largest frame a page may send: the longest prompt the contract accepts as JSON writes it
 * at worst (a control character becomes a six-byte \u escape), plus room for the envelope: every
 * prompt the contract accepts arrives whole. A larger frame closes the connection (1009); the
 * renderer refuses an oversized prompt before sending it.
 */
export const MAX_CLIENT_FRAME_BYTES = 6 * MAX_PROMPT_BYTES + 64 * 1024
