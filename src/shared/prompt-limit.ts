// The one size limit on a prompt, in bytes of UTF-8: what a prompt costs on the wire and on disk
// whatever its script (an 800,000-character CJK prompt is 2.4 MB). The contract checks it
// (contract.ts), the web host sizes its frames from it (wire.ts), the renderer checks it before
// sending, and the session log keeps a prompt this size whole (core/session/records.ts).
import { groupedNumber } from './grouped-number'

/** The longest prompt the contract accepts, in bytes of UTF-8. */
export const MAX_PROMPT_BYTES = 500_000

/**
 * The size of `text` in UTF-8, counted without encoding it. A lone surrogate counts 3 bytes,
 * the replacement character an encoder writes for it.
 */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}

export function formatBytes(bytes: number): string {
  return `${groupedNumber(bytes)} bytes`
}

/** Why `text` cannot be sent as a prompt (its size against the limit), or null when it fits. */
export function promptSizeProblem(text: string): string | null {
  const bytes = utf8Length(text)
  if (bytes <= MAX_PROMPT_BYTES) return null
  return `The prompt is ${formatBytes(bytes)} of UTF-8; the limit is ${formatBytes(MAX_PROMPT_BYTES)}. Shorten it, or save the text in a file in the workspace and ask the agent to read it.`
}
