// A picture another tool recorded as a data URL (Codex CLI's `input_image`, OpenCode's image
// attachments), as the Messages API takes one: an image block with its bytes, so the transcript
// shows it and a continued session sends it as Claude Code's images are sent.
import type { Json } from '../json'

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]*)$/i

/** The image block of a data URL holding an image; null for any other URL or text. */
export function imageBlockOfDataUrl(url: string): Json | null {
  const data = DATA_URL.exec(url)
  if (data === null) return null
  return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } }
}
