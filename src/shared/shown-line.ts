// One line of session text as a title shows it (a graph node, the timeline, the session list, a
// tool call's summary): keys masked before the cut, so no piece of one is left unmasked; control
// and bidi characters escaped, so a title cannot hide, rewrite or reorder what it shows; cut to
// `max` characters with '…'.
import { escapeControlCharsOneLine } from './control-chars'
import { maskSecrets } from './mask-secrets'

/** The first line of `text`, shown as the module says. */
export function shownFirstLine(text: string, max: number): string {
  return shownLine(maskSecrets(text.trim()).split('\n', 1)[0] ?? '', max)
}

/** `line` (keys already masked), escaped and cut to `max` characters. */
export function shownLine(line: string, max: number): string {
  const shown = escapeControlCharsOneLine(line)
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown
}
