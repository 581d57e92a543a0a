// A window of a branch's transcript (session:transcriptRange): the entries around an anchor, so
// the page fetches what it shows and more as the reader scrolls, never a 5,000-turn branch at once.
import type { TranscriptEntry, TranscriptWindow } from '../../shared/views'

export type TranscriptAnchor = number | 'end' | { nodeId: string }

/** A tool-results message is drawn under the calls before it: a window never ends between them. */
function isToolResults(entry: TranscriptEntry | undefined): boolean {
  return entry !== undefined && entry.role === 'user' && !entry.isPrompt
}

export function transcriptWindow(
  entries: readonly TranscriptEntry[],
  anchor: TranscriptAnchor,
  before: number,
  after: number
): TranscriptWindow {
  let at: number
  if (anchor === 'end') at = entries.length
  else if (typeof anchor === 'number') at = Math.min(anchor, entries.length)
  else {
    // A node with no message of its own on the branch (a sub-agent's): the branch's end.
    at = entries.findIndex((entry) => entry.nodeId === anchor.nodeId)
    if (at < 0) at = entries.length
  }
  const start = Math.max(0, at - before)
  let end = Math.min(entries.length, at + after)
  while (end > start && end < entries.length && isToolResults(entries[end])) end++
  return { total: entries.length, start, entries: entries.slice(start, end) }
}
