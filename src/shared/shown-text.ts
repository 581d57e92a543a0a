// Session text as people see it in the app: keys masked (mask-secrets.ts), then escaped
// (control-chars.ts). Text the page draws whole keeps its lines, tabs and `\r` and has the
// characters that reorder text escaped; one line of it as a title (a graph node, the timeline, a
// tool call's summary) has every control and bidi character escaped, keys masked before the cut
// so no piece of one is left unmasked, and is cut to `max` characters with '…'.
import { escapeControlCharsOneLine, escapeReorderingChars } from './control-chars'
import { maskSecrets } from './mask-secrets'

/** `text` as the page draws it whole. */
export function shownText(text: string): string {
  return escapeReorderingChars(maskSecrets(text))
}

/** `text` shown on one line whole: keys masked, every control and bidi character escaped. */
export function shownOneLine(text: string): string {
  return escapeControlCharsOneLine(maskSecrets(text))
}

/** The first line of `text`, shown as a title. */
export function shownFirstLine(text: string, max: number): string {
  return shownLine(maskSecrets(text.trim()).split('\n', 1)[0] ?? '', max)
}

/** `line` (keys already masked), escaped and cut to `max` characters. */
export function shownLine(line: string, max: number): string {
  const shown = escapeControlCharsOneLine(line)
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown
}
